// CountTrigger: fires a window every time it has received `n` more elements
// (docs/semantics.md 4.7); countWindow(n) is GlobalWindows with
// PurgingTrigger::of(CountTrigger::of(n)).
//
// Contract:
// - The count is kept per key and window in reducing state named "count"
//   (int64_t, summed), never in the trigger: one trigger serves every key
//   and window of a subtask.
// - onElement adds 1; when the count reaches n it is reset (the state entry
//   is removed) and the result is FIRE. Otherwise CONTINUE. Timers are
//   ignored (CONTINUE).
// - clear() removes the count. It can merge: onMerge() sums the counts of
//   the merged windows into the merged window; a sum >= n fires at the
//   merged window's next element, as in Flink.
// - of(n) throws std::invalid_argument unless n >= 1 (Flink accepts 0 and
//   negatives and then fires on every element; a count that cannot be
//   reached is wrong on its face).
// - Works with any window type.
//
// Example:
//   stream.keyBy(key).window(tidemark::GlobalWindows::create())
//       .trigger(tidemark::PurgingTrigger::of(tidemark::CountTrigger::of(100)));
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "tidemark/core/time.h"
#include "tidemark/state/state_descriptor.h"
#include "tidemark/windowing/trigger.h"

namespace tidemark {

namespace internal {

template <class T, class W>
class CountTriggerImpl final : public Trigger<T, W> {
 public:
  explicit CountTriggerImpl(std::int64_t max_count)
      : max_count_(max_count),
        count_descriptor_("count", [](const std::int64_t& a, const std::int64_t& b) { return a + b; }) {}

  TriggerResult onElement(const T&, Timestamp, const W&, TriggerContext<W>& ctx) override {
    ReducingState<std::int64_t>& count = ctx.getPartitionedState(count_descriptor_);
    count.add(1);
    if (count.get().value_or(0) >= max_count_) {
      count.clear();
      return TriggerResult::FIRE;
    }
    return TriggerResult::CONTINUE;
  }

  TriggerResult onEventTime(Timestamp, const W&, TriggerContext<W>&) override { return TriggerResult::CONTINUE; }

  TriggerResult onProcessingTime(Timestamp, const W&, TriggerContext<W>&) override {
    return TriggerResult::CONTINUE;
  }

  void clear(const W&, TriggerContext<W>& ctx) override { ctx.getPartitionedState(count_descriptor_).clear(); }

  bool canMerge() const override { return true; }

  void onMerge(const W&, OnMergeContext<W>& ctx) override { ctx.mergePartitionedState(count_descriptor_); }

  std::string toString() const override { return fmt::format("CountTrigger({})", max_count_); }

  std::int64_t getMaxCount() const { return max_count_; }

 private:
  std::int64_t max_count_;
  ReducingStateDescriptor<std::int64_t> count_descriptor_;
};

}  // namespace internal

class CountTrigger {
 public:
  /// Throws std::invalid_argument unless max_count >= 1.
  static CountTrigger of(std::int64_t max_count) {
    if (max_count < 1) {
      throw std::invalid_argument(fmt::format("CountTrigger: count must be >= 1, got {}", max_count));
    }
    return CountTrigger(max_count);
  }

  std::int64_t getMaxCount() const { return max_count_; }

  template <class T, class W>
  std::unique_ptr<Trigger<T, W>> build() const {
    return std::make_unique<internal::CountTriggerImpl<T, W>>(max_count_);
  }
  std::string toString() const { return fmt::format("CountTrigger({})", max_count_); }

  friend bool operator==(const CountTrigger&, const CountTrigger&) = default;

 private:
  explicit CountTrigger(std::int64_t max_count) : max_count_(max_count) {}

  std::int64_t max_count_;
};

}  // namespace tidemark
