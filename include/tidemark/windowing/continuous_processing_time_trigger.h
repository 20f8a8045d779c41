// ContinuousProcessingTimeTrigger: fires a window every `interval` of
// processing time, on the grid of multiples of the interval (docs/semantics.md
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

#include <string_view>

#include "tidemark/windowing/continuous_trigger.h"
#include "tidemark/windowing/window_clock.h"

namespace tidemark {

namespace internal {

struct ContinuousProcessingTimeTraits : ProcessingTimeClock {
  static constexpr std::string_view kName = "ContinuousProcessingTimeTrigger";
  // As Flink's ContinuousProcessingTimeTrigger: processing-time windows are
  // never late, and the last firing at the window's end comes from the fire
  // time clamped to maxTimestamp() (a GlobalWindow's is MAX: it never ends).
  static constexpr bool kFiresAtWindowEnd = false;
};

}  // namespace internal

using ContinuousProcessingTimeTrigger = ContinuousTrigger<internal::ContinuousProcessingTimeTraits>;

}  // namespace tidemark
