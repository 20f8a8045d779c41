// ContinuousTrigger<Traits>: what ContinuousEventTimeTrigger and
// ContinuousProcessingTimeTrigger share: the specification (of(), validation,
// toString()) and the trigger that fires a window every interval on the grid
// of multiples of the interval, keeping the next fire time per key and window
// in reducing state "fire-time" and clamping it to the window's end. The two
// are this template with different traits (a clock from window_clock.h plus
// the name and kFiresAtWindowEnd), so that they can only differ in the clock,
// in their messages and in what kFiresAtWindowEnd switches; their contracts
// are in continuous_event_time_trigger.h and
// continuous_processing_time_trigger.h.
//
// Traits: a clock, `static constexpr std::string_view kName` (messages and
// toString() start with it) and `static constexpr bool kFiresAtWindowEnd`:
// whether the trigger also keeps a timer of its own at window.maxTimestamp()
// that FIREs whatever the stored fire time, and FIREs at once for an element
// of a window whose end the clock has already passed.
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
#include "tidemark/windowing/window_clock.h"

namespace tidemark {

namespace internal {

template <class Traits, class T, class W>
class ContinuousTriggerImpl final : public Trigger<T, W> {
 public:
  explicit ContinuousTriggerImpl(Duration interval)
      : interval_(interval),
        fire_time_descriptor_("fire-time",
                              [](const std::int64_t& a, const std::int64_t& b) { return std::min(a, b); }) {}

  TriggerResult onElement(const T&, Timestamp timestamp, const W& window, TriggerContext<W>& ctx) override {
    if constexpr (Traits::kFiresAtWindowEnd) {
      if (window.maxTimestamp() <= Traits::currentTime(ctx)) {
        return TriggerResult::FIRE;
      }
      Traits::registerTimer(ctx, window.maxTimestamp());
    }
    ReducingState<std::int64_t>& fire_time = ctx.getPartitionedState(fire_time_descriptor_);
    if (!fire_time.get()) {
      const Timestamp time = Traits::elementTime(timestamp, ctx);
      registerNextFireTime(time - (time % interval_), window, ctx, fire_time);
    }
    return TriggerResult::CONTINUE;
  }

  TriggerResult onEventTime(Timestamp time, const W& window, TriggerContext<W>& ctx) override {
    if constexpr (Traits::kIsEventTime) {
      return onTimer(time, window, ctx);
    } else {
      return TriggerResult::CONTINUE;
    }
  }

  TriggerResult onProcessingTime(Timestamp time, const W& window, TriggerContext<W>& ctx) override {
    if constexpr (Traits::kIsEventTime) {
      return TriggerResult::CONTINUE;
    } else {
      return onTimer(time, window, ctx);
    }
  }

  void clear(const W&, TriggerContext<W>& ctx) override {
    ReducingState<std::int64_t>& fire_time = ctx.getPartitionedState(fire_time_descriptor_);
    if (std::optional<std::int64_t> time = fire_time.get()) {
      Traits::deleteTimer(ctx, *time);
      fire_time.clear();
    }
  }

  bool canMerge() const override { return true; }

  void onMerge(const W&, OnMergeContext<W>& ctx) override {
    ctx.mergePartitionedState(fire_time_descriptor_);
    if (std::optional<std::int64_t> next = ctx.getPartitionedState(fire_time_descriptor_).get()) {
      Traits::registerTimer(ctx, *next);
    }
  }

  std::string toString() const override { return fmt::format("{}({})", Traits::kName, interval_); }

  Duration getInterval() const { return interval_; }

 private:
  /// A timer of the clock's time domain.
  TriggerResult onTimer(Timestamp time, const W& window, TriggerContext<W>& ctx) {
    if (Traits::kFiresAtWindowEnd && time == window.maxTimestamp()) {
      return TriggerResult::FIRE;
    }
    ReducingState<std::int64_t>& fire_time = ctx.getPartitionedState(fire_time_descriptor_);
    // Flink's processing-time form dereferences the state unchecked; a timer
    // of the window that is not ours (the operator's cleanup timer after
    // clear) must not crash here.
    if (fire_time.get() == time) {
      fire_time.clear();
      registerNextFireTime(time, window, ctx, fire_time);
      return TriggerResult::FIRE;
    }
    return TriggerResult::CONTINUE;
  }

  // The clamp makes the last early firing coincide with the end-of-window
  // firing instead of landing after the window was cleaned up.
  void registerNextFireTime(Timestamp from, const W& window, TriggerContext<W>& ctx,
                            ReducingState<std::int64_t>& fire_time) {
    const Timestamp next = std::min(saturatingAdd(from, interval_), window.maxTimestamp());
    fire_time.add(next);
    Traits::registerTimer(ctx, next);
  }

  Duration interval_;
  ReducingStateDescriptor<std::int64_t> fire_time_descriptor_;
};

}  // namespace internal

/// Use it as ContinuousEventTimeTrigger or ContinuousProcessingTimeTrigger.
template <class Traits>
class ContinuousTrigger {
 public:
  /// Throws std::invalid_argument unless interval > 0 (milliseconds).
  static ContinuousTrigger of(Duration interval) {
    if (interval <= 0) {
      throw std::invalid_argument(fmt::format("{}: interval must be > 0, got {} ms", Traits::kName, interval));
    }
    return ContinuousTrigger(interval);
  }
  template <class Rep, class Period>
  static ContinuousTrigger of(std::chrono::duration<Rep, Period> interval) {
    return of(toMillis(interval));
  }

  Duration getInterval() const { return interval_; }

  template <class T, class W>
  std::unique_ptr<Trigger<T, W>> build() const {
    return std::make_unique<internal::ContinuousTriggerImpl<Traits, T, W>>(interval_);
  }
  std::string toString() const { return fmt::format("{}({})", Traits::kName, interval_); }

  friend bool operator==(const ContinuousTrigger&, const ContinuousTrigger&) = default;

 private:
  explicit ContinuousTrigger(Duration interval) : interval_(interval) {}

  Duration interval_;
};

}  // namespace tidemark
