// TumblingProcessingTimeWindows: puts each record into the one window of a
// fixed size that contains the operator's current processing time; the
// record's timestamp is ignored (docs/semantics.md 4.2, 4.10).
//
// Contract:
// - Windows are [start, start + size) with start on the grid offset + k * size
//   (floored toward -inf), taken at the processing time of the call.
// - of(size[, offset]) throws std::invalid_argument unless size > 0 and
//   |offset| < size. Sizes are milliseconds or any std::chrono::duration
//   (cast to milliseconds).
// - Processing-time windows are never late; they fire and are cleaned up
//   when processing time reaches maxTimestamp().
// - Default trigger: ProcessingTimeTrigger. toString(): "TumblingProcessingTimeWindows(<size>)".
//
// Example:
//   stream.keyBy(key).window(tidemark::TumblingProcessingTimeWindows::of(std::chrono::seconds(5)));
#pragma once

#include <string_view>

#include "tidemark/windowing/tumbling_windows.h"
#include "tidemark/windowing/window_clock.h"

namespace tidemark {

namespace internal {

struct TumblingProcessingTimeTraits : ProcessingTimeClock {
  static constexpr std::string_view kName = "TumblingProcessingTimeWindows";
};

}  // namespace internal

using TumblingProcessingTimeWindows = TumblingWindows<internal::TumblingProcessingTimeTraits>;

}  // namespace tidemark
