// ContinuousEventTimeTrigger: fires a window every `interval` of event time
// (early results) and once more when the watermark passes its end
// (docs/semantics.md 4.7, newest Flink form).
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

#include <string_view>

#include "tidemark/windowing/continuous_trigger.h"
#include "tidemark/windowing/window_clock.h"

namespace tidemark {

namespace internal {

struct ContinuousEventTimeTraits : EventTimeClock {
  static constexpr std::string_view kName = "ContinuousEventTimeTrigger";
  // As Flink's ContinuousEventTimeTrigger, it also does EventTimeTrigger's
  // job: an element of a window the watermark has already passed (allowed
  // lateness) fires the window at once, and the window's end has a timer of
  // its own. Only event-time windows can be late.
  static constexpr bool kFiresAtWindowEnd = true;
};

}  // namespace internal

using ContinuousEventTimeTrigger = ContinuousTrigger<internal::ContinuousEventTimeTraits>;

}  // namespace tidemark
