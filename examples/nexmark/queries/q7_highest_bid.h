// Q7, highest bid: in every tumbling 10 s window, the bids with the highest
// price (all bids tied at that price).
#pragma once

#include <ostream>
#include <tuple>

#include "nexmark/model.h"
#include "nexmark/query.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

inline constexpr Duration kHighestBidWindowSize = 10'000;

/// A bid with the highest price in the window that ends at `window_end`.
struct HighestBid {
  Bid bid;
  Timestamp window_end = 0;

  friend bool operator==(const HighestBid&, const HighestBid&) = default;
};

std::ostream& operator<<(std::ostream& os, const HighestBid& highest);

/// Known once the watermark passes the window's last millisecond.
inline LatencyOrigin latencyOrigin(const HighestBid& highest) {
  return LatencyOrigin::watermark(highest.window_end - 1);
}

/// The order in which a window's tied bids are emitted: by dateTime, then
/// by every other field, so that it does not depend on arrival order.
inline bool highestBidEmittedBefore(const Bid& a, const Bid& b) {
  return std::tie(a.date_time, a.auction, a.bidder, a.price, a.channel, a.url, a.extra) <
         std::tie(b.date_time, b.auction, b.bidder, b.price, b.channel, b.url, b.extra);
}

/// Per window: its highest bids in highestBidEmittedBefore() order, windows in end order.
DataStream<HighestBid> q7HighestBid(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
