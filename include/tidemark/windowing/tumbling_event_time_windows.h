// TumblingEventTimeWindows: puts each record into the one window of a fixed
// size that contains its event timestamp; windows do not overlap
// (docs/semantics.md 4.2).
//
// Contract:
// - Windows are [start, start + size) with start on the grid offset + k * size,
//   floored toward -inf, so negative timestamps land in the window below
//   them: of(10000) puts -1 into [-10000, 0).
// - of(size[, offset]) throws std::invalid_argument unless size > 0 and
//   |offset| < size. Sizes are milliseconds or any std::chrono::duration
//   (cast to milliseconds).
// - A record without a timestamp (kMinWatermark) makes assignWindows() throw
//   std::runtime_error: event-time windows need assignTimestampsAndWatermarks().
// - Default trigger: EventTimeTrigger. toString(): "TumblingEventTimeWindows(<size>)".
// - The factory returns this specification; KeyedStream::window() builds the
//   WindowAssigner<T, TimeWindow> from it, and the window operator may read
//   getSize()/getOffset() to choose a faster implementation.
//
// Example:
//   stream.keyBy(key).window(tidemark::TumblingEventTimeWindows::of(std::chrono::minutes(1)));
//   // hourly windows starting at a quarter past:
//   tidemark::TumblingEventTimeWindows::of(std::chrono::hours(1), std::chrono::minutes(15));
#pragma once

#include <string_view>

#include "tidemark/windowing/tumbling_windows.h"
#include "tidemark/windowing/window_clock.h"

namespace tidemark {

namespace internal {

struct TumblingEventTimeTraits : EventTimeClock {
  static constexpr std::string_view kName = "TumblingEventTimeWindows";
};

}  // namespace internal

using TumblingEventTimeWindows = TumblingWindows<internal::TumblingEventTimeTraits>;

}  // namespace tidemark
