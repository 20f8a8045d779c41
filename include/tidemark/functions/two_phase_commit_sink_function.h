// TwoPhaseCommitSinkFunction: the base of a sink that makes what it writes
// visible only once the checkpoint covering it is complete (Flink's
// TwoPhaseCommitSinkFunction), so that a job restored from that checkpoint
// neither loses nor repeats it.
//
// A derived sink writes into transactions of its own kind, TXN:
// - beginTransaction() opens one; every record goes into the open one
//   (invoke(txn, value, context)).
// - At a checkpoint, preCommit(txn) makes the open transaction durable (and
//   after it commit() must not fail for lack of data); it is kept as pending
//   for that checkpoint, and a new one begins. Both are in the snapshot.
// - When a checkpoint completes, commit(txn) runs for every pending
//   transaction up to it, in order.
// - After a restore, every pending transaction of the restored checkpoint
//   is committed with recoverAndCommit() (the checkpoint completed, so it
//   must be; it may have been committed before the failure already, so
//   commit must be idempotent), and the one open at that checkpoint is
//   aborted with recoverAndAbort().
// - At the end of the input (not at a failure) the open transaction is
//   pre-committed and every transaction committed.
// - CONTEXT is state of the sink outside its transactions (for a file
//   sink, its part counters); it is snapshotted with them and handed to
//   recoverContext() on restore.
//
// Restored state goes by the subtask that wrote it: the one at index
// `writer % parallelism` recovers it, so that a restore at another
// parallelism still commits each pending transaction exactly once, and a
// sink that names its output after the subtask index (files, transactional
// ids) knows whose leftovers are its own to clean up. Unlike Flink's, whose
// list is split in turn, every subtask sees every restored context.
//
// TXN and CONTEXT need a TypeSerializer (docs/serialization.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "tidemark/functions/checkpoint_listener.h"
#include "tidemark/functions/checkpointed_function.h"
#include "tidemark/functions/sink_function.h"
#include "tidemark/state/list_state.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark {

/// The CONTEXT of a sink that keeps nothing outside its transactions.
struct NoSinkContext {
  auto fields() { return std::tie(); }
};

/// What one subtask of a two-phase-commit sink keeps in a checkpoint.
template <class TXN, class CONTEXT>
struct TwoPhaseCommitState {
  std::int32_t writer = 0;                               // the subtask index that wrote it
  std::vector<std::pair<std::int64_t, TXN>> pending;     // checkpoint id, pre-committed transaction
  TXN open{};                                            // begun at that checkpoint
  CONTEXT context{};
  auto fields() { return std::tie(writer, pending, open, context); }
};

template <class IN, class TXN, class CONTEXT = NoSinkContext>
class TwoPhaseCommitSinkFunction : public SinkFunction<IN>, public CheckpointedFunction, public CheckpointListener {
 public:
  using Context = typename SinkFunction<IN>::Context;
  using State = TwoPhaseCommitState<TXN, CONTEXT>;

  /// A restored context, with the index of the subtask that wrote it.
  struct RestoredContext {
    int writer;
    CONTEXT context;
  };

  void initializeState(FunctionInitializationContext& init) override {
    state_ = &init.getOperatorStateStore().getUnionListState(ListStateDescriptor<State>("two-phase-commit-sink"));
    const int index = this->getRuntimeContext().getIndexOfThisSubtask();
    const int parallelism = this->getRuntimeContext().getNumberOfParallelSubtasks();
    std::vector<RestoredContext> contexts;
    for (State& restored : state_->get()) {
      if (restored.writer % parallelism == index) {
        for (auto& [checkpoint_id, transaction] : restored.pending) recoverAndCommit(transaction);
        recoverAndAbort(restored.open);
      }
      contexts.push_back(RestoredContext{restored.writer, std::move(restored.context)});
    }
    state_->clear();
    context_ = init.isRestored() ? recoverContext(std::move(contexts)) : initializeUserContext(init);
    open_ = beginTransaction();
  }

  void invoke(const IN& value, const Context& context) final { invoke(open_, value, context); }

  void snapshotState(const FunctionSnapshotContext& snapshot) override {
    preCommit(open_);
    pending_.emplace_back(snapshot.getCheckpointId(), std::exchange(open_, TXN{}));
    open_ = beginTransaction();
    const auto writer = static_cast<std::int32_t>(this->getRuntimeContext().getIndexOfThisSubtask());
    state_->update({State{writer, pending_, open_, context_}});
  }

  void notifyCheckpointComplete(std::int64_t checkpoint_id) override {
    std::size_t committed = 0;
    while (committed < pending_.size() && pending_[committed].first <= checkpoint_id) {
      commit(pending_[committed].second);
      ++committed;
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(committed));
  }

  /// The input ended: everything written is final.
  void finish() override {
    preCommit(open_);
    for (auto& [checkpoint_id, transaction] : pending_) commit(transaction);
    pending_.clear();
    commit(open_);
    open_ = TXN{};
  }

 protected:
  virtual TXN beginTransaction() = 0;
  virtual void invoke(TXN& transaction, const IN& value, const Context& context) = 0;
  virtual void preCommit(TXN& transaction) = 0;
  virtual void commit(TXN& transaction) = 0;
  virtual void abort(TXN& transaction) = 0;
  virtual void recoverAndCommit(TXN& transaction) { commit(transaction); }
  virtual void recoverAndAbort(TXN& transaction) { abort(transaction); }

  /// The context of a subtask that restores nothing.
  virtual CONTEXT initializeUserContext(FunctionInitializationContext& init) {
    (void)init;
    return CONTEXT{};
  }
  /// The context of a restored subtask, from every restored subtask's
  /// context (by default its own, or a fresh one when it had none).
  virtual CONTEXT recoverContext(std::vector<RestoredContext> restored) {
    for (auto& each : restored) {
      if (each.writer == this->getRuntimeContext().getIndexOfThisSubtask()) return std::move(each.context);
    }
    return CONTEXT{};
  }

  /// The transaction records go into now (for work done outside invoke()).
  TXN& openTransaction() { return open_; }
  CONTEXT& userContext() { return context_; }

 private:
  ListState<State>* state_ = nullptr;
  std::vector<std::pair<std::int64_t, TXN>> pending_;
  TXN open_{};
  CONTEXT context_{};
};

}  // namespace tidemark
