// The winning bid of every auction, by brute force over the generated
// events: the expected input of q4, q6 and q9 tests, written from the
// definition (no engine, no query code).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "nexmark/model.h"
#include "nexmark/queries/winning_bids.h"

namespace tidemark::nexmark::testing {

/// Higher price first, then earlier, then the other fields ascending.
inline bool ranksHigher(const Bid& a, const Bid& b) {
  return std::make_tuple(-a.price, a.date_time, a.auction, a.bidder, a.channel, a.url, a.extra) <
         std::make_tuple(-b.price, b.date_time, b.auction, b.bidder, b.channel, b.url, b.extra);
}

/// Every auction that has a bid within [dateTime, expires], with its best
/// such bid, in close order (expires, then auction id).
inline std::vector<AuctionWinner> bruteForceWinners(const std::vector<Event>& events) {
  std::map<std::int64_t, Auction> auctions;
  for (const Event& e : events) {
    if (const Auction* a = e.auction()) auctions[a->id] = *a;
  }
  std::map<std::int64_t, Bid> best;
  for (const Event& e : events) {
    const Bid* b = e.bid();
    if (b == nullptr) continue;
    const auto auction = auctions.find(b->auction);
    if (auction == auctions.end()) continue;
    if (b->date_time < auction->second.date_time || b->date_time > auction->second.expires) continue;
    const auto [held, inserted] = best.try_emplace(b->auction, *b);
    if (!inserted && ranksHigher(*b, held->second)) held->second = *b;
  }
  std::vector<AuctionWinner> winners;
  for (const auto& [id, bid] : best) winners.push_back(AuctionWinner{auctions[id], bid});
  std::sort(winners.begin(), winners.end(), [](const AuctionWinner& x, const AuctionWinner& y) {
    return std::tie(x.auction.expires, x.auction.id) < std::tie(y.auction.expires, y.auction.id);
  });
  return winners;
}

}  // namespace tidemark::nexmark::testing
