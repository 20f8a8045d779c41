#include "nexmark/queries/q11_user_sessions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "nexmark_test_support.h"

namespace tidemark::nexmark {
namespace {

using testing::generateEvents;
using testing::runQuery;
using testing::smallConfig;
using testing::sorted;

/// smallConfig() at 200 events per second of event time: each bidder's bids
/// are sparse enough that many sessions end, and start again, within the
/// run's 100 s (at 1,000 events per second that takes about 50,000 events,
/// and session windows are among the costlier operators under a sanitizer).
GeneratorConfig sparseBidsConfig() {
  GeneratorConfig config = smallConfig();
  config.events_per_second = 200;
  return config;
}

constexpr std::int64_t kEvents = 20'000;

bool byBidderAndStart(const BidderSession& a, const BidderSession& b) {
  return std::tie(a.bidder, a.window_start) < std::tie(b.bidder, b.window_start);
}

struct Expected {
  std::vector<BidderSession> sessions;  // by bidder, then start
  /// Bids exactly one gap after the previous bid of their bidder touch its
  /// session and join it, provided it is still open when they arrive. Only
  /// a bid delayed by the full max_out_of_orderness can find it closed (the
  /// source's watermark stays max_out_of_orderness + 1 behind nominal time),
  /// and then the outcome depends on the watermark's timing, which the brute
  /// force does not model: these are such bids.
  int touching_bids_racing_the_watermark = 0;
};

/// Each bidder's bid times in order, cut wherever two are more than the gap
/// apart (sessions [first, last + gap) that touch or overlap are one).
Expected bruteForce(const GeneratorConfig& config, const std::vector<Event>& events) {
  const EventGenerator generator(config);
  struct BidTime {
    Timestamp date_time;
    std::int64_t number;
    auto operator<=>(const BidTime&) const = default;
  };
  std::map<std::int64_t, std::vector<BidTime>> bids_by_bidder;
  for (const Event& event : events) {
    if (const Bid* bid = event.bid()) bids_by_bidder[bid->bidder].push_back({bid->date_time, event.number});
  }
  Expected expected;
  for (auto& [bidder, bids] : bids_by_bidder) {
    std::sort(bids.begin(), bids.end());
    BidderSession session{bidder, 1, bids[0].date_time, bids[0].date_time + 10'000};
    for (std::size_t i = 1; i < bids.size(); ++i) {
      const Timestamp t = bids[i].date_time;
      if (t == bids[i - 1].date_time + 10'000 &&
          t == generator.nominalTime(bids[i].number) - config.max_out_of_orderness) {
        ++expected.touching_bids_racing_the_watermark;
      }
      if (t > session.window_end) {
        expected.sessions.push_back(session);
        session = BidderSession{bidder, 0, t, 0};
      }
      ++session.bids;
      session.window_end = t + 10'000;
    }
    expected.sessions.push_back(session);
  }
  return expected;
}

TEST(Q11UserSessionsTest, CountsTheBidsOfEachBiddersSessionsAtParallelismOneAndTwo) {
  const GeneratorConfig config = sparseBidsConfig();
  const Expected expected = bruteForce(config, generateEvents(config, kEvents));
  // No bid whose session depends on the watermark's timing (the boundary
  // has a hand-built test below).
  ASSERT_EQ(expected.touching_bids_racing_the_watermark, 0);
  // Many sessions, and bidders with several of them (sessions the watermark
  // closed during the run, not only at its end).
  ASSERT_GE(expected.sessions.size(), 700u);
  std::map<std::int64_t, int> sessions_per_bidder;
  for (const BidderSession& session : expected.sessions) ++sessions_per_bidder[session.bidder];
  ASSERT_GE(std::count_if(sessions_per_bidder.begin(), sessions_per_bidder.end(),
                          [](const auto& entry) { return entry.second >= 2; }),
            200);

  EXPECT_EQ(sorted(runQuery(&q11UserSessions, config, kEvents, 1), byBidderAndStart), expected.sessions);
  EXPECT_EQ(sorted(runQuery(&q11UserSessions, config, kEvents, 2), byBidderAndStart), expected.sessions);
}

TEST(Q11UserSessionsTest, CountsBidsThatShareABidderAndAnInstantOnceEach) {
  // Most of the hot bidder's bids share their millisecond with others of
  // theirs, which the query counts together before the shuffle.
  const GeneratorConfig config = testing::denseConfig();
  constexpr std::int64_t kDenseEvents = 4000;
  const std::vector<Event> events = generateEvents(config, kDenseEvents);
  std::map<std::pair<std::int64_t, Timestamp>, int> bids_per_bidder_and_instant;
  for (const Event& event : events) {
    if (const Bid* b = event.bid()) ++bids_per_bidder_and_instant[{b->bidder, b->date_time}];
  }
  ASSERT_GE(std::count_if(bids_per_bidder_and_instant.begin(), bids_per_bidder_and_instant.end(),
                          [](const auto& entry) { return entry.second >= 5; }),
            100);
  const Expected expected = bruteForce(config, events);
  EXPECT_EQ(sorted(runQuery(&q11UserSessions, config, kDenseEvents, 1), byBidderAndStart), expected.sessions);
  EXPECT_EQ(sorted(runQuery(&q11UserSessions, config, kDenseEvents, 2), byBidderAndStart), expected.sessions);
}

Event bid(std::int64_t number, std::int64_t bidder, Timestamp date_time) {
  Bid b;
  b.auction = 1000;
  b.bidder = bidder;
  b.price = 100;
  b.date_time = date_time;
  return Event{number, b};
}

TEST(Q11UserSessionsTest, MergesSessionsThatTouchOrThatALaterBidBridges) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  const std::vector<Event> events = {
      bid(0, 1, 1000), bid(1, 1, 5000), bid(2, 1, 15000),  // 15000 = 5000 + gap: touches, same session
      bid(3, 1, 25001),                                    // 1 ms more than the gap: a new session
      bid(4, 2, 1000), bid(5, 2, 21000), bid(6, 2, 11000),  // the last bid fills the gap between two
      bid(7, 3, 3000),
  };
  auto timed = env.fromCollection(events).assignTimestampsAndWatermarks(
      WatermarkStrategy<Event>::noWatermarks().withTimestampAssigner(
          [](const Event& event, Timestamp) { return event.dateTime(); }));
  auto results = q11UserSessions(timed).collectToMemory();
  env.execute("q11 edge cases");
  EXPECT_EQ(sorted(results->values(), byBidderAndStart), (std::vector<BidderSession>{{1, 3, 1000, 25000},
                                                                                    {1, 1, 25001, 35001},
                                                                                    {2, 3, 1000, 31000},
                                                                                    {3, 1, 3000, 13000}}));
}

/// A watermark right behind every event: event time as strict as it gets.
class WatermarkAtEachEvent final : public WatermarkGenerator<Event> {
 public:
  void onEvent(const Event&, Timestamp timestamp, WatermarkOutput& output) override {
    output.emitWatermark(timestamp - 1);
  }
  void onPeriodicEmit(WatermarkOutput&) override {}
};

TEST(Q11UserSessionsTest, ABidTouchingASessionTheWatermarkAlreadyClosedStartsANewOne) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  const std::vector<Event> events = {
      bid(0, 1, 1000),
      bid(1, 2, 11000),  // the watermark reaches 10999: bidder 1's session [1000, 11000) closes
      bid(2, 1, 11000),  // not late, touches the closed session: a session of its own
  };
  auto timed = env.fromCollection(events).assignTimestampsAndWatermarks(
      WatermarkStrategy<Event>::forGenerator([] { return std::make_unique<WatermarkAtEachEvent>(); })
          .withTimestampAssigner([](const Event& event, Timestamp) { return event.dateTime(); }));
  auto results = q11UserSessions(timed).collectToMemory();
  env.execute("q11 closed session");
  EXPECT_EQ(sorted(results->values(), byBidderAndStart),
            (std::vector<BidderSession>{{1, 1, 1000, 11000}, {1, 1, 11000, 21000}, {2, 1, 11000, 21000}}));
}

TEST(Q11UserSessionsTest, PrintsOneReadableLineAndMeasuresLatencyFromTheSessionsEnd) {
  std::ostringstream line;
  line << BidderSession{1001, 3, 1000, 25000};
  EXPECT_EQ(line.str(), "BidderSession{bidder=1001, bids=3, windowStart=1000, windowEnd=25000}");
  const LatencyOrigin origin = latencyOrigin(BidderSession{1001, 3, 1000, 25000});
  EXPECT_EQ(origin.kind, LatencyOrigin::Kind::kWatermark);
  EXPECT_EQ(origin.value, 24999);
}

}  // namespace
}  // namespace tidemark::nexmark
