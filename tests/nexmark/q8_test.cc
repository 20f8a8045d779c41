#include "nexmark/queries/q8_monitor_new_users.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
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

constexpr std::int64_t kEvents = 40'000;  // 40 s of event time, 800 people, 2400 auctions

bool byWindowThenId(const NewUser& a, const NewUser& b) {
  return std::tie(a.window_start, a.id) < std::tie(b.window_start, b.id);
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }
Timestamp windowStart(Timestamp t) { return floorDiv(t, 10'000) * 10'000; }

/// People with at least one auction of theirs in the tumbling 10 s window
/// they registered in.
std::vector<NewUser> bruteForce(const std::vector<Event>& events) {
  std::set<std::pair<std::int64_t, Timestamp>> sold;  // (seller, window start)
  for (const Event& event : events) {
    if (const Auction* auction = event.auction()) sold.emplace(auction->seller, windowStart(auction->date_time));
  }
  std::vector<NewUser> expected;
  for (const Event& event : events) {
    const Person* person = event.person();
    if (person == nullptr) continue;
    const Timestamp start = windowStart(person->date_time);
    if (sold.contains({person->id, start})) expected.push_back(NewUser{person->id, person->name, start});
  }
  return sorted(std::move(expected), byWindowThenId);
}

TEST(Q8MonitorNewUsersTest, FindsPeopleWhoSoldInTheWindowTheyRegisteredIn) {
  const GeneratorConfig config = smallConfig();
  const std::vector<Event> events = generateEvents(config, kEvents);
  const std::vector<NewUser> expected = bruteForce(events);
  // Non-trivial in both directions: many matches, and many people without an
  // auction in their window (so the join does filter).
  std::int64_t people = 0;
  for (const Event& event : events) people += event.person() != nullptr;
  ASSERT_GE(expected.size(), 50u);
  ASSERT_LT(static_cast<std::int64_t>(expected.size()), people - 50);
  // The first person and auctions are a little before 0: window [-10000, 0).
  ASSERT_EQ(expected.front().window_start, -10'000);
  ASSERT_EQ(expected.back().window_start, 30'000);

  for (const int parallelism : {1, 2}) {
    EXPECT_EQ(sorted(runQuery(&q8MonitorNewUsers, config, kEvents, parallelism), byWindowThenId), expected)
        << "parallelism " << parallelism;
  }
}

TEST(Q8MonitorNewUsersTest, ASellerWithSeveralAuctionsAtOneInstantCountsOnce) {
  // The hot seller puts up several auctions in most milliseconds, which the
  // query reduces to one before the shuffle.
  const GeneratorConfig config = testing::denseConfig();
  constexpr std::int64_t kDenseEvents = 20'000;
  const std::vector<Event> events = generateEvents(config, kDenseEvents);
  std::map<std::pair<std::int64_t, Timestamp>, int> auctions_per_seller_and_instant;
  for (const Event& event : events) {
    if (const Auction* a = event.auction()) ++auctions_per_seller_and_instant[{a->seller, a->date_time}];
  }
  ASSERT_GE(std::count_if(auctions_per_seller_and_instant.begin(), auctions_per_seller_and_instant.end(),
                          [](const auto& entry) { return entry.second >= 2; }),
            100);
  const std::vector<NewUser> expected = bruteForce(events);
  ASSERT_GE(expected.size(), 50u);
  for (const int parallelism : {1, 2}) {
    EXPECT_EQ(sorted(runQuery(&q8MonitorNewUsers, config, kDenseEvents, parallelism), byWindowThenId), expected)
        << "parallelism " << parallelism;
  }
}

std::vector<NewUser> runOn(std::vector<Event> events) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  auto stream = env.fromCollection(std::move(events))
                    .assignTimestampsAndWatermarks(WatermarkStrategy<Event>::forMonotonousTimestamps()
                                                       .withTimestampAssigner([](const Event& e, Timestamp) {
                                                         return e.dateTime();
                                                       }));
  auto results = q8MonitorNewUsers(stream).collectToMemory();
  env.execute("q8 hand-built");
  return sorted(results->values(), byWindowThenId);
}

Event personAt(std::int64_t number, std::int64_t id, std::string_view name, Timestamp date_time) {
  Person person;
  person.id = id;
  person.name = name;
  person.date_time = date_time;
  return Event{number, person};
}

Event auctionAt(std::int64_t number, std::int64_t seller, Timestamp date_time) {
  Auction auction;
  auction.id = 5000 + number;
  auction.seller = seller;
  auction.date_time = date_time;
  auction.expires = date_time + 1000;
  return Event{number, auction};
}

TEST(Q8MonitorNewUsersTest, JoinsOnlyWithinOneWindowAndOncePerPerson) {
  const std::vector<NewUser> results = runOn({
      personAt(0, 1, "ann", 100),
      auctionAt(1, 1, 200),
      auctionAt(2, 1, 300),        // a second auction: still one result
      personAt(3, 2, "bob", 9999),
      auctionAt(4, 2, 10'000),     // the next window: no result for bob
      auctionAt(5, 3, 10'100),     // sold before registering
      personAt(6, 3, "cy", 10'200),
      personAt(7, 4, "dee", 10'300),  // no auction
  });
  EXPECT_EQ(results, (std::vector<NewUser>{{1, "ann", 0}, {3, "cy", 10'000}}));
}

TEST(Q8MonitorNewUsersTest, PrintsOneReadableLine) {
  std::ostringstream line;
  line << NewUser{1001, "Peter Jones", 20'000};
  EXPECT_EQ(line.str(), "NewUser{id=1001, name=Peter Jones, windowStart=20000}");
  const LatencyOrigin origin = latencyOrigin(NewUser{1001, "Peter Jones", 20'000});
  EXPECT_EQ(origin.kind, LatencyOrigin::Kind::kWatermark);
  EXPECT_EQ(origin.value, 29'999);
}

}  // namespace
}  // namespace tidemark::nexmark
