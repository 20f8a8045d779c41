#include "nexmark/event_generator.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "nexmark/nexmark_source.h"
#include "nexmark_test_support.h"

namespace tidemark::nexmark {
namespace {

using testing::generateEvents;
using testing::smallConfig;

TEST(EventGeneratorTest, MakesOnePersonThreeAuctionsAndFortySixBidsInEveryFifty) {
  const auto events = generateEvents(smallConfig(), 5000);
  std::int64_t people = 0;
  std::int64_t auctions = 0;
  std::int64_t bids = 0;
  for (const Event& e : events) {
    people += e.person() != nullptr;
    auctions += e.auction() != nullptr;
    bids += e.bid() != nullptr;
  }
  EXPECT_EQ(people, 100);
  EXPECT_EQ(auctions, 300);
  EXPECT_EQ(bids, 4600);
  EXPECT_NE(events[0].person(), nullptr);
  EXPECT_NE(events[1].auction(), nullptr);
  EXPECT_NE(events[3].auction(), nullptr);
  EXPECT_NE(events[4].bid(), nullptr);
}

TEST(EventGeneratorTest, NumbersPeopleAndAuctionsConsecutivelyFromOneThousand) {
  std::int64_t next_person = kFirstPersonId;
  std::int64_t next_auction = kFirstAuctionId;
  for (const Event& e : generateEvents(smallConfig(), 5000)) {
    if (const Person* p = e.person()) {
      EXPECT_EQ(p->id, next_person++);
    }
    if (const Auction* a = e.auction()) {
      EXPECT_EQ(a->id, next_auction++);
    }
  }
}

TEST(EventGeneratorTest, IsAFunctionOfSeedAndEventNumber) {
  const GeneratorConfig config = smallConfig();
  const EventGenerator generator(config);
  EXPECT_EQ(generator.generate(1234), EventGenerator(config).generate(1234));
  EXPECT_EQ(generateEvents(config, 500), generateEvents(config, 500));
  GeneratorConfig other = config;
  other.seed = 43;
  EXPECT_NE(generateEvents(config, 500), generateEvents(other, 500));
}

TEST(EventGeneratorTest, KeepsFieldsInTheBenchmarksRanges) {
  const GeneratorConfig config = smallConfig();
  const EventGenerator generator(config);
  const std::set<std::string_view> states = {"AZ", "CA", "ID", "OR", "WA", "WY"};
  std::int64_t bid_bytes = 0;
  std::int64_t bid_count = 0;
  std::int64_t hot = 0;
  for (std::int64_t n = 0; n < 20000; ++n) {
    const Event e = generator.generate(n);
    const Timestamp nominal = generator.nominalTime(n);
    EXPECT_LE(e.dateTime(), nominal);
    EXPECT_GE(e.dateTime(), nominal - config.max_out_of_orderness);
    if (const Person* p = e.person()) {
      EXPECT_TRUE(states.contains(p->state)) << p->state;
      EXPECT_EQ(p->credit_card.size(), 19u);
    }
    if (const Auction* a = e.auction()) {
      EXPECT_GE(a->category, kFirstCategoryId);
      EXPECT_LT(a->category, kFirstCategoryId + kNumCategories);
      EXPECT_GT(a->expires, a->date_time);
      EXPECT_GE(a->reserve, a->initial_bid);
      EXPECT_GE(a->seller, kFirstPersonId);
      EXPECT_LE(a->seller, kFirstPersonId + generator.lastBase0PersonId(n) + 10);
    }
    if (const Bid* b = e.bid()) {
      EXPECT_GE(b->price, 100);
      EXPECT_LE(b->price, 100'000'000);
      EXPECT_GE(b->auction, kFirstAuctionId);
      EXPECT_LE(b->auction, kFirstAuctionId + generator.lastBase0AuctionId(n) + 10);
      bid_bytes += 32 + static_cast<std::int64_t>(b->extra.size());
      ++bid_count;
      hot += (b->auction - kFirstAuctionId) % 100 == 0;
    }
  }
  // Padding brings bids to 100 bytes on average; about half go to the hot auction.
  EXPECT_NEAR(static_cast<double>(bid_bytes) / static_cast<double>(bid_count), 100.0, 3.0);
  EXPECT_GT(hot * 10, bid_count * 4);
}

TEST(EventGeneratorTest, FindsTheFirstEventOfAMillisecond) {
  GeneratorConfig config = smallConfig();
  config.events_per_second = 3000;  // not a divisor of 1000 events per ms
  config.base_time = 5000;
  const EventGenerator generator(config);
  for (Timestamp t = 4990; t < 5100; ++t) {
    const std::int64_t n = generator.firstEventAtOrAfter(t);
    EXPECT_GE(generator.nominalTime(n), t);
    if (n > 0) {
      EXPECT_LT(generator.nominalTime(n - 1), t);
    }
  }
}

TEST(EventGeneratorTest, RefusesAnImpossibleConfiguration) {
  GeneratorConfig config;
  config.events_per_second = 0;
  EXPECT_THROW(EventGenerator{config}, std::invalid_argument);
  config = GeneratorConfig{};
  config.max_out_of_orderness = -1;
  EXPECT_THROW(EventGenerator{config}, std::invalid_argument);
}

// Flags any event at or behind the watermark its subtask has seen.
class LateEventCheck final : public ProcessFunction<Event, Event> {
 public:
  void processElement(const Event& e, Context& ctx, Collector<Event>& out) override {
    if (*ctx.timestamp() <= ctx.timerService().currentWatermark()) late_ = true;
    out.collect(e);
    if (late_) throw std::runtime_error("late event");
  }

 private:
  bool late_ = false;
};

TEST(NexmarkSourceTest, EmitsEveryEventOnceAtAnyParallelismAndNoneLate) {
  const GeneratorConfig config = smallConfig();
  const auto expected = generateEvents(config, 3000);
  for (int parallelism : {1, 2, 3}) {
    auto events = testing::runQuery([](const DataStream<Event>& s) { return s.process(LateEventCheck{}); }, config,
                                    3000, parallelism);
    ASSERT_EQ(events.size(), expected.size()) << "parallelism " << parallelism;
    std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.number < b.number; });
    EXPECT_EQ(events, expected) << "parallelism " << parallelism;
  }
}

/// Which subtask made each event, by event number (a chained operator runs
/// in its source's subtask).
class SubtaskOfEvent final : public ProcessFunction<Event, std::pair<int, std::int64_t>> {
 public:
  void processElement(const Event& e, Context&, Collector<std::pair<int, std::int64_t>>& out) override {
    out.collect({getRuntimeContext().getIndexOfThisSubtask(), e.number});
  }
};

TEST(NexmarkSourceTest, DealsOutOneMillisecondOfEventsToEachSubtaskInTurn) {
  GeneratorConfig config = smallConfig();
  config.events_per_second = 10'000;  // 10 events per millisecond
  ASSERT_EQ(eventsPerSubtaskBlock(config), 10);
  for (int parallelism : {1, 2, 3}) {
    const auto made = testing::runQuery(
        [](const DataStream<Event>& s) { return s.process(LateEventCheck{}).process(SubtaskOfEvent{}); }, config,
        95, parallelism);
    ASSERT_EQ(made.size(), 95u) << "parallelism " << parallelism;
    std::map<int, std::vector<std::int64_t>> by_subtask;
    for (const auto& [subtask, number] : made) by_subtask[subtask].push_back(number);
    for (int s = 0; s < parallelism; ++s) {
      std::vector<std::int64_t> expected;  // blocks s, s + P, ... of 10 events, in order
      for (std::int64_t n = 0; n < 95; ++n) {
        if ((n / 10) % parallelism == s) expected.push_back(n);
      }
      EXPECT_EQ(by_subtask[s], expected) << "subtask " << s << " of " << parallelism;
    }
  }
  // At most one event per millisecond, blocks are single events.
  EXPECT_EQ(eventsPerSubtaskBlock(smallConfig()), 1);
  config.events_per_second = 10;
  EXPECT_EQ(eventsPerSubtaskBlock(config), 1);
}

}  // namespace
}  // namespace tidemark::nexmark
