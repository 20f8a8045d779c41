#include "nexmark/queries/q5_hot_items.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "nexmark/reference/q5_reference.h"
#include "nexmark_test_support.h"

namespace tidemark::nexmark {
namespace {

using testing::generateEvents;
using testing::runQuery;
using testing::smallConfig;
using testing::sorted;

constexpr std::int64_t kEvents = 30'000;  // 30 s of event time in smallConfig()

bool byWindowThenAuction(const HotItem& a, const HotItem& b) {
  return std::tie(a.window_end, a.auction) < std::tie(b.window_end, b.auction);
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/// Every 10 s window ending on a multiple of 2 s: bids per auction, then the
/// auctions at the maximum; in window order, ties by auction id.
std::vector<HotItem> bruteForce(const std::vector<Event>& events) {
  std::map<Timestamp, std::map<std::int64_t, std::int64_t>> bids_per_window;  // end -> auction -> bids
  for (const Event& event : events) {
    const Bid* bid = event.bid();
    if (bid == nullptr) continue;
    // Windows [end - 10000, end) with end a multiple of 2000 that hold the bid.
    const Timestamp first_end = (floorDiv(bid->date_time, 2000) + 1) * 2000;
    for (Timestamp end = first_end; end - 10'000 <= bid->date_time; end += 2000) {
      ++bids_per_window[end][bid->auction];
    }
  }
  std::vector<HotItem> expected;
  for (const auto& [end, bids] : bids_per_window) {
    std::int64_t most = 0;
    for (const auto& [auction, count] : bids) most = std::max(most, count);
    for (const auto& [auction, count] : bids) {
      if (count == most) expected.push_back(HotItem{auction, count, end});
    }
  }
  return expected;
}

TEST(Q5HotItemsTest, FindsTheAuctionsWithTheMostBidsInEveryWindow) {
  const GeneratorConfig config = smallConfig();
  const std::vector<HotItem> expected = bruteForce(generateEvents(config, kEvents));
  // 30 s of bids (the first ones a little before 0): windows ending at 0,
  // 2000, ..., 38000, the last four after the last bid.
  std::vector<Timestamp> window_ends;
  for (const HotItem& item : expected) window_ends.push_back(item.window_end);
  window_ends.erase(std::unique(window_ends.begin(), window_ends.end()), window_ends.end());
  ASSERT_EQ(window_ends.size(), 20u);
  ASSERT_EQ(window_ends.front(), 0);
  // Full windows count hundreds of bids for their hottest auction.
  ASSERT_GT(expected[5].bids, 100);

  // At parallelism 1 one subtask releases every window, in end order.
  EXPECT_EQ(runQuery(&q5HotItems, config, kEvents, 1), expected);
  EXPECT_EQ(sorted(runQuery(&q5HotItems, config, kEvents, 2), byWindowThenAuction), expected);
}

TEST(Q5HotItemsTest, ReferenceProgramGivesTheSameResultsInTheSameOrder) {
  const GeneratorConfig config = smallConfig();
  // The second count ends in the middle of a slide.
  for (const std::int64_t events : {kEvents, std::int64_t{12'345}}) {
    std::vector<HotItem> reference;
    q5Reference(EventGenerator(config), events, [&reference](const HotItem& item) { reference.push_back(item); });
    EXPECT_EQ(reference, bruteForce(generateEvents(config, events))) << events << " events";
  }
}

/// A bid for `auction` at `date_time`.
Event bidAt(std::int64_t number, std::int64_t auction, Timestamp date_time) {
  Bid bid;
  bid.auction = auction;
  bid.bidder = 2000;
  bid.price = 100;
  bid.date_time = date_time;
  return Event{number, bid};
}

std::vector<HotItem> runOnBids(std::vector<Event> events) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  auto stream = env.fromCollection(std::move(events))
                    .assignTimestampsAndWatermarks(WatermarkStrategy<Event>::forMonotonousTimestamps()
                                                       .withTimestampAssigner([](const Event& e, Timestamp) {
                                                         return e.dateTime();
                                                       }));
  auto results = q5HotItems(stream).collectToMemory();
  env.execute("q5 hand-built");
  return results->values();
}

TEST(Q5HotItemsTest, ReportsEveryAuctionTiedForTheMostBids) {
  // Auction 7: two bids in [0, 2000); auction 5: one at 1999 and one at
  // 2000 (in the next pane). Windows ending at 2000 see 7 ahead; windows
  // holding both panes see a tie; windows holding only [2000, 4000) see 5.
  const std::vector<HotItem> results = runOnBids({
      bidAt(0, 7, 100),
      bidAt(1, 7, 1500),
      bidAt(2, 5, 1999),
      bidAt(3, 5, 2000),
  });
  std::vector<HotItem> expected = {{7, 2, 2000}};
  for (Timestamp end = 4000; end <= 10'000; end += 2000) {
    expected.push_back({5, 2, end});
    expected.push_back({7, 2, end});
  }
  expected.push_back({5, 1, 12'000});
  EXPECT_EQ(results, expected);
}

TEST(Q5HotItemsTest, PrintsOneReadableLine) {
  std::ostringstream line;
  line << HotItem{1007, 12, 10'000};
  EXPECT_EQ(line.str(), "HotItem{auction=1007, bids=12, windowEnd=10000}");
  const LatencyOrigin origin = latencyOrigin(HotItem{1007, 12, 10'000});
  EXPECT_EQ(origin.kind, LatencyOrigin::Kind::kWatermark);
  EXPECT_EQ(origin.value, 9999);
}

}  // namespace
}  // namespace tidemark::nexmark
