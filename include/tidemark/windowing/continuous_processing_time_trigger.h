// ContinuousProcessingTimeTrigger: fires a window every `interval` of
// processing time, on the grid of multiples of the interval (SEMANTICS.md
// 4.7, newest Flink form).
//
// Contract:
// - onElement: if the window has no stored fire time yet, store and
//   register a processing-time timer at next = min(start + interval,
//   window.maxTimestamp()) with start = now - (now % interval) (the
//   element's timestamp is ignored). Always CONTINUE.
// - onProcessingTime(t): if t is the stored fire time, store and register
//   min(t + interval, maxTimestamp()) and FIRE; otherwise CONTINUE.
//   The clamp (Flink 1.13.6+, FLINK-20443) makes the last firing of a
//   TimeWindow land on its end, so elements of the last interval are
//   emitted before the window is cleaned up; a GlobalWindow's maxTimestamp()
//   is MAX, so it fires every interval for ever.
// - The fire time is kept per key and window in reducing state "fire-time"
//   (int64_t, min). clear() deletes its timer and the state. It can merge:
//   onMerge() keeps the smallest fire time and registers it.
// - Event-time callbacks CONTINUE.
// - of(interval) throws std::invalid_argument unless interval > 0.
//
// Example:
//   stream.keyBy(key).window(tidemark::GlobalWindows::create())
//       .trigger(tidemark::ContinuousProcessingTimeTrigger::of(std::chrono::seconds(10)));
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "tidemark/core/time.h"
#include "tidemark/state/state_descriptor.h"
#include "tidemark/windowing/trigger.h"

namespace tidemark {

namespace internal {

template <class T, class W>
class ContinuousProcessingTimeTriggerImpl final : public Trigger<T, W> {
 public:
  explicit ContinuousProcessingTimeTriggerImpl(Duration interval)
      : interval_(interval),
        fire_time_descriptor_("fire-time",
                              [](const std::int64_t& a, const std::int64_t& b) { return std::min(a, b); }) {}

  TriggerResult onElement(const T&, Timestamp, const W& window, TriggerContext<W>& ctx) override {
    ReducingState<std::int64_t>& fire_time = ctx.getPartitionedState(fire_time_descriptor_);
    if (!fire_time.get()) {
      const Timestamp now = ctx.getCurrentProcessingTime();
      registerNextFireTime(now - (now % interval_), window, ctx, fire_time);
    }
    return TriggerResult::CONTINUE;
  }

  TriggerResult onEventTime(Timestamp, const W&, TriggerContext<W>&) override { return TriggerResult::CONTINUE; }

  TriggerResult onProcessingTime(Timestamp time, const W& window, TriggerContext<W>& ctx) override {
    ReducingState<std::int64_t>& fire_time = ctx.getPartitionedState(fire_time_descriptor_);
    // Flink dereferences the state unchecked; a timer of the window that is not
    // ours (the operator's cleanup timer after clear) must not crash here.
    if (fire_time.get() == time) {
      fire_time.clear();
      registerNextFireTime(time, window, ctx, fire_time);
      return TriggerResult::FIRE;
    }
    return TriggerResult::CONTINUE;
  }

  void clear(const W&, TriggerContext<W>& ctx) override {
    ReducingState<std::int64_t>& fire_time = ctx.getPartitionedState(fire_time_descriptor_);
    if (std::optional<std::int64_t> time = fire_time.get()) {
      ctx.deleteProcessingTimeTimer(*time);
      fire_time.clear();
    }
  }

  bool canMerge() const override { return true; }

  void onMerge(const W&, OnMergeContext<W>& ctx) override {
    ctx.mergePartitionedState(fire_time_descriptor_);
    if (std::optional<std::int64_t> next = ctx.getPartitionedState(fire_time_descriptor_).get()) {
      ctx.registerProcessingTimeTimer(*next);
    }
  }

  std::string toString() const override { return fmt::format("ContinuousProcessingTimeTrigger({})", interval_); }

  Duration getInterval() const { return interval_; }

 private:
  void registerNextFireTime(Timestamp from, const W& window, TriggerContext<W>& ctx,
                            ReducingState<std::int64_t>& fire_time) {
    const Timestamp next = std::min(saturatingAdd(from, interval_), window.maxTimestamp());
    fire_time.add(next);
    ctx.registerProcessingTimeTimer(next);
  }

  Duration interval_;
  ReducingStateDescriptor<std::int64_t> fire_time_descriptor_;
};

}  // namespace internal

class ContinuousProcessingTimeTrigger {
 public:
  /// Throws std::invalid_argument unless interval > 0 (milliseconds).
  static ContinuousProcessingTimeTrigger of(Duration interval) {
    if (interval <= 0) {
      throw std::invalid_argument(
          fmt::format("ContinuousProcessingTimeTrigger: interval must be > 0, got {} ms", interval));
    }
    return ContinuousProcessingTimeTrigger(interval);
  }
  template <class Rep, class Period>
  static ContinuousProcessingTimeTrigger of(std::chrono::duration<Rep, Period> interval) {
    return of(toMillis(interval));
  }

  Duration getInterval() const { return interval_; }

  template <class T, class W>
  std::unique_ptr<Trigger<T, W>> build() const {
    return std::make_unique<internal::ContinuousProcessingTimeTriggerImpl<T, W>>(interval_);
  }
  std::string toString() const { return fmt::format("ContinuousProcessingTimeTrigger({})", interval_); }

  friend bool operator==(const ContinuousProcessingTimeTrigger&, const ContinuousProcessingTimeTrigger&) = default;

 private:
  explicit ContinuousProcessingTimeTrigger(Duration interval) : interval_(interval) {}

  Duration interval_;
};

}  // namespace tidemark
