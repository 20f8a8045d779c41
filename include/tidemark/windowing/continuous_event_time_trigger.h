// ContinuousEventTimeTrigger: fires a window every `interval` of event time
// (early results) and once more when the watermark passes its end
// (SEMANTICS.md 4.7, newest Flink form).
//
// Contract:
// - onElement: if window.maxTimestamp() <= current watermark, FIRE at once.
//   Otherwise register an event-time timer at maxTimestamp(), and if the
//   window has no stored fire time yet, store and register
//   next = min(start + interval, maxTimestamp()) with
//   start = ts - (ts % interval), `%` truncating toward zero as Java's does:
//   for negative timestamps that is not a floor, and Flink's firing times are
//   reproduced as they are.
// - onEventTime(t): t == maxTimestamp() FIREs; t == the stored fire time
//   stores and registers min(t + interval, maxTimestamp()) and FIREs;
//   anything else CONTINUEs.
// - The fire time is kept per key and window in reducing state "fire-time"
//   (int64_t, min). clear() deletes its timer and the state; the timer at
//   maxTimestamp() is left, as in Flink (it is the operator's own cleanup
//   timer when allowed lateness is 0). It can merge: onMerge() keeps the
//   smallest fire time of the merged windows and registers it.
// - of(interval) throws std::invalid_argument unless interval > 0.
// - Any window type with maxTimestamp() (a GlobalWindow's is MAX).
//
// Example:
//   stream.keyBy(key).window(tidemark::TumblingEventTimeWindows::of(std::chrono::hours(1)))
//       .trigger(tidemark::ContinuousEventTimeTrigger::of(std::chrono::minutes(5)));
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
class ContinuousEventTimeTriggerImpl final : public Trigger<T, W> {
 public:
  explicit ContinuousEventTimeTriggerImpl(Duration interval)
      : interval_(interval),
        fire_time_descriptor_("fire-time",
                              [](const std::int64_t& a, const std::int64_t& b) { return std::min(a, b); }) {}

  TriggerResult onElement(const T&, Timestamp timestamp, const W& window, TriggerContext<W>& ctx) override {
    if (window.maxTimestamp() <= ctx.getCurrentWatermark()) {
      return TriggerResult::FIRE;
    }
    ctx.registerEventTimeTimer(window.maxTimestamp());
    ReducingState<std::int64_t>& fire_time = ctx.getPartitionedState(fire_time_descriptor_);
    if (!fire_time.get()) {
      registerNextFireTime(timestamp - (timestamp % interval_), window, ctx, fire_time);
    }
    return TriggerResult::CONTINUE;
  }

  TriggerResult onEventTime(Timestamp time, const W& window, TriggerContext<W>& ctx) override {
    if (time == window.maxTimestamp()) {
      return TriggerResult::FIRE;
    }
    ReducingState<std::int64_t>& fire_time = ctx.getPartitionedState(fire_time_descriptor_);
    if (fire_time.get() == time) {
      fire_time.clear();
      registerNextFireTime(time, window, ctx, fire_time);
      return TriggerResult::FIRE;
    }
    return TriggerResult::CONTINUE;
  }

  TriggerResult onProcessingTime(Timestamp, const W&, TriggerContext<W>&) override {
    return TriggerResult::CONTINUE;
  }

  void clear(const W&, TriggerContext<W>& ctx) override {
    ReducingState<std::int64_t>& fire_time = ctx.getPartitionedState(fire_time_descriptor_);
    if (std::optional<std::int64_t> time = fire_time.get()) {
      ctx.deleteEventTimeTimer(*time);
      fire_time.clear();
    }
  }

  bool canMerge() const override { return true; }

  void onMerge(const W&, OnMergeContext<W>& ctx) override {
    ctx.mergePartitionedState(fire_time_descriptor_);
    if (std::optional<std::int64_t> next = ctx.getPartitionedState(fire_time_descriptor_).get()) {
      ctx.registerEventTimeTimer(*next);
    }
  }

  std::string toString() const override { return fmt::format("ContinuousEventTimeTrigger({})", interval_); }

  Duration getInterval() const { return interval_; }

 private:
  // The clamp makes the last early firing coincide with the end-of-window
  // firing instead of landing after the window was cleaned up.
  void registerNextFireTime(Timestamp from, const W& window, TriggerContext<W>& ctx,
                            ReducingState<std::int64_t>& fire_time) {
    const Timestamp next = std::min(saturatingAdd(from, interval_), window.maxTimestamp());
    fire_time.add(next);
    ctx.registerEventTimeTimer(next);
  }

  Duration interval_;
  ReducingStateDescriptor<std::int64_t> fire_time_descriptor_;
};

}  // namespace internal

class ContinuousEventTimeTrigger {
 public:
  /// Throws std::invalid_argument unless interval > 0 (milliseconds).
  static ContinuousEventTimeTrigger of(Duration interval) {
    if (interval <= 0) {
      throw std::invalid_argument(
          fmt::format("ContinuousEventTimeTrigger: interval must be > 0, got {} ms", interval));
    }
    return ContinuousEventTimeTrigger(interval);
  }
  template <class Rep, class Period>
  static ContinuousEventTimeTrigger of(std::chrono::duration<Rep, Period> interval) {
    return of(toMillis(interval));
  }

  Duration getInterval() const { return interval_; }

  template <class T, class W>
  std::unique_ptr<Trigger<T, W>> build() const {
    return std::make_unique<internal::ContinuousEventTimeTriggerImpl<T, W>>(interval_);
  }
  std::string toString() const { return fmt::format("ContinuousEventTimeTrigger({})", interval_); }

  friend bool operator==(const ContinuousEventTimeTrigger&, const ContinuousEventTimeTrigger&) = default;

 private:
  explicit ContinuousEventTimeTrigger(Duration interval) : interval_(interval) {}

  Duration interval_;
};

}  // namespace tidemark
