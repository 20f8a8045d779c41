// CheckpointedFunction: a function that keeps state of its own in checkpoints
// (Flink's CheckpointedFunction), most often a source's position.
//
// Contract:
// - initializeState(ctx) runs once per parallel subtask, before open(), also
//   when nothing is restored (then ctx.isRestored() is false). Register the
//   lists there and read what was restored.
// - snapshotState(ctx) runs on the task thread when a checkpoint is taken,
//   between two records: write the lists so they hold what a restore needs.
//   The lists are read right after it returns.
// - Any function may implement it: a source, a sink, a process function. A
//   source must not let a snapshot fall between emitting a record and
//   recording that it did: update the position under
//   ctx.getCheckpointLock() together with the collect (see SourceContext).
//
// Example (a source that remembers how far it got):
//   class Counter : public tidemark::SourceFunction<std::int64_t>, public tidemark::CheckpointedFunction {
//    public:
//     void initializeState(tidemark::FunctionInitializationContext& ctx) override {
//       state_ = &ctx.getOperatorStateStore().getListState(tidemark::ListStateDescriptor<std::int64_t>("next"));
//       for (std::int64_t next : state_->get()) next_ = next;
//     }
//     void snapshotState(const tidemark::FunctionSnapshotContext&) override { state_->update({next_}); }
//     void run(tidemark::SourceContext<std::int64_t>& ctx) override {
//       while (next_ < 1000 && !ctx.isCancelled()) {
//         std::lock_guard lock(ctx.getCheckpointLock());
//         ctx.collect(next_);
//         ++next_;
//       }
//     }
//    private:
//     tidemark::ListState<std::int64_t>* state_ = nullptr;
//     std::int64_t next_ = 0;
//   };
#pragma once

#include <cstdint>
#include <optional>

#include "tidemark/core/time.h"
#include "tidemark/functions/operator_state_store.h"

namespace tidemark {

/// What snapshotState() may ask about the checkpoint being taken.
class FunctionSnapshotContext {
 public:
  FunctionSnapshotContext(std::int64_t checkpoint_id, Timestamp checkpoint_timestamp)
      : checkpoint_id_(checkpoint_id), checkpoint_timestamp_(checkpoint_timestamp) {}
  std::int64_t getCheckpointId() const { return checkpoint_id_; }
  /// When the checkpoint was triggered, on the job's processing-time clock
  /// (the simulated one in a simulated run).
  Timestamp getCheckpointTimestamp() const { return checkpoint_timestamp_; }

 private:
  std::int64_t checkpoint_id_;
  Timestamp checkpoint_timestamp_;
};

/// Where initializeState() finds its state.
class FunctionInitializationContext {
 public:
  FunctionInitializationContext(OperatorStateStore& store, bool restored, std::int64_t restored_checkpoint_id = 0,
                                int attempt_number = 0)
      : store_(store),
        restored_(restored),
        restored_checkpoint_id_(restored_checkpoint_id),
        attempt_number_(attempt_number) {}
  /// True when the subtask restores from a checkpoint or savepoint.
  bool isRestored() const { return restored_; }
  /// The id of the checkpoint restored from, when isRestored().
  std::optional<std::int64_t> getRestoredCheckpointId() const {
    return restored_ ? std::optional<std::int64_t>(restored_checkpoint_id_) : std::nullopt;
  }
  /// 0 in a job's first run, then one more at each of its restarts (Flink's
  /// attempt number): a function whose effects outlive a failed attempt can
  /// take them back here.
  int getAttemptNumber() const { return attempt_number_; }
  OperatorStateStore& getOperatorStateStore() { return store_; }

 private:
  OperatorStateStore& store_;
  bool restored_;
  std::int64_t restored_checkpoint_id_;
  int attempt_number_;
};

class CheckpointedFunction {
 public:
  virtual ~CheckpointedFunction() = default;
  virtual void snapshotState(const FunctionSnapshotContext& context) = 0;
  virtual void initializeState(FunctionInitializationContext& context) = 0;
};

}  // namespace tidemark
