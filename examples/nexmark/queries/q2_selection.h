// Q2, selection: the bids on a fixed set of auctions (ids divisible by 123),
// as (auction, price). A stateless filter with a projection.
#pragma once

#include <cstdint>
#include <ostream>

#include "nexmark/model.h"
#include "nexmark/query.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

struct AuctionPrice {
  std::int64_t auction = 0;
  std::int64_t price = 0;
  std::int64_t number = 0;  // the bid's event number: where latency starts

  friend bool operator==(const AuctionPrice&, const AuctionPrice&) = default;
};

std::ostream& operator<<(std::ostream& os, const AuctionPrice& result);
inline LatencyOrigin latencyOrigin(const AuctionPrice& result) { return LatencyOrigin::event(result.number); }

/// Whether q2 selects bids on this auction.
constexpr bool isSelectedAuction(std::int64_t auction) { return auction % 123 == 0; }

DataStream<AuctionPrice> q2Selection(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
