// fromElements / fromCollection: a bounded, non-parallel source of given values.
//
// It keeps its position in checkpoints (how many values it emitted), so a
// restored job goes on with the next value. A restored position beyond the
// collection (the job now reads another one) fails the job with a message
// that says so.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/functions/checkpointed_function.h"
#include "tidemark/functions/source_function.h"

namespace tidemark {

template <class T>
class FromCollectionSource final : public SourceFunction<T>, public CheckpointedFunction {
 public:
  explicit FromCollectionSource(std::vector<T> values) : values_(std::move(values)) {}

  void initializeState(FunctionInitializationContext& context) override {
    position_ = &context.getOperatorStateStore().getListState(ListStateDescriptor<std::int64_t>("collection-position"));
    for (std::int64_t next : position_->get()) next_ = static_cast<std::size_t>(std::max<std::int64_t>(next, 0));
  }

  void snapshotState(const FunctionSnapshotContext&) override {
    position_->update({static_cast<std::int64_t>(next_)});
  }

  void run(SourceContext<T>& ctx) override {
    if (next_ > values_.size()) {
      throw std::runtime_error("fromCollection: the restored position " + std::to_string(next_) +
                               " is beyond the collection's " + std::to_string(values_.size()) +
                               " values: the job reads another collection than the one checkpointed");
    }
    while (next_ < values_.size()) {
      if (ctx.isCancelled()) return;
      std::lock_guard lock(ctx.getCheckpointLock());
      ctx.collect(values_[next_]);
      ++next_;
    }
  }

 private:
  std::vector<T> values_;
  std::size_t next_ = 0;
  ListState<std::int64_t>* position_ = nullptr;
};

}  // namespace tidemark
