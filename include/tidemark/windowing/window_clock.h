// EventTimeClock and ProcessingTimeClock: the clock the assigners and
// triggers that come as an event-time and a processing-time twin
// (TumblingEventTimeWindows / TumblingProcessingTimeWindows, ...,
// ContinuousEventTimeTrigger / ContinuousProcessingTimeTrigger) are
// instantiated with. Each twin pair is one class template (tumbling_windows.h,
// sliding_windows.h, session_windows.h, continuous_trigger.h) whose traits
// type derives from one of these clocks and adds the names, so the two forms
// can differ only in the clock and in what their traits spell out.
//
// A clock supplies:
// - kIsEventTime: what isEventTime() reports;
// - requireElementTime(timestamp, assigner): the check an assigner makes
//   before it places an element (event time: the element must have a
//   timestamp; processing time: nothing to check);
// - elementTime(timestamp, ctx): the instant that places an element (event
//   time: its timestamp; processing time: ctx's current processing time, the
//   timestamp ignored), for an assigner or a trigger context;
// - currentTime(ctx): a trigger context's time (the watermark, or the
//   current processing time);
// - registerTimer / deleteTimer: timers of the clock's time domain;
// - defaultTrigger<T>(): the trigger of the clock's time windows
//   (EventTimeTrigger, ProcessingTimeTrigger).
#pragma once

#include <memory>

#include "tidemark/core/time.h"
#include "tidemark/windowing/event_time_trigger.h"
#include "tidemark/windowing/processing_time_trigger.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/trigger_context.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark::internal {

struct EventTimeClock {
  static constexpr bool kIsEventTime = true;

  /// A record without a timestamp (kMinWatermark) throws std::runtime_error naming `assigner`.
  template <class Assigner>
  static void requireElementTime(Timestamp timestamp, const Assigner& assigner) {
    requireEventTimestamp(timestamp, assigner);
  }
  template <class Context>
  static Timestamp elementTime(Timestamp timestamp, const Context&) {
    return timestamp;
  }

  template <class W>
  static Timestamp currentTime(const TriggerContext<W>& ctx) {
    return ctx.getCurrentWatermark();
  }
  template <class W>
  static void registerTimer(TriggerContext<W>& ctx, Timestamp time) {
    ctx.registerEventTimeTimer(time);
  }
  template <class W>
  static void deleteTimer(TriggerContext<W>& ctx, Timestamp time) {
    ctx.deleteEventTimeTimer(time);
  }

  template <class T>
  static std::unique_ptr<Trigger<T, TimeWindow>> defaultTrigger() {
    return EventTimeTrigger::create().build<T, TimeWindow>();
  }
};

struct ProcessingTimeClock {
  static constexpr bool kIsEventTime = false;

  /// Any record can be placed at the current processing time.
  template <class Assigner>
  static void requireElementTime(Timestamp, const Assigner&) {}
  template <class Context>
  static Timestamp elementTime(Timestamp, const Context& ctx) {
    return ctx.getCurrentProcessingTime();
  }

  template <class W>
  static Timestamp currentTime(const TriggerContext<W>& ctx) {
    return ctx.getCurrentProcessingTime();
  }
  template <class W>
  static void registerTimer(TriggerContext<W>& ctx, Timestamp time) {
    ctx.registerProcessingTimeTimer(time);
  }
  template <class W>
  static void deleteTimer(TriggerContext<W>& ctx, Timestamp time) {
    ctx.deleteProcessingTimeTimer(time);
  }

  template <class T>
  static std::unique_ptr<Trigger<T, TimeWindow>> defaultTrigger() {
    return ProcessingTimeTrigger::create().build<T, TimeWindow>();
  }
};

}  // namespace tidemark::internal
