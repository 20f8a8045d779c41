// KeyedStream::intervalJoin end to end, in simulated time, at parallelism 1
// and 2: exact (sorted) results with their timestamps, bounds given in ms and
// as std::chrono durations, exclusive bounds, late-data side outputs, side
// outputs from the join function, and misuse.
#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

/// A click (left) or an order (right) of one user at event time `ts`.
struct Event {
  std::string user;
  std::string what;
  Timestamp ts = 0;

  friend std::ostream& operator<<(std::ostream& os, const Event& e) {
    return os << e.user << "/" << e.what << "@" << e.ts;
  }
};

std::string userOf(const Event& e) { return e.user; }

StreamExecutionEnvironment simulatedEnv(int parallelism) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(parallelism).enableSimulatedTime(0);
  return env;
}

/// A bounded input of `events`, timestamped by Event::ts.
KeyedStream<std::string, Event> keyedEvents(StreamExecutionEnvironment& env, std::initializer_list<Event> events) {
  return env.fromElements<Event>(events)
      .assignTimestampsAndWatermarks(
          WatermarkStrategy<Event>::forMonotonousTimestamps().withTimestampAssigner([](const Event& e) { return e.ts; }))
      .keyBy(userOf);
}

/// "user: click+order @ts" for a pair, where ts is the pair's timestamp.
class Describe : public ProcessJoinFunction<Event, Event, std::string> {
 public:
  void processElement(const Event& click, const Event& order, Context& ctx, Collector<std::string>& out) override {
    EXPECT_EQ(ctx.getLeftTimestamp(), click.ts);
    EXPECT_EQ(ctx.getRightTimestamp(), order.ts);
    out.collect(fmt::format("{}: {}+{} @{}", click.user, click.what, order.what, ctx.getTimestamp()));
  }
};

/// Each value with its record timestamp appended ("... #ts"), sorted.
std::vector<std::string> sortedWithRecordTimestamps(const CollectedRecords<std::string>& records) {
  std::vector<std::string> result;
  for (const auto& r : records.records()) {
    result.push_back(r.value + (r.has_timestamp ? fmt::format(" #{}", r.timestamp) : " #none"));
  }
  std::sort(result.begin(), result.end());
  return result;
}

// ---- joining ----

std::vector<std::string> runClicksAndOrders(int parallelism) {
  auto env = simulatedEnv(parallelism);
  auto clicks = keyedEvents(env, {{"alice", "home", 1000},
                                  {"alice", "cart", 3000},
                                  {"bob", "home", 2000},
                                  {"carol", "home", 9000}});
  auto orders = keyedEvents(env, {{"alice", "book", 3500},
                                  {"bob", "pen", 1500},
                                  {"bob", "ink", 6000},
                                  {"alice", "lamp", 500},
                                  {"dave", "mug", 9000}});
  // Orders from 1 s before to 2 s after the click.
  auto out = clicks.intervalJoin(orders).between(-1000, 2000).process(Describe{}).collectToMemory();
  env.execute("interval join");
  return sortedWithRecordTimestamps(*out);
}

TEST(IntervalJoinTest, JoinsElementsOfTheSameKeyWithinTheIntervalParallelismOne) {
  EXPECT_THAT(runClicksAndOrders(1),
              ElementsAre("alice: cart+book @3500 #3500", "alice: home+lamp @1000 #1000", "bob: home+pen @2000 #2000"));
}

TEST(IntervalJoinTest, JoinsElementsOfTheSameKeyWithinTheIntervalParallelismTwo) {
  EXPECT_THAT(runClicksAndOrders(2),
              ElementsAre("alice: cart+book @3500 #3500", "alice: home+lamp @1000 #1000", "bob: home+pen @2000 #2000"));
}

std::vector<std::string> runBoundaries(bool lower_exclusive, bool upper_exclusive) {
  auto env = simulatedEnv(1);
  auto clicks = keyedEvents(env, {{"alice", "click", 1000}});
  auto orders = keyedEvents(env, {{"alice", "at0", 0},
                                  {"alice", "at1", 1},
                                  {"alice", "at2999", 2999},
                                  {"alice", "at3000", 3000},
                                  {"alice", "at3001", 3001}});
  auto joined = clicks.intervalJoin(orders).between(std::chrono::seconds(-1), std::chrono::seconds(2));
  if (lower_exclusive) joined = joined.lowerBoundExclusive();
  if (upper_exclusive) joined = joined.upperBoundExclusive();
  auto out = joined
                 .process<std::string>([](const Event& click, const Event& order, ProcessJoinContext&,
                                          Collector<std::string>& collector) {
                   collector.collect(click.what + "+" + order.what);
                 })
                 .collectToMemory();
  env.execute();
  auto values = out->values();
  std::sort(values.begin(), values.end());
  return values;
}

TEST(IntervalJoinTest, BoundsAreInclusiveUnlessMadeExclusive) {
  EXPECT_THAT(runBoundaries(false, false), ElementsAre("click+at0", "click+at1", "click+at2999", "click+at3000"));
  EXPECT_THAT(runBoundaries(true, false), ElementsAre("click+at1", "click+at2999", "click+at3000"));
  EXPECT_THAT(runBoundaries(false, true), ElementsAre("click+at0", "click+at1", "click+at2999"));
  EXPECT_THAT(runBoundaries(true, true), ElementsAre("click+at1", "click+at2999"));
}

TEST(IntervalJoinTest, PositiveBoundsOnlyLookAhead) {
  auto env = simulatedEnv(2);
  auto clicks = keyedEvents(env, {{"u", "c1", 100}, {"u", "c2", 200}});
  auto orders = keyedEvents(env, {{"u", "o50", 50}, {"u", "o150", 150}, {"u", "o250", 250}, {"u", "o300", 300}});
  auto out = clicks.intervalJoin(orders)
                 .between(std::chrono::milliseconds(50), std::chrono::milliseconds(100))
                 .process(Describe{})
                 .collectToMemory();
  env.execute();
  EXPECT_THAT(sortedWithRecordTimestamps(*out),
              ElementsAre("u: c1+o150 @150 #150", "u: c2+o250 @250 #250", "u: c2+o300 @300 #300"));
}

TEST(IntervalJoinTest, LowerEqualsUpperJoinsAtOneOffset) {
  auto env = simulatedEnv(1);
  auto clicks = keyedEvents(env, {{"u", "c1", 100}, {"u", "c2", 200}});
  auto orders = keyedEvents(env, {{"u", "o100", 100}, {"u", "o150", 150}, {"u", "o200", 200}});
  auto out = clicks.intervalJoin(orders).between(-50, -50).process(Describe{}).collectToMemory();
  env.execute();
  EXPECT_THAT(sortedWithRecordTimestamps(*out), ElementsAre("u: c2+o150 @200 #200"));
}

// ---- a larger job: parallelism 1 and 2 against a brute-force reference ----

template <class T>
using Script = typename ScriptedSource<T>::Script;

/// Every event's timestamp becomes the watermark right after it.
template <class T>
class TimestampIsWatermark final : public WatermarkGenerator<T> {
 public:
  void onEvent(const T&, Timestamp event_timestamp, WatermarkOutput& output) override {
    output.emitWatermark(event_timestamp);
  }
  void onPeriodicEmit(WatermarkOutput&) override {}
};

/// A one-subtask input playing `script` with a watermark after every element.
KeyedStream<std::string, Event> scripted(StreamExecutionEnvironment& env, Script<Event> script, Duration end_at) {
  ScriptedSource<Event> source = ScriptedSource<Event>::single(std::move(script));
  source.endAt(end_at);
  DataStream<Event> stream = env.addSource(source, "script").setParallelism(1);
  return stream
      .assignTimestampsAndWatermarks(WatermarkStrategy<Event>::forGenerator([] {
        return std::unique_ptr<WatermarkGenerator<Event>>(std::make_unique<TimestampIsWatermark<Event>>());
      }))
      .setParallelism(1)
      .keyBy(userOf);
}

constexpr Duration kLower = -250;
constexpr Duration kUpper = 150;

struct Generated {
  Script<Event> clicks;
  Script<Event> orders;
};

/// Strictly increasing timestamps on each input, so nothing is late and no
/// element arrives exactly at a watermark that has cleaned its partners.
Generated generate() {
  const std::vector<std::string> users = {"ann", "ben", "cy", "dee", "ed", "flo", "gus"};
  Generated g;
  for (int i = 0; i < 40; ++i) {
    const Timestamp click_ts = 1000 + 100 * static_cast<Timestamp>(i);
    const Timestamp order_ts = 1030 + 100 * static_cast<Timestamp>(i) + 7 * static_cast<Timestamp>(i % 3);
    const auto at = static_cast<Duration>(i) * 10;
    g.clicks.push_back({at, Event{users[static_cast<std::size_t>(i) % users.size()], fmt::format("c{}", i), click_ts},
                        click_ts});
    g.orders.push_back({at + 5,
                        Event{users[static_cast<std::size_t>(i * 3) % users.size()], fmt::format("o{}", i), order_ts},
                        order_ts});
  }
  return g;
}

std::vector<std::string> bruteForce(const Generated& g) {
  std::vector<std::string> result;
  for (const auto& c : g.clicks) {
    for (const auto& o : g.orders) {
      if (c.value.user == o.value.user && c.value.ts + kLower <= o.value.ts && o.value.ts <= c.value.ts + kUpper) {
        const Timestamp ts = std::max(c.value.ts, o.value.ts);
        result.push_back(fmt::format("{}: {}+{} @{} #{}", c.value.user, c.value.what, o.value.what, ts, ts));
      }
    }
  }
  std::sort(result.begin(), result.end());
  return result;
}

/// Describe, plus the index of the subtask that joined the pair, to a side output.
class DescribeAndReportSubtask : public ProcessJoinFunction<Event, Event, std::string> {
 public:
  explicit DescribeAndReportSubtask(OutputTag<int> tag) : tag_(std::move(tag)) {}
  void processElement(const Event& click, const Event& order, Context& ctx, Collector<std::string>& out) override {
    describe_.processElement(click, order, ctx, out);
    ctx.output(tag_, getRuntimeContext().getIndexOfThisSubtask());
  }

 private:
  Describe describe_;
  OutputTag<int> tag_;
};

std::vector<std::string> runGenerated(int parallelism, std::vector<std::string>* in_emission_order = nullptr,
                                      std::set<int>* subtasks = nullptr) {
  auto env = simulatedEnv(parallelism);
  const Generated g = generate();
  auto clicks = scripted(env, g.clicks, 1000);
  auto orders = scripted(env, g.orders, 1000);
  const OutputTag<int> subtask_tag("subtask");
  auto joined =
      clicks.intervalJoin(orders).between(kLower, kUpper).process(DescribeAndReportSubtask{subtask_tag});
  auto out = joined.collectToMemory();
  auto subtask_of_pairs = joined.getSideOutput(subtask_tag).collectToMemory();
  env.execute();
  if (in_emission_order != nullptr) *in_emission_order = out->values();
  if (subtasks != nullptr) {
    for (int subtask : subtask_of_pairs->values()) subtasks->insert(subtask);
  }
  return sortedWithRecordTimestamps(*out);
}

TEST(IntervalJoinTest, GeneratedJobMatchesTheBruteForceJoinAtParallelismOneAndTwo) {
  const std::vector<std::string> expected = bruteForce(generate());
  ASSERT_GT(expected.size(), 20u);  // the data does join
  EXPECT_EQ(runGenerated(1), expected);
  std::set<int> subtasks;
  EXPECT_EQ(runGenerated(2, nullptr, &subtasks), expected);
  EXPECT_EQ(subtasks, (std::set<int>{0, 1}));  // both subtasks joined some keys
}

TEST(IntervalJoinTest, ParallelRunsAreIdenticalRunAfterRun) {
  std::vector<std::string> first;
  std::vector<std::string> second;
  runGenerated(2, &first);
  runGenerated(2, &second);
  EXPECT_EQ(first, second);
}

// ---- late data and side outputs ----

struct LateRun {
  std::vector<std::string> joined;
  std::vector<std::string> left_late;
  std::vector<std::string> right_late;
};

LateRun runWithLateData(int parallelism) {
  auto env = simulatedEnv(parallelism);
  auto clicks = scripted(env, {{0, {"k", "c1000", 1000}, 1000}, {100, {"k", "c5000", 5000}, 5000},
                               {600, {"k", "c3900", 3900}, 3900}},
                         1000);
  // Event time reaches 5000 once both inputs have passed it (at 200): the
  // orders at 2000 and 4500 are then late, the one at 5000 is not, and so is
  // the click at 3900, late on its own side.
  auto orders = scripted(env, {{200, {"k", "o5000", 5000}, 5000}, {300, {"k", "o2000", 2000}, 2000},
                               {400, {"k", "o4500", 4500}, 4500}, {500, {"k", "o5000b", 5000}, 5000}},
                         1000);
  const OutputTag<Event> left_late("late-clicks");
  const OutputTag<Event> right_late("late-orders");
  auto joined = clicks.intervalJoin(orders)
                    .between(-1000, 1000)
                    .sideOutputLeftLateData(left_late)
                    .sideOutputRightLateData(right_late)
                    .process(Describe{});
  auto out = joined.collectToMemory();
  auto late_clicks = joined.getSideOutput(left_late).collectToMemory();
  auto late_orders = joined.getSideOutput(right_late).collectToMemory();
  env.execute();

  auto describe_late = [](const CollectedRecords<Event>& records) {
    std::vector<std::string> result;
    for (const auto& r : records.records()) result.push_back(fmt::format("{} #{}", r.value.what, r.timestamp));
    return result;
  };
  return LateRun{out->values(), describe_late(*late_clicks), describe_late(*late_orders)};
}

TEST(IntervalJoinTest, LateElementsGoToTheLateDataSideOutputs) {
  for (int parallelism : {1, 2}) {
    SCOPED_TRACE(parallelism);
    const LateRun run = runWithLateData(parallelism);
    EXPECT_THAT(run.joined, ElementsAre("k: c5000+o5000 @5000", "k: c5000+o5000b @5000"));
    EXPECT_THAT(run.left_late, ElementsAre("c3900 #3900"));
    EXPECT_THAT(run.right_late, ElementsAre("o2000 #2000", "o4500 #4500"));
  }
}

TEST(IntervalJoinTest, LateElementsAreDroppedWithoutASideOutput) {
  auto env = simulatedEnv(1);
  auto clicks = scripted(env, {{0, {"k", "c1000", 1000}, 1000}, {100, {"k", "c5000", 5000}, 5000}}, 1000);
  auto orders = scripted(env, {{200, {"k", "o5000", 5000}, 5000}, {300, {"k", "o2000", 2000}, 2000}}, 1000);
  auto out = clicks.intervalJoin(orders).between(-1000, 1000).process(Describe{}).collectToMemory();
  env.execute();
  // o2000 would have matched c1000 (1000 + 1000), but it is late.
  EXPECT_THAT(out->values(), ElementsAre("k: c5000+o5000 @5000"));
}

/// Emits the pair to the main output and the order alone to a side output.
class WithSideOutput : public ProcessJoinFunction<Event, Event, std::string> {
 public:
  explicit WithSideOutput(OutputTag<std::string> tag) : tag_(std::move(tag)) {}
  void processElement(const Event& click, const Event& order, Context& ctx, Collector<std::string>& out) override {
    out.collect(click.what + "+" + order.what);
    ctx.output(tag_, "order " + order.what);
  }

 private:
  OutputTag<std::string> tag_;
};

TEST(IntervalJoinTest, JoinFunctionSideOutputsCarryThePairTimestamp) {
  auto env = simulatedEnv(2);
  const OutputTag<std::string> orders_tag("orders");
  auto clicks = keyedEvents(env, {{"a", "c", 1000}, {"b", "c", 5000}});
  auto orders = keyedEvents(env, {{"a", "o", 1200}, {"b", "o", 4000}});
  auto joined = clicks.intervalJoin(orders).between(-2000, 2000).process(WithSideOutput{orders_tag});
  auto side = joined.getSideOutput(orders_tag).collectToMemory();
  joined.collectToMemory();
  env.execute();
  EXPECT_THAT(sortedWithRecordTimestamps(*side), ElementsAre("order o #1200", "order o #5000"));
}

// ---- misuse ----

TEST(IntervalJoinTest, LowerBoundAboveUpperBoundIsRefusedAtOnce) {
  auto env = simulatedEnv(1);
  auto clicks = keyedEvents(env, {{"a", "c", 1}});
  auto orders = keyedEvents(env, {{"a", "o", 1}});
  EXPECT_THROW((void)clicks.intervalJoin(orders).between(5, 4), std::invalid_argument);
  EXPECT_THROW((void)clicks.intervalJoin(orders).between(std::chrono::seconds(1), std::chrono::milliseconds(999)),
               std::invalid_argument);
  EXPECT_NO_THROW((void)clicks.intervalJoin(orders).between(4, 4));
}

TEST(IntervalJoinTest, StreamsOfDifferentEnvironmentsAreRefused) {
  auto env1 = simulatedEnv(1);
  auto env2 = simulatedEnv(1);
  auto clicks = keyedEvents(env1, {{"a", "c", 1}});
  auto orders = keyedEvents(env2, {{"a", "o", 1}});
  EXPECT_THROW(clicks.intervalJoin(orders), std::invalid_argument);
}

TEST(IntervalJoinTest, ElementsWithoutTimestampsFailTheJob) {
  auto env = simulatedEnv(1);
  auto clicks = env.fromElements<Event>({{"a", "c", 1}}).keyBy(userOf);
  auto orders = env.fromElements<Event>({{"a", "o", 1}}).keyBy(userOf);
  clicks.intervalJoin(orders).between(0, 0).process(Describe{}).collectToMemory();
  try {
    env.execute();
    FAIL() << "an interval join over elements without timestamps must fail";
  } catch (const JobExecutionException& e) {
    EXPECT_THAT(e.what(), HasSubstr("Interval Join"));
    EXPECT_THAT(e.what(), HasSubstr("element has no timestamp"));
  }
}

}  // namespace
}  // namespace tidemark
