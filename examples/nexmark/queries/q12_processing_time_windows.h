// Q12, processing-time windows: how many bids each bidder made in each 10 s
// of processing time. Tumbling processing-time windows per bidder: a bid
// counts in the window of the moment it is processed, whatever its event
// time, and a window is released when the clock reaches its end. A window
// still open when a bounded input ends is dropped: pending processing-time
// timers do not fire at the end of input (docs/simulated-time.md, rule 7).
#pragma once

#include <cstdint>
#include <ostream>

#include "nexmark/model.h"
#include "nexmark/query.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

inline constexpr Duration kProcessingTimeWindow = 10'000;

struct BidderCount {
  std::int64_t bidder = 0;
  std::int64_t bids = 0;
  Timestamp window_start = 0;  // processing time
  Timestamp window_end = 0;
  /// The highest event number among the counted bids: the last one created.
  /// A processing-time window has no event time that releases it, so its
  /// latency is measured from that bid.
  std::int64_t last_number = 0;

  friend bool operator==(const BidderCount&, const BidderCount&) = default;
};

std::ostream& operator<<(std::ostream& os, const BidderCount& result);
inline LatencyOrigin latencyOrigin(const BidderCount& result) { return LatencyOrigin::event(result.last_number); }

DataStream<BidderCount> q12ProcessingTimeWindows(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
