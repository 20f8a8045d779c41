#include "nexmark/queries/q9_winning_bids.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "nexmark_test_support.h"
#include "winning_bids_expected.h"

namespace tidemark::nexmark {
namespace {

using testing::bruteForceWinners;
using testing::generateEvents;
using testing::runQuery;
using testing::smallConfig;
using testing::sorted;

constexpr std::int64_t kEvents = 30'000;

bool byAuctionId(const AuctionWinner& a, const AuctionWinner& b) { return a.auction.id < b.auction.id; }

/// Bids within their auction's lifetime that come earlier in the stream than the auction.
std::vector<Bid> validBidsAheadOfTheirAuction(const std::vector<Event>& events) {
  std::map<std::int64_t, const Event*> auctions;
  for (const Event& e : events) {
    if (const Auction* a = e.auction()) auctions[a->id] = &e;
  }
  std::vector<Bid> ahead;
  for (const Event& e : events) {
    const Bid* b = e.bid();
    if (b == nullptr) continue;
    const auto it = auctions.find(b->auction);
    if (it == auctions.end()) continue;
    const Auction& a = *it->second->auction();
    if (e.number < it->second->number && a.date_time <= b->date_time && b->date_time <= a.expires) ahead.push_back(*b);
  }
  return ahead;
}

TEST(Q9WinningBidsTest, FindsTheBestValidBidOfEveryAuctionAtAnyParallelism) {
  const auto events = generateEvents(smallConfig(), kEvents);
  const auto expected = sorted(bruteForceWinners(events), byAuctionId);
  ASSERT_GT(expected.size(), 1000u);
  // Bids that must wait for their auction, some of which win.
  const auto ahead = validBidsAheadOfTheirAuction(events);
  ASSERT_GT(ahead.size(), 100u);
  const auto waited_and_won = std::count_if(expected.begin(), expected.end(), [&](const AuctionWinner& w) {
    return std::find(ahead.begin(), ahead.end(), w.bid) != ahead.end();
  });
  ASSERT_GT(waited_and_won, 20);
  for (int parallelism : {1, 2}) {
    const auto results = runQuery(&q9WinningBids, smallConfig(), kEvents, parallelism);
    EXPECT_EQ(sorted(results, byAuctionId), expected) << "parallelism " << parallelism;
  }
}

}  // namespace
}  // namespace tidemark::nexmark
