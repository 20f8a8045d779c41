// DataStream::join and DataStream::coGroup over windows, end to end in
// simulated time at parallelism 1 and 2: exact results with their
// timestamps (the window's maxTimestamp()) for tumbling, sliding and session
// windows, one-sided windows, late re-firing within the allowed lateness,
// custom trigger and evictor, every form of the join and coGroup functions;
// and, through the operator test harness, that the window operator of a join
// holds no state and no timer once the watermark passed its windows.
//
// Unless a test says otherwise, each input is one subtask up to the window
// operator (its timestamps are assigned with parallelism 1), so that every
// window sees each side's elements in the order the test lists them, whatever
// the window operator's parallelism.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

/// An element of either input: a key, a name and an event timestamp.
struct Event {
  std::string key;
  std::string name;
  Timestamp ts = 0;

  friend std::ostream& operator<<(std::ostream& os, const Event& e) {
    return os << e.key << "/" << e.name << "@" << e.ts;
  }
};

/// A second element type, to join inputs of different types.
struct Order {
  int user = 0;
  std::string item;
  Timestamp ts = 0;
};

/// A first element type keyed by an int, to pair with Order.
struct Visit {
  int user = 0;
  std::string page;
  Timestamp ts = 0;
};

std::string keyOf(const Event& e) { return e.key; }

StreamExecutionEnvironment simulatedEnv(int parallelism) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(parallelism).enableSimulatedTime(0);
  return env;
}

template <class T, class F>
WatermarkStrategy<T> monotonous(F timestamp_of) {
  return WatermarkStrategy<T>::forMonotonousTimestamps().withTimestampAssigner(
      [timestamp_of](const T& value) { return timestamp_of(value); });
}

/// A bounded input of `events` timestamped by Event::ts, one subtask up to the join.
DataStream<Event> events(StreamExecutionEnvironment& env, std::vector<Event> values) {
  DataStream<Event> stream = env.fromCollection(std::move(values))
                                 .assignTimestampsAndWatermarks(monotonous<Event>([](const Event& e) { return e.ts; }))
                                 .setParallelism(1);
  return stream;
}

/// The same, but with the environment's parallelism from the timestamps on
/// (elements are spread round robin over the subtasks).
DataStream<Event> parallelEvents(StreamExecutionEnvironment& env, std::vector<Event> values) {
  return env.fromCollection(std::move(values))
      .assignTimestampsAndWatermarks(monotonous<Event>([](const Event& e) { return e.ts; }));
}

std::string timestampText(Timestamp ts) {
  if (ts == kMaxWatermark) return "MAX";
  return std::to_string(ts);
}

/// Each value with its record timestamp appended (" #ts"), in emission order.
std::vector<std::string> withTimestamps(const CollectedRecords<std::string>& records) {
  std::vector<std::string> result;
  for (const auto& r : records.records()) {
    result.push_back(r.value + (r.has_timestamp ? " #" + timestampText(r.timestamp) : " #none"));
  }
  return result;
}

std::vector<std::string> sortedWithTimestamps(const CollectedRecords<std::string>& records) {
  std::vector<std::string> result = withTimestamps(records);
  std::sort(result.begin(), result.end());
  return result;
}

std::string pairText(const Event& a, const Event& b) { return fmt::format("{}: {}+{}", a.key, a.name, b.name); }

/// "key: [a,b] | [c]": the names of both sides of a coGroup, in arrival order.
template <class A, class B>
std::string sidesText(std::span<const A> first, std::span<const B> second) {
  std::vector<std::string> left;
  std::vector<std::string> right;
  std::string key;
  for (const A& a : first) {
    left.push_back(a.name);
    key = a.key;
  }
  for (const B& b : second) {
    right.push_back(b.name);
    key = b.key;
  }
  return fmt::format("{}: [{}] | [{}]", key, fmt::join(left, ","), fmt::join(right, ","));
}

/// The parallelism each end-to-end test runs at.
class WindowJoinTest : public ::testing::TestWithParam<int> {};

INSTANTIATE_TEST_SUITE_P(Parallelism, WindowJoinTest, ::testing::Values(1, 2),
                         [](const ::testing::TestParamInfo<int>& param) { return "P" + std::to_string(param.param); });

// ---- tumbling windows ----

const std::vector<Event> kClicks = {
    {"alice", "home", 1000}, {"alice", "cart", 1800}, {"bob", "home", 2000},
    {"alice", "help", 3000}, {"carol", "home", 1500}, {"alice", "exit", 5900},
};
const std::vector<Event> kOrders = {
    {"alice", "book", 1500}, {"alice", "ink", 500},  {"bob", "pen", 3999},
    {"alice", "lamp", 4000}, {"dave", "mug", 1000},  {"bob", "cap", 4000},
};
// Windows of 2 s: alice has 2 clicks and 2 orders in [0, 2000) (4 pairs), only
// a click in [2000, 4000), a click and an order in [4000, 6000); bob pairs in
// [2000, 4000) only; carol and dave never meet anyone.
const std::vector<std::string> kTumblingPairs = {
    "alice: cart+book #1999", "alice: cart+ink #1999",  "alice: exit+lamp #5999", "alice: home+book #1999",
    "alice: home+ink #1999",  "bob: home+pen #3999",
};

TEST_P(WindowJoinTest, TumblingJoinPairsEveryFirstWithEverySecondOfTheSameKeyAndWindow) {
  auto env = simulatedEnv(GetParam());
  auto out = events(env, kClicks)
                 .join(events(env, kOrders))
                 .where(keyOf)
                 .equalTo(keyOf)
                 .window(TumblingEventTimeWindows::of(2000))
                 .apply([](const Event& click, const Event& order) { return pairText(click, order); })
                 .collectToMemory();
  env.execute("tumbling join");
  EXPECT_EQ(sortedWithTimestamps(*out), kTumblingPairs);
}

TEST_P(WindowJoinTest, TumblingJoinOfParallelInputs) {
  auto env = simulatedEnv(GetParam());
  auto out = parallelEvents(env, kClicks)
                 .join(parallelEvents(env, kOrders))
                 .where(keyOf)
                 .equalTo(keyOf)
                 .window(TumblingEventTimeWindows::of(std::chrono::seconds(2)))
                 .apply([](const Event& click, const Event& order) { return pairText(click, order); })
                 .collectToMemory();
  env.execute();
  EXPECT_EQ(sortedWithTimestamps(*out), kTumblingPairs);
}

TEST_P(WindowJoinTest, JoinRunsTheNestedLoopInArrivalOrder) {
  auto env = simulatedEnv(GetParam());
  auto out = events(env, {{"k", "a1", 10}, {"k", "a2", 5}, {"k", "a3", 20}})
                 .join(events(env, {{"k", "b1", 30}, {"k", "b2", 1}}))
                 .where(keyOf)
                 .equalTo(keyOf)
                 .window(TumblingEventTimeWindows::of(100))
                 .apply([](const Event& a, const Event& b) { return a.name + "+" + b.name; })
                 .collectToMemory();
  env.execute();
  EXPECT_THAT(withTimestamps(*out), ElementsAre("a1+b1 #99", "a1+b2 #99", "a2+b1 #99", "a2+b2 #99", "a3+b1 #99",
                                                "a3+b2 #99"));
}

// ---- every form of the join function ----

class DescribeJoin : public JoinFunction<Event, Event, std::string> {
 public:
  std::string join(const Event& click, const Event& order) override { return pairText(click, order); }
};

/// Emits a pair twice when the order is a book, never when it is ink.
class BookTwiceNoInk : public FlatJoinFunction<Event, Event, std::string> {
 public:
  void join(const Event& click, const Event& order, Collector<std::string>& out) override {
    if (order.name == "ink") return;
    out.collect(pairText(click, order));
    if (order.name == "book") out.collect(pairText(click, order) + "!");
  }
};

const std::vector<std::string> kFlatPairs = {
    "alice: cart+book #1999", "alice: cart+book! #1999", "alice: exit+lamp #5999",
    "alice: home+book #1999", "alice: home+book! #1999", "bob: home+pen #3999",
};

template <class Apply>
std::vector<std::string> runTumblingJoin(int parallelism, Apply apply) {
  auto env = simulatedEnv(parallelism);
  auto joined = events(env, kClicks)
                    .join(events(env, kOrders))
                    .where(keyOf)
                    .equalTo(keyOf)
                    .window(TumblingEventTimeWindows::of(2000));
  auto out = apply(joined).collectToMemory();
  env.execute();
  return sortedWithTimestamps(*out);
}

TEST_P(WindowJoinTest, JoinFunctionClass) {
  EXPECT_EQ(runTumblingJoin(GetParam(), [](auto joined) { return joined.apply(DescribeJoin{}); }), kTumblingPairs);
}

TEST_P(WindowJoinTest, FlatJoinFunctionClass) {
  EXPECT_EQ(runTumblingJoin(GetParam(), [](auto joined) { return joined.apply(BookTwiceNoInk{}); }), kFlatPairs);
}

TEST_P(WindowJoinTest, FlatJoinLambdaWithOutputType) {
  EXPECT_EQ(runTumblingJoin(GetParam(),
                            [](auto joined) {
                              return joined.template apply<std::string>(
                                  [](const Event& click, const Event& order, Collector<std::string>& out) {
                                    BookTwiceNoInk().join(click, order, out);
                                  });
                            }),
            kFlatPairs);
}

TEST_P(WindowJoinTest, JoinLambdaDeducesItsOutputType) {
  auto env = simulatedEnv(GetParam());
  SingleOutputStreamOperator<std::pair<std::string, Timestamp>> joined =
      events(env, kClicks)
          .join(events(env, kOrders))
          .where(keyOf)
          .equalTo(keyOf)
          .window(TumblingEventTimeWindows::of(2000))
          .apply([](const Event& click, const Event& order) { return std::make_pair(click.key, click.ts + order.ts); });
  auto out = joined.collectToMemory();
  env.execute();
  auto values = out->values();
  std::sort(values.begin(), values.end());
  EXPECT_THAT(values, ElementsAre(std::make_pair(std::string("alice"), Timestamp{1500}),
                                  std::make_pair(std::string("alice"), Timestamp{2300}),
                                  std::make_pair(std::string("alice"), Timestamp{2500}),
                                  std::make_pair(std::string("alice"), Timestamp{3300}),
                                  std::make_pair(std::string("alice"), Timestamp{9900}),
                                  std::make_pair(std::string("bob"), Timestamp{5999})));
}

/// Inputs of different types, keyed by an int through a KeySelector class.
class VisitUser : public KeySelector<Visit, int> {
 public:
  int getKey(const Visit& v) override { return v.user; }
};

class VisitThenOrder : public JoinFunction<Visit, Order, std::string> {
 public:
  void open() override { opened_ = true; }
  std::string join(const Visit& v, const Order& o) override {
    EXPECT_TRUE(opened_);
    EXPECT_EQ(getRuntimeContext().getNumberOfParallelSubtasks(), parallelism_);
    return fmt::format("user {}: {} then {}", v.user, v.page, o.item);
  }
  explicit VisitThenOrder(int parallelism) : parallelism_(parallelism) {}

 private:
  bool opened_ = false;
  int parallelism_;
};

TEST_P(WindowJoinTest, JoinsInputsOfDifferentTypesWithAnOpenedRichFunction) {
  auto env = simulatedEnv(GetParam());
  auto visits = env.fromElements<Visit>({{1, "home", 100}, {2, "cart", 200}, {1, "faq", 1200}})
                    .assignTimestampsAndWatermarks(monotonous<Visit>([](const Visit& v) { return v.ts; }));
  auto orders = env.fromElements<Order>({{1, "book", 900}, {2, "pen", 1100}, {1, "lamp", 1300}})
                    .assignTimestampsAndWatermarks(monotonous<Order>([](const Order& o) { return o.ts; }));
  auto out = visits.join(orders)
                 .where(VisitUser{})
                 .equalTo([](const Order& o) { return o.user; })
                 .window(TumblingEventTimeWindows::of(1000))
                 .apply(VisitThenOrder(GetParam()))
                 .collectToMemory();
  env.execute();
  EXPECT_THAT(sortedWithTimestamps(*out), ElementsAre("user 1: faq then lamp #1999", "user 1: home then book #999"));
}

// ---- sliding windows ----

TEST_P(WindowJoinTest, SlidingJoinPairsOncePerSharedWindow) {
  auto env = simulatedEnv(GetParam());
  // Windows of 2 s every 1 s. [0,2000): c1,o1. [1000,3000): c1,c2,o1.
  // [2000,4000): c2,o2. [3000,5000): o2 only. And bob: c3 with o3 in
  // [4000,6000) only, o3 alone in [5000,7000).
  auto out = events(env, {{"a", "c1", 1500}, {"a", "c2", 2500}, {"b", "c3", 4999}})
                 .join(events(env, {{"a", "o1", 1700}, {"a", "o2", 3200}, {"b", "o3", 5000}}))
                 .where(keyOf)
                 .equalTo(keyOf)
                 .window(SlidingEventTimeWindows::of(2000, 1000))
                 .apply(DescribeJoin{})
                 .collectToMemory();
  env.execute();
  EXPECT_THAT(sortedWithTimestamps(*out), ElementsAre("a: c1+o1 #1999", "a: c1+o1 #2999", "a: c2+o1 #2999",
                                                      "a: c2+o2 #3999", "b: c3+o3 #5999"));
}

// ---- coGroup ----

class DescribeSides : public CoGroupFunction<Event, Event, std::string> {
 public:
  void coGroup(std::span<const Event> first, std::span<const Event> second, Collector<std::string>& out) override {
    out.collect(sidesText(first, second));
  }
};

TEST_P(WindowJoinTest, SessionCoGroupMergesSessionsAcrossBothInputs) {
  auto env = simulatedEnv(GetParam());
  // Gap 1 s. a: c1, c2 and o1 form [1000, 3200); c3 alone [5000, 6000);
  // c4 [10000, 11000) and c5 [11800, 12800) are bridged by o2 [10900, 11900).
  // b: o3 alone [100, 1100).
  auto out = events(env, {{"a", "c1", 1000}, {"a", "c2", 1500}, {"a", "c3", 5000}, {"a", "c4", 10000},
                          {"a", "c5", 11800}})
                 .coGroup(events(env, {{"b", "o3", 100}, {"a", "o1", 2200}, {"a", "o2", 10900}}))
                 .where(keyOf)
                 .equalTo(keyOf)
                 .window(EventTimeSessionWindows::withGap(std::chrono::seconds(1)))
                 .apply(DescribeSides{})
                 .collectToMemory();
  env.execute();
  EXPECT_THAT(sortedWithTimestamps(*out), ElementsAre("a: [c1,c2] | [o1] #3199", "a: [c3] | [] #5999",
                                                      "a: [c4,c5] | [o2] #12799", "b: [] | [o3] #1099"));
}

TEST_P(WindowJoinTest, CoGroupIsCalledWithAnEmptySideWhereTheJoinEmitsNothing) {
  auto env = simulatedEnv(GetParam());
  auto clicks = events(env, kClicks);
  auto orders = events(env, kOrders);
  auto co_grouped = clicks.coGroup(orders)
                        .where(keyOf)
                        .equalTo(keyOf)
                        .window(TumblingEventTimeWindows::of(2000))
                        .apply<std::string>([](std::span<const Event> first, std::span<const Event> second,
                                               Collector<std::string>& out) { out.collect(sidesText(first, second)); })
                        .collectToMemory();
  auto joined = clicks.join(orders)
                    .where(keyOf)
                    .equalTo(keyOf)
                    .window(TumblingEventTimeWindows::of(2000))
                    .apply(DescribeJoin{})
                    .collectToMemory();
  env.execute();
  EXPECT_THAT(sortedWithTimestamps(*co_grouped),
              ElementsAre("alice: [exit] | [lamp] #5999", "alice: [help] | [] #3999",
                          "alice: [home,cart] | [book,ink] #1999", "bob: [] | [cap] #5999",
                          "bob: [home] | [pen] #3999", "carol: [home] | [] #1999", "dave: [] | [mug] #1999"));
  EXPECT_EQ(sortedWithTimestamps(*joined), kTumblingPairs);
}

// ---- allowed lateness ----

template <class T>
using Script = typename ScriptedSource<T>::Script;

/// `event` played `at` ms after the start, without a source timestamp.
ScriptedSource<Event>::Step step(Duration at, Event event) { return {at, std::move(event), std::nullopt}; }

/// Every event's timestamp becomes the watermark right after it.
class TimestampIsWatermark final : public WatermarkGenerator<Event> {
 public:
  void onEvent(const Event&, Timestamp event_timestamp, WatermarkOutput& output) override {
    output.emitWatermark(event_timestamp);
  }
  void onPeriodicEmit(WatermarkOutput&) override {}
};

/// A one-subtask input playing `script` (timestamps from Event::ts), with a
/// watermark after every element.
DataStream<Event> scripted(StreamExecutionEnvironment& env, Script<Event> script, Duration end_at) {
  ScriptedSource<Event> source = ScriptedSource<Event>::single(std::move(script));
  source.endAt(end_at);
  auto strategy =
      WatermarkStrategy<Event>::forGenerator([] {
        return std::unique_ptr<WatermarkGenerator<Event>>(std::make_unique<TimestampIsWatermark>());
      }).withTimestampAssigner([](const Event& e) { return e.ts; });
  DataStream<Event> stream =
      env.addSource(source, "script").setParallelism(1).assignTimestampsAndWatermarks(strategy).setParallelism(1);
  return stream;
}

TEST_P(WindowJoinTest, LateElementsWithinTheAllowedLatenessReFireTheWholeWindow) {
  auto env = simulatedEnv(GetParam());
  // Windows of 1 s, lateness 500 ms; event time is the smaller of the two
  // inputs' last timestamps.
  auto left = scripted(env,
                       {step(0, {"a", "L1", 100}),
                        step(100, {"a", "L2", 1200}),
                        step(300, {"a", "L3", 900}),   // event time 1200: late, within lateness: re-fire
                        step(500, {"a", "L4", 2000}),
                        step(700, {"a", "L5", 950})},  // event time 2000: beyond lateness, dropped
                       1000);
  auto right = scripted(env,
                        {step(50, {"a", "R1", 500}),
                         step(200, {"a", "R2", 1300}),  // event time 1200: [0, 1000) fires
                         step(400, {"a", "R3", 800}),   // late, within lateness: re-fire
                         step(600, {"a", "R4", 2100})},  // event time 2000: [1000, 2000) fires, [0, 1000) cleaned up
                        1000);
  auto out = left.join(right)
                 .where(keyOf)
                 .equalTo(keyOf)
                 .window(TumblingEventTimeWindows::of(1000))
                 .allowedLateness(std::chrono::milliseconds(500))
                 .apply([](const Event& a, const Event& b) { return a.name + "+" + b.name; })
                 .collectToMemory();
  env.execute();
  EXPECT_THAT(withTimestamps(*out),
              ElementsAre("L1+R1 #999",                                                 // on time
                          "L1+R1 #999", "L3+R1 #999",                                   // L3 late
                          "L1+R1 #999", "L1+R3 #999", "L3+R1 #999", "L3+R3 #999",       // R3 late
                          "L2+R2 #1999",                                                // on time
                          "L4+R4 #2999"));                                              // end of input
}

// ---- trigger and evictor ----

TEST_P(WindowJoinTest, TriggerAndEvictorWorkOnTheTaggedElements) {
  auto env = simulatedEnv(GetParam());
  // No timestamps: GlobalWindows. Every 2nd element of a key (of either
  // input) fires, with the last 3 elements of the key.
  auto left = env.addSource(ScriptedSource<Event>::single(
                                {step(0, {"a", "L1", 0}), step(20, {"a", "L2", 0}), step(40, {"a", "L3", 0})}))
                  .setParallelism(1);
  auto right = env.addSource(ScriptedSource<Event>::single(
                                 {step(10, {"a", "R1", 0}), step(30, {"a", "R2", 0}), step(50, {"a", "R3", 0})}))
                   .setParallelism(1);
  auto joined = left.join(right)
                    .where(keyOf)
                    .equalTo(keyOf)
                    .window(GlobalWindows::create())
                    .trigger(CountTrigger::of(2))
                    .evictor(CountEvictor::of(3))
                    .apply([](const Event& a, const Event& b) { return a.name + "+" + b.name; });
  EXPECT_EQ(joined.graph()->node(joined.getId()).name, "EvictingWindow(Join)");
  auto out = joined.collectToMemory();
  env.execute();
  EXPECT_THAT(withTimestamps(*out), ElementsAre("L1+R1 #MAX",                 // [L1, R1]
                                                "L2+R1 #MAX", "L2+R2 #MAX",   // [R1, L2, R2]
                                                "L3+R2 #MAX", "L3+R3 #MAX"));  // [R2, L3, R3]
}

// ---- state cleanup, on the window operator itself ----

using Tagged = TaggedUnion<Event, Event>;

TEST(WindowJoinHarnessTest, WindowStateAndTimersAreGoneOnceTheWatermarkPassesTheCleanupTime) {
  auto env = simulatedEnv(1);
  auto joined = events(env, {})
                    .join(events(env, {}))
                    .where(keyOf)
                    .equalTo(keyOf)
                    .window(TumblingEventTimeWindows::of(1000))
                    .allowedLateness(500)
                    .apply(DescribeJoin{});
  EXPECT_EQ(joined.graph()->node(joined.getId()).name, "Window(Join)");

  KeyedOneInputStreamOperatorTestHarness<std::string, Tagged, std::string> harness(joined);
  harness.open();
  harness.processElement(Tagged::one({"a", "c1", 100}), 100);
  harness.processElement(Tagged::two({"a", "o1", 200}), 200);
  harness.processElement(Tagged::one({"b", "c2", 300}), 300);
  harness.processElement(Tagged::two({"a", "o2", 1100}), 1100);
  EXPECT_GT(harness.numKeyedStateEntries(), 0u);
  // Per window: the trigger's timer at maxTimestamp and the cleanup timer 500 ms later.
  EXPECT_EQ(harness.numEventTimeTimers(), 6u);

  harness.processWatermark(999);  // [0, 1000) fires; its state stays for late elements
  EXPECT_THAT(harness.extractOutputValues(), ElementsAre("a: c1+o1"));
  EXPECT_EQ(harness.numEventTimeTimers(), 4u);  // the cleanup timers at 1499, and [1000, 2000)'s two

  harness.processElement(Tagged::two({"b", "o3", 400}), 400);  // late, within lateness: re-fires b
  EXPECT_THAT(harness.extractOutputValues(), ElementsAre("a: c1+o1", "b: c2+o3"));

  harness.processWatermark(1499);  // [0, 1000) cleaned up
  EXPECT_EQ(harness.numEventTimeTimers(), 2u);
  EXPECT_GT(harness.numKeyedStateEntries(), 0u);

  harness.processWatermark(2499);  // [1000, 2000) fired (o2 alone: nothing) and cleaned up
  EXPECT_THAT(harness.extractOutputValues(), ElementsAre("a: c1+o1", "b: c2+o3"));
  EXPECT_EQ(harness.numKeyedStateEntries(), 0u);
  EXPECT_EQ(harness.numEventTimeTimers(), 0u);
  EXPECT_EQ(harness.numProcessingTimeTimers(), 0u);
  harness.close();
}

TEST(WindowJoinHarnessTest, SessionCoGroupStateIsGoneOnceTheSessionsAreCleanedUp) {
  auto env = simulatedEnv(1);
  auto co_grouped = events(env, {})
                        .coGroup(events(env, {}))
                        .where(keyOf)
                        .equalTo(keyOf)
                        .window(EventTimeSessionWindows::withGap(1000))
                        .apply(DescribeSides{});
  EXPECT_EQ(co_grouped.graph()->node(co_grouped.getId()).name, "Window(CoGroup)");

  KeyedOneInputStreamOperatorTestHarness<std::string, Tagged, std::string> harness(co_grouped);
  harness.open();
  harness.processElement(Tagged::one({"a", "c1", 100}), 100);
  harness.processElement(Tagged::two({"a", "o1", 1000}), 1000);  // merges: [100, 2000)
  harness.processElement(Tagged::two({"b", "o2", 5000}), 5000);
  EXPECT_GT(harness.numKeyedStateEntries(), 0u);
  EXPECT_EQ(harness.numEventTimeTimers(), 2u);

  harness.processWatermark(10000);
  EXPECT_THAT(harness.extractOutputValues(), ElementsAre("a: [c1] | [o1]", "b: [] | [o2]"));
  EXPECT_EQ(harness.numKeyedStateEntries(), 0u);
  EXPECT_EQ(harness.numEventTimeTimers(), 0u);
  harness.close();
}

// ---- the tagged union, misuse, failures ----

TEST(TaggedUnionTest, KnowsItsSideAndPrintsIt) {
  auto one = TaggedUnion<int, int>::one(1);
  auto two = TaggedUnion<int, int>::two(2);
  EXPECT_TRUE(one.isOne());
  EXPECT_FALSE(one.isTwo());
  EXPECT_TRUE(two.isTwo());
  EXPECT_EQ(one.getOne(), 1);
  EXPECT_EQ(two.getTwo(), 2);
  EXPECT_EQ(describe(one), "one(1)");
  EXPECT_EQ(describe(TaggedUnion<Event, Order>::two({7, "pen", 3})), "two(<tidemark::(anonymous namespace)::Order>)");
  EXPECT_EQ(describe(TaggedUnion<Event, Order>::one({"k", "x", 3})), "one(k/x@3)");
}

TEST(WindowJoinMisuseTest, NegativeLatenessAndStreamsOfDifferentEnvironmentsAreRefused) {
  auto env = simulatedEnv(1);
  auto other = simulatedEnv(1);
  auto a = env.fromElements<Event>({{"a", "x", 1}});
  auto b = other.fromElements<Event>({{"a", "y", 1}});
  EXPECT_THROW((void)a.join(b), std::invalid_argument);
  EXPECT_THROW((void)a.coGroup(b), std::invalid_argument);
  auto windowed = a.join(a).where(keyOf).equalTo(keyOf).window(TumblingEventTimeWindows::of(10));
  EXPECT_THROW((void)windowed.allowedLateness(-1), std::invalid_argument);
  EXPECT_EQ(windowed.allowedLateness(std::chrono::seconds(2)).getAllowedLateness(), 2000);
  EXPECT_EQ(windowed.getAllowedLateness(), 0);  // configuration calls return copies
}

TEST(WindowJoinFailureTest, AFailingJoinFunctionFailsTheJobNamingTheWindowOperator) {
  auto env = simulatedEnv(2);
  events(env, kClicks)
      .join(events(env, kOrders))
      .where(keyOf)
      .equalTo(keyOf)
      .window(TumblingEventTimeWindows::of(2000))
      .apply([](const Event& click, const Event& order) -> std::string {
        if (order.name == "pen") throw std::runtime_error("no pens for " + click.key);
        return pairText(click, order);
      })
      .collectToMemory();
  try {
    env.execute("failing join");
    FAIL() << "the job should have failed";
  } catch (const JobExecutionException& e) {
    EXPECT_THAT(e.what(), HasSubstr("Window(Join)"));
    EXPECT_THAT(e.what(), HasSubstr("no pens for bob"));
  }
}

TEST(WindowJoinFailureTest, AnEmptyJobProducesNothing) {
  auto env = simulatedEnv(2);
  auto out = events(env, {})
                 .join(events(env, {}))
                 .where(keyOf)
                 .equalTo(keyOf)
                 .window(TumblingEventTimeWindows::of(2000))
                 .apply(DescribeJoin{})
                 .collectToMemory();
  env.execute();
  EXPECT_THAT(out->values(), IsEmpty());
}

}  // namespace
}  // namespace tidemark
