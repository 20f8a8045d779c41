// SlidingEventTimeWindows: puts each record into every window of a fixed size
// that contains its event timestamp, with a new window starting every
// `slide` (docs/semantics.md 4.2).
//
// Contract:
// - Window starts lie on the grid offset + k * slide (floored toward -inf,
//   also for negative timestamps); a record gets [st, st + size) for
//   st = last, last - slide, ... while st > ts - size, where last is the
//   grid point at or below ts: ceil(size / slide) windows, latest start
//   first (that order is the order the window operator processes them in).
//   With size < slide some records fall between windows and get none.
// - of(size, slide[, offset]) throws std::invalid_argument unless size > 0,
//   slide > 0 and |offset| < slide. Durations are milliseconds or any
//   std::chrono::duration (cast to milliseconds).
// - A record without a timestamp (kMinWatermark) makes assignWindows() throw
//   std::runtime_error: event-time windows need assignTimestampsAndWatermarks().
// - Default trigger: EventTimeTrigger. toString(): "SlidingEventTimeWindows(<size>, <slide>)".
// - The factory returns this specification; KeyedStream::window() builds the
//   WindowAssigner<T, TimeWindow> from it, and the window operator may read
//   getSize()/getSlide()/getOffset() to choose a faster implementation.
//
// Example:
//   // 10 s windows every 5 s: ts 12000 -> [10000, 20000), [5000, 15000)
//   stream.keyBy(key).window(tidemark::SlidingEventTimeWindows::of(10000, 5000));
#pragma once

#include <string_view>

#include "tidemark/windowing/sliding_windows.h"
#include "tidemark/windowing/window_clock.h"

namespace tidemark {

namespace internal {

struct SlidingEventTimeTraits : EventTimeClock {
  static constexpr std::string_view kName = "SlidingEventTimeWindows";
};

}  // namespace internal

using SlidingEventTimeWindows = SlidingWindows<internal::SlidingEventTimeTraits>;

}  // namespace tidemark
