// A parallel, replayable source for checkpointing tests.
#pragma once

#include <cstdint>
#include <mutex>

#include "tidemark/tidemark.h"

namespace tidemark::testing_support {

/// Each subtask emits its share of 0, 1, 2, ... (value v at event time
/// v / parallelism), a watermark every fourth record, and sleeps 3 ms after
/// it, so the job runs for a while on the simulated clock. Its position is
/// kept in operator state and updated with the emit under the checkpoint lock.
class CountingSource : public ParallelSourceFunction<std::int64_t>, public CheckpointedFunction {
 public:
  explicit CountingSource(std::int64_t per_subtask) : per_subtask_(per_subtask) {}

  void initializeState(FunctionInitializationContext& ctx) override {
    position_ = &ctx.getOperatorStateStore().getListState(ListStateDescriptor<std::int64_t>("next"));
    for (std::int64_t next : position_->get()) next_ = next;
  }
  void snapshotState(const FunctionSnapshotContext&) override { position_->update({next_}); }

  void run(SourceContext<std::int64_t>& ctx) override {
    const int p = ctx.getNumberOfParallelSubtasks();
    const int i = ctx.getIndexOfThisSubtask();
    while (next_ < per_subtask_ && !ctx.isCancelled()) {
      {
        std::lock_guard<CheckpointLock> lock(ctx.getCheckpointLock());
        ctx.collectWithTimestamp(next_ * p + i, next_);
        ++next_;
        if (next_ % 4 == 0) ctx.emitWatermark(next_ - 1);
      }
      if (next_ % 4 == 0) ctx.sleep(3);
    }
  }

 private:
  std::int64_t per_subtask_;
  std::int64_t next_ = 0;
  ListState<std::int64_t>* position_ = nullptr;
};

}  // namespace tidemark::testing_support
