#include "nexmark/queries/q4_average_price_by_category.h"

#include <gtest/gtest.h>

#include <map>
#include <utility>
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

using PerCategory = std::map<std::int64_t, std::vector<CategoryPrice>>;

/// The running mean per category over the closings in close order.
PerCategory expectedPrices(const std::vector<Event>& events) {
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> sum_and_count;
  PerCategory expected;
  for (const AuctionWinner& w : bruteForceWinners(events)) {
    auto& [sum, count] = sum_and_count[w.auction.category];
    sum += w.bid.price;
    ++count;
    expected[w.auction.category].push_back(CategoryPrice{w.auction.category, sum / count, w.auction.id, w.auction.expires});
  }
  return expected;
}

/// Results per category, each in the order it arrived.
PerCategory byCategory(const std::vector<CategoryPrice>& results) {
  PerCategory grouped;
  for (const CategoryPrice& r : results) grouped[r.category].push_back(r);
  return grouped;
}

TEST(Q4AveragePriceByCategoryTest, GivesEachCategorysRunningMeanInCloseOrderAtAnyParallelism) {
  const auto events = generateEvents(smallConfig(), kEvents);
  const PerCategory expected = expectedPrices(events);
  ASSERT_EQ(expected.size(), 5u);
  for (const auto& [category, prices] : expected) ASSERT_GT(prices.size(), 200u) << "category " << category;
  for (int parallelism : {1, 2}) {
    const auto results = runQuery(&q4AveragePriceByCategory, smallConfig(), kEvents, parallelism);
    EXPECT_EQ(byCategory(results), expected) << "parallelism " << parallelism;
  }
}

}  // namespace
}  // namespace tidemark::nexmark
