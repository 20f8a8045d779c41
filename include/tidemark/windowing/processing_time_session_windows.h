// ProcessingTimeSessionWindows: groups a key's records into sessions
// separated by at least a gap of inactivity in processing time; the record's
// timestamp is ignored (docs/semantics.md 4.2, 4.10).
//
// Contract:
// - Each record first gets [now, now + gap) with now the operator's current
//   processing time; the window operator merges intersecting (also
//   touching) windows of a key into one session, as for
//   EventTimeSessionWindows.
// - withGap(gap) throws std::invalid_argument unless gap > 0; gaps are
//   milliseconds or any std::chrono::duration (cast to milliseconds).
// - withDynamicGap(extractor): `extractor(const T&)` returns the record's gap
//   (Duration or std::chrono::duration); a gap <= 0 makes assignWindows()
//   throw std::invalid_argument naming the value.
// - Default trigger: ProcessingTimeTrigger. toString():
//   "ProcessingTimeSessionWindows(<gap>)", "DynamicProcessingTimeSessionWindows()".
//
// Example:
//   stream.keyBy(user).window(tidemark::ProcessingTimeSessionWindows::withGap(std::chrono::seconds(30)));
#pragma once

#include <string_view>

#include "tidemark/windowing/session_windows.h"
#include "tidemark/windowing/window_clock.h"

namespace tidemark {

namespace internal {

struct ProcessingTimeSessionTraits : ProcessingTimeClock {
  static constexpr std::string_view kName = "ProcessingTimeSessionWindows";
  static constexpr std::string_view kDynamicName = "DynamicProcessingTimeSessionWindows";
};

}  // namespace internal

using ProcessingTimeSessionWindows = SessionWindows<internal::ProcessingTimeSessionTraits>;

/// What ProcessingTimeSessionWindows::withDynamicGap() returns.
template <class E>
using DynamicProcessingTimeSessionWindows = DynamicSessionWindows<internal::ProcessingTimeSessionTraits, E>;

}  // namespace tidemark
