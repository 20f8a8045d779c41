// EventTimeTrigger: fires a TimeWindow once the watermark passes its end;
// the default trigger of the event-time assigners (docs/semantics.md 4.7).
//
// Contract:
// - onElement: if window.maxTimestamp() <= current watermark the window is
//   already due (a late element within allowed lateness) and it FIREs at
//   once; otherwise it registers an event-time timer at maxTimestamp() and
//   CONTINUEs.
// - onEventTime(t) FIREs iff t == maxTimestamp(): the operator's cleanup
//   timer at maxTimestamp + allowedLateness calls it too and must not fire
//   the window a second time.
// - It returns FIRE, never FIRE_AND_PURGE: contents accumulate, so each late
//   firing emits the whole updated window. Wrap it in PurgingTrigger to emit
//   only what arrived since the last firing.
// - clear() deletes the maxTimestamp() timer. It can merge: onMerge()
//   registers the merged window's timer only when maxTimestamp() > current
//   watermark; otherwise the next onElement fires the window, and
//   registering too would fire it twice.
// - TimeWindow only, as in Flink.
//
// Example:
//   stream.keyBy(key).window(tidemark::TumblingEventTimeWindows::of(10000))
//       .trigger(tidemark::EventTimeTrigger::create());   // same as the default
#pragma once

#include <memory>
#include <string>
#include <type_traits>

#include "tidemark/core/time.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/trigger.h"

namespace tidemark {

namespace internal {

template <class T, class W>
class EventTimeTriggerImpl final : public Trigger<T, W>, public WindowEndTimerTrigger<W> {
  static_assert(std::is_same_v<W, TimeWindow>,
                "EventTimeTrigger works with TimeWindow only (for GlobalWindow use CountTrigger or a custom trigger)");

 public:
  TriggerResult onElement(const T&, Timestamp, const W& window, TriggerContext<W>& ctx) override {
    if (window.maxTimestamp() <= ctx.getCurrentWatermark()) {
      return TriggerResult::FIRE;
    }
    ctx.registerEventTimeTimer(window.maxTimestamp());
    return TriggerResult::CONTINUE;
  }

  bool timerIsEventTime() const override { return true; }

  /// Before the watermark reaches the window's end, the timer the window's
  /// first element registered has not fired; after, each element fires the
  /// window.
  bool repeatsOnElement(const W& window, const TriggerContext<W>& ctx) const override {
    return window.maxTimestamp() > ctx.getCurrentWatermark();
  }

  TriggerResult onEventTime(Timestamp time, const W& window, TriggerContext<W>&) override {
    return time == window.maxTimestamp() ? TriggerResult::FIRE : TriggerResult::CONTINUE;
  }

  TriggerResult onProcessingTime(Timestamp, const W&, TriggerContext<W>&) override {
    return TriggerResult::CONTINUE;
  }

  void clear(const W& window, TriggerContext<W>& ctx) override { ctx.deleteEventTimeTimer(window.maxTimestamp()); }

  bool canMerge() const override { return true; }

  void onMerge(const W& window, OnMergeContext<W>& ctx) override {
    if (window.maxTimestamp() > ctx.getCurrentWatermark()) {
      ctx.registerEventTimeTimer(window.maxTimestamp());
    }
  }

  std::string toString() const override { return "EventTimeTrigger()"; }
};

}  // namespace internal

class EventTimeTrigger {
 public:
  static EventTimeTrigger create() { return EventTimeTrigger(); }

  template <class T, class W>
  std::unique_ptr<Trigger<T, W>> build() const {
    return std::make_unique<internal::EventTimeTriggerImpl<T, W>>();
  }
  std::string toString() const { return "EventTimeTrigger()"; }

  friend bool operator==(const EventTimeTrigger&, const EventTimeTrigger&) = default;

 private:
  EventTimeTrigger() = default;
};

}  // namespace tidemark
