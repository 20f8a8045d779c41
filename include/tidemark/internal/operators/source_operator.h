// The head of a source task: runs a SourceFunction and ends its output with the
// MAX watermark when run() returns. A source function that is a
// CheckpointedFunction keeps its position in the operator's snapshots; the
// snapshots also hold the last watermark the source emitted, so a restored
// source does not emit it, or a lower one, again. One that is not (the socket
// source, a user source without state) cannot be rewound: with checkpointing
// on, each subtask says so in a warning when it opens.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/log.h"
#include "tidemark/functions/source_function.h"
#include "tidemark/internal/core/operator_failure.h"
#include "tidemark/internal/operators/source_context_impl.h"
#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark::internal {

/// The type-independent face of a source operator, for the task.
class SourceOperatorBase : public OperatorBase {
 public:
  /// Run the source to completion, then emit MAX. Throws OperatorFailure.
  virtual void runSource(SourceHooks& hooks) = 0;
  /// Ask the user function to stop (any thread).
  virtual void cancelSource() = 0;
  /// While runSource() runs: the lock the source holds when a snapshot must
  /// wait; null otherwise.
  virtual CheckpointLock* runningCheckpointLock() = 0;
};

template <class T>
class SourceOperator final : public SourceOperatorBase {
 public:
  explicit SourceOperator(std::unique_ptr<SourceFunction<T>> function) : function_(std::move(function)) {}

  std::type_index outputType() const override { return typeid(T); }

  OperatorSnapshot snapshotState(std::int64_t checkpoint_id) const override {
    return {checkpoint_id, {}, {}, running_ != nullptr ? running_->lastEmittedWatermark() : watermark_, {}};
  }

  void open() override {
    if (this->isRestored()) {
      const std::vector<OperatorSnapshot> snapshots = this->takeRestoredSnapshots();
      const OperatorSnapshot* own = ownSnapshot(snapshots, context().subtask_index, context().parallelism);
      watermark_ = own != nullptr ? own->current_watermark : restoredWatermark(snapshots);
    }
    this->initializeFunctionState(*function_);
    if (context().checkpointing_enabled && this->checkpointedFunction() == nullptr) {
      warnNotReplayable();
    }
    function_->open();
  }
  void close() override { function_->close(); }

  void runSource(SourceHooks& hooks) override {
    auto& output = *static_cast<Output<T>*>(mainOutputBase());
    const Timestamp restored_watermark = watermark_;
    SourceContextImpl<T> ctx(output, hooks, context().subtask_index, context().parallelism, restored_watermark);
    {
      RunningContext running(running_, ctx, running_hooks_, hooks);
      callNamingFailures(
          [this] { return context().description(); }, [] { return std::string("its input"); },
          [&] { function_->run(ctx); });
    }
    // A bounded input ends with MAX, unless the source sent it in this run.
    const bool sent_max = ctx.lastEmittedWatermark() == kMaxWatermark && restored_watermark != kMaxWatermark;
    watermark_ = kMaxWatermark;
    if (!sent_max) emitWatermarkToAll(kMaxWatermark);
  }

  void cancelSource() override { function_->cancel(); }
  CheckpointLock* runningCheckpointLock() override { return running_hooks_ != nullptr ? &running_hooks_->checkpointLock() : nullptr; }

 private:
  /// Points the slots at the running context and hooks for as long as it
  /// lives, however run() ends.
  class RunningContext {
   public:
    RunningContext(const SourceContextImpl<T>*& slot, const SourceContextImpl<T>& ctx, SourceHooks*& hooks_slot,
                   SourceHooks& hooks)
        : slot_(slot), hooks_slot_(hooks_slot) {
      slot_ = &ctx;
      hooks_slot_ = &hooks;
    }
    RunningContext(const RunningContext&) = delete;
    RunningContext& operator=(const RunningContext&) = delete;
    ~RunningContext() {
      slot_ = nullptr;
      hooks_slot_ = nullptr;
    }

   private:
    const SourceContextImpl<T>*& slot_;
    SourceHooks*& hooks_slot_;
  };

  void warnNotReplayable() const {
    logMessage(LogLevel::WARNING,
               fmt::format("source {} is not replayable: it keeps no position in checkpoints (it is not a "
                           "CheckpointedFunction), so a restored job runs it afresh instead of from the checkpoint, "
                           "and exactly-once does not cover its records",
                           context().description()));
  }

  std::unique_ptr<SourceFunction<T>> function_;
  const SourceContextImpl<T>* running_ = nullptr;  // while runSource() runs: what snapshots read
  SourceHooks* running_hooks_ = nullptr;           // while runSource() runs
  Timestamp watermark_ = kMinWatermark;            // the last one emitted, outside runSource()
};

}  // namespace tidemark::internal
