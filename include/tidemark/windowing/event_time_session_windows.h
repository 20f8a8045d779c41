// EventTimeSessionWindows: groups a key's records into sessions separated by
// at least a gap of inactivity in event time (docs/semantics.md 4.2, 4.5).
//
// Contract:
// - Each record first gets its own window [ts, ts + gap); the window operator
//   then merges every run of intersecting windows of a key into one session
//   covering them. Touching windows intersect, so [1000, 4000) and
//   [4000, 7000) become [1000, 7000), while [.., 5500) and [5501, ..) stay
//   apart.
// - withGap(gap) throws std::invalid_argument unless gap > 0; gaps are
//   milliseconds or any std::chrono::duration (cast to milliseconds).
// - withDynamicGap(extractor) takes the gap from each record:
//   `extractor(const T&)` returns a Duration (milliseconds) or a
//   std::chrono::duration. A gap <= 0 makes assignWindows() throw
//   std::invalid_argument naming the value. The session's end is the largest
//   end of the windows it covers.
// - A record without a timestamp (kMinWatermark) makes assignWindows() throw
//   std::runtime_error. Flink's session assigners do not check (they build
//   the window [MIN, MIN + gap)); tidemark rejects it as its other
//   event-time assigners do, since such a window can only be a mistake.
// - Default trigger: EventTimeTrigger. toString(): "EventTimeSessionWindows(<gap>)",
//   "DynamicEventTimeSessionWindows()".
//
// Example:
//   stream.keyBy(user).window(tidemark::EventTimeSessionWindows::withGap(std::chrono::minutes(30)));
//   stream.keyBy(user).window(tidemark::EventTimeSessionWindows::withDynamicGap(
//       [](const Click& c) { return c.premium ? 60'000 : 10'000; }));
#pragma once

#include <string_view>

#include "tidemark/windowing/session_windows.h"
#include "tidemark/windowing/window_clock.h"

namespace tidemark {

namespace internal {

// EventTimeClock::requireElementTime() is what rejects records without a
// timestamp, which Flink's session assigners would accept (see above).
struct EventTimeSessionTraits : EventTimeClock {
  static constexpr std::string_view kName = "EventTimeSessionWindows";
  static constexpr std::string_view kDynamicName = "DynamicEventTimeSessionWindows";
};

}  // namespace internal

using EventTimeSessionWindows = SessionWindows<internal::EventTimeSessionTraits>;

/// What EventTimeSessionWindows::withDynamicGap() returns.
template <class E>
using DynamicEventTimeSessionWindows = DynamicSessionWindows<internal::EventTimeSessionTraits, E>;

}  // namespace tidemark
