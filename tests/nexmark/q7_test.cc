#include "nexmark/queries/q7_highest_bid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "nexmark/reference/q7_reference.h"
#include "nexmark_test_support.h"

namespace tidemark::nexmark {
namespace {

using testing::generateEvents;
using testing::runQuery;
using testing::smallConfig;
using testing::sorted;

constexpr std::int64_t kEvents = 40'000;  // 40 s of event time in smallConfig()

/// The documented output order: windows by end, tied bids by dateTime and
/// then by the other fields.
bool inOutputOrder(const HighestBid& a, const HighestBid& b) {
  const Bid& x = a.bid;
  const Bid& y = b.bid;
  return std::tie(a.window_end, x.date_time, x.auction, x.bidder, x.price, x.channel, x.url, x.extra) <
         std::tie(b.window_end, y.date_time, y.auction, y.bidder, y.price, y.channel, y.url, y.extra);
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/// Per tumbling 10 s window: every bid at the window's highest price.
std::vector<HighestBid> bruteForce(const std::vector<Event>& events) {
  std::map<Timestamp, std::vector<Bid>> bids_per_window;  // by end
  for (const Event& event : events) {
    if (const Bid* bid = event.bid()) bids_per_window[(floorDiv(bid->date_time, 10'000) + 1) * 10'000].push_back(*bid);
  }
  std::vector<HighestBid> expected;
  for (const auto& [end, bids] : bids_per_window) {
    std::int64_t highest = 0;
    for (const Bid& bid : bids) highest = std::max(highest, bid.price);
    for (const Bid& bid : bids) {
      if (bid.price == highest) expected.push_back(HighestBid{bid, end});
    }
  }
  std::sort(expected.begin(), expected.end(), inOutputOrder);
  return expected;
}

TEST(Q7HighestBidTest, FindsTheHighestBidsOfEveryWindow) {
  const GeneratorConfig config = smallConfig();
  const std::vector<HighestBid> expected = bruteForce(generateEvents(config, kEvents));
  // Windows ending at 0 (the first events are a little before 0), 10 s, ..., 40 s.
  ASSERT_GE(expected.size(), 5u);
  EXPECT_EQ(expected.front().window_end, 0);
  EXPECT_EQ(expected.back().window_end, 40'000);
  EXPECT_GT(expected[2].bid.price, 1'000'000);  // the top of thousands of bids

  // One subtask combines every window, so the order is defined at any parallelism;
  // at parallelism 2 the sinks' outputs interleave.
  EXPECT_EQ(runQuery(&q7HighestBid, config, kEvents, 1), expected);
  EXPECT_EQ(sorted(runQuery(&q7HighestBid, config, kEvents, 2), inOutputOrder), expected);
}

TEST(Q7HighestBidTest, ReferenceProgramGivesTheSameResultsInTheSameOrder) {
  const GeneratorConfig config = smallConfig();
  // The second count ends in the middle of a window.
  for (const std::int64_t events : {kEvents, std::int64_t{23'456}}) {
    std::vector<HighestBid> reference;
    q7Reference(EventGenerator(config), events, [&reference](const HighestBid& highest) {
      reference.push_back(highest);
    });
    EXPECT_EQ(reference, bruteForce(generateEvents(config, events))) << events << " events";
  }
}

Event bidAt(std::int64_t number, std::int64_t auction, std::int64_t price, Timestamp date_time) {
  Bid bid;
  bid.auction = auction;
  bid.bidder = 2000 + number;
  bid.price = price;
  bid.channel = "Google";
  bid.date_time = date_time;
  return Event{number, bid};
}

std::vector<HighestBid> runOnBids(std::vector<Event> events, int parallelism) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(parallelism);
  env.enableSimulatedTime();
  auto stream = env.fromCollection(std::move(events))
                    .assignTimestampsAndWatermarks(WatermarkStrategy<Event>::forBoundedOutOfOrderness(100)
                                                       .withTimestampAssigner([](const Event& e, Timestamp) {
                                                         return e.dateTime();
                                                       }));
  auto results = q7HighestBid(stream).collectToMemory();
  env.execute("q7 hand-built");
  return results->values();
}

TEST(Q7HighestBidTest, ReportsEveryBidTiedAtTheHighestPrice) {
  // Window [0, 10000): 500 three times (two at the same millisecond), the
  // later ones arriving first; 9999 is the window's last millisecond, 10000
  // opens the next window.
  const std::vector<Event> bids = {
      bidAt(0, 1001, 400, 10),   bidAt(1, 1004, 500, 9999), bidAt(2, 1003, 500, 9950),
      bidAt(3, 1002, 500, 9950), bidAt(4, 1005, 300, 9960), bidAt(5, 1006, 700, 10'000),
  };
  const std::vector<HighestBid> expected = {
      {*bids[3].bid(), 10'000},
      {*bids[2].bid(), 10'000},
      {*bids[1].bid(), 10'000},
      {*bids[5].bid(), 20'000},
  };
  // Tied bids come out by dateTime (then auction), not in arrival order.
  EXPECT_EQ(runOnBids(bids, 1), expected);
  EXPECT_EQ(sorted(runOnBids(bids, 2), inOutputOrder), expected);
}

TEST(Q7HighestBidTest, PrintsOneReadableLine) {
  Bid bid;
  bid.auction = 1001;
  bid.bidder = 2002;
  bid.price = 500;
  bid.channel = "Google";
  bid.date_time = 1234;
  std::ostringstream line;
  line << HighestBid{bid, 10'000};
  EXPECT_EQ(line.str(),
            "HighestBid{auction=1001, bidder=2002, price=500, channel=Google, dateTime=1234, windowEnd=10000}");
  const LatencyOrigin origin = latencyOrigin(HighestBid{bid, 10'000});
  EXPECT_EQ(origin.kind, LatencyOrigin::Kind::kWatermark);
  EXPECT_EQ(origin.value, 9999);
}

}  // namespace
}  // namespace tidemark::nexmark
