// SlidingProcessingTimeWindows: puts each record into every window of a
// fixed size that contains the operator's current processing time, with a
// new window every `slide`; the record's timestamp is ignored (docs/semantics.md
// 4.2, 4.10).
//
// Contract:
// - The windows are those SlidingEventTimeWindows would give a record whose
//   timestamp is the current processing time: ceil(size / slide) of them,
//   latest start first.
// - of(size, slide[, offset]) throws std::invalid_argument unless size > 0,
//   slide > 0 and |offset| < slide. Durations are milliseconds or any
//   std::chrono::duration (cast to milliseconds).
// - Processing-time windows are never late; they fire and are cleaned up
//   when processing time reaches maxTimestamp().
// - Default trigger: ProcessingTimeTrigger. toString(): "SlidingProcessingTimeWindows(<size>, <slide>)".
//
// Example:
//   stream.keyBy(key).window(tidemark::SlidingProcessingTimeWindows::of(std::chrono::seconds(10),
//                                                                      std::chrono::seconds(5)));
#pragma once

#include <string_view>

#include "tidemark/windowing/sliding_windows.h"
#include "tidemark/windowing/window_clock.h"

namespace tidemark {

namespace internal {

struct SlidingProcessingTimeTraits : ProcessingTimeClock {
  static constexpr std::string_view kName = "SlidingProcessingTimeWindows";
};

}  // namespace internal

using SlidingProcessingTimeWindows = SlidingWindows<internal::SlidingProcessingTimeTraits>;

}  // namespace tidemark
