#include "nexmark/queries/q6_average_selling_price_by_seller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <numeric>
#include <vector>

#include "nexmark_test_support.h"
#include "winning_bids_expected.h"

namespace tidemark::nexmark {
namespace {

using testing::bruteForceWinners;
using testing::generateEvents;
using testing::runQuery;
using testing::smallConfig;

constexpr std::int64_t kEvents = 30'000;

using PerSeller = std::map<std::int64_t, std::vector<SellerPrice>>;

/// The mean of each seller's last 10 winning prices, over closings in close order.
PerSeller expectedPrices(const std::vector<Event>& events) {
  std::map<std::int64_t, std::deque<std::int64_t>> last_prices;
  PerSeller expected;
  for (const AuctionWinner& w : bruteForceWinners(events)) {
    std::deque<std::int64_t>& prices = last_prices[w.auction.seller];
    prices.push_back(w.bid.price);
    if (prices.size() > 10) prices.pop_front();
    const std::int64_t sum = std::accumulate(prices.begin(), prices.end(), std::int64_t{0});
    expected[w.auction.seller].push_back(SellerPrice{w.auction.seller, sum / static_cast<std::int64_t>(prices.size()),
                                                     w.auction.id, w.auction.expires});
  }
  return expected;
}

/// Results per seller, each in the order it arrived.
PerSeller bySeller(const std::vector<SellerPrice>& results) {
  PerSeller grouped;
  for (const SellerPrice& r : results) grouped[r.seller].push_back(r);
  return grouped;
}

TEST(Q6AverageSellingPriceBySellerTest, AveragesEachSellersLastTenClosingsInCloseOrderAtAnyParallelism) {
  const auto events = generateEvents(smallConfig(), kEvents);
  const PerSeller expected = expectedPrices(events);
  ASSERT_GT(expected.size(), 100u);
  // Some sellers close more than 10 auctions, so their window slides.
  const auto sliding = std::count_if(expected.begin(), expected.end(), [](const auto& seller) {
    return seller.second.size() > 10;
  });
  ASSERT_GT(sliding, 5);
  for (int parallelism : {1, 2}) {
    const auto results = runQuery(&q6AverageSellingPriceBySeller, smallConfig(), kEvents, parallelism);
    EXPECT_EQ(bySeller(results), expected) << "parallelism " << parallelism;
  }
}

}  // namespace
}  // namespace tidemark::nexmark
