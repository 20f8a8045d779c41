#include "nexmark/queries/q2_selection.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <sstream>
#include <vector>

#include "nexmark_test_support.h"

namespace tidemark::nexmark {
namespace {

using testing::generateEvents;
using testing::runQuery;
using testing::smallConfig;
using testing::sorted;

constexpr std::int64_t kEvents = 50'000;

/// (auction, price, number) of every bid on an auction whose id is a multiple
/// of 123, in event order.
std::vector<AuctionPrice> bruteForce(const std::vector<Event>& events) {
  std::vector<AuctionPrice> expected;
  for (const Event& event : events) {
    const Bid* bid = event.bid();
    if (bid != nullptr && bid->auction % 123 == 0) expected.push_back({bid->auction, bid->price, event.number});
  }
  return expected;
}

bool byNumber(const AuctionPrice& a, const AuctionPrice& b) { return a.number < b.number; }

TEST(Q2SelectionTest, SelectsTheBidsOnAuctionsDivisibleBy123AtParallelismOneAndTwo) {
  const auto expected = bruteForce(generateEvents(smallConfig(), kEvents));
  // Several selected auctions, each with bids, so a wrong modulus or a
  // dropped auction shows.
  std::set<std::int64_t> auctions;
  for (const AuctionPrice& result : expected) auctions.insert(result.auction);
  ASSERT_GE(auctions.size(), 5u);
  ASSERT_GE(expected.size(), 50u);

  EXPECT_EQ(runQuery(&q2Selection, smallConfig(), kEvents, 1), expected);
  EXPECT_EQ(sorted(runQuery(&q2Selection, smallConfig(), kEvents, 2), byNumber), expected);
}

TEST(Q2SelectionTest, PrintsOneReadableLineAndMeasuresLatencyFromTheBid) {
  std::ostringstream line;
  line << AuctionPrice{1107, 2500, 42};
  EXPECT_EQ(line.str(), "AuctionPrice{auction=1107, price=2500, number=42}");
  const LatencyOrigin origin = latencyOrigin(AuctionPrice{1107, 2500, 42});
  EXPECT_EQ(origin.kind, LatencyOrigin::Kind::kEvent);
  EXPECT_EQ(origin.value, 42);
}

}  // namespace
}  // namespace tidemark::nexmark
