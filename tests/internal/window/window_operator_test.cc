// The window operator driven by hand (docs/semantics.md 4, 5, 7): each test builds
// a windowed stream with the DataStream API, instantiates its window operator
// alone in the keyed test harness, and pushes elements, watermarks and
// processing time, asserting every emitted record (value @ timestamp) and
// watermark, the late side output, the state entries and the pending timers.
//
// Expected values follow Flink's WindowOperator / EvictingWindowOperator
// (flink-streaming-java .../runtime/operators/windowing/WindowOperator.java and
// WindowOperatorTest.java).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Lines = std::vector<std::string>;

// ---- element types and functions ------------------------------------------

/// A keyed value: prints as "key:v".
struct E {
  std::string key;
  std::int64_t v = 0;
  friend bool operator==(const E&, const E&) = default;
  friend std::ostream& operator<<(std::ostream& os, const E& e) { return os << e.key << ':' << e.v; }
};

E sumE(const E& a, const E& b) { return E{a.key, a.v + b.v}; }
std::string keyOf(const E& e) { return e.key; }

/// A keyed command for the scripted trigger: prints as "key/op".
struct Cmd {
  std::string key;
  std::string op;
  friend std::ostream& operator<<(std::ostream& os, const Cmd& c) { return os << c.key << '/' << c.op; }
};

std::string window(const TimeWindow& w) { return fmt::format("[{},{})", w.start, w.end); }

/// "key [start,end): v1,v2,..." for every element the window holds, in the
/// order the window holds them, or sorted: the order of merged session
/// contents depends on which session's state the merge keeps (Flink picks
/// any), so session tests compare sorted values.
class ListValues : public ProcessWindowFunction<E, std::string, std::string, TimeWindow> {
 public:
  explicit ListValues(bool sorted = false) : sorted_(sorted) {}
  void process(const std::string& key, Context& ctx, std::span<const E> elements,
               Collector<std::string>& out) override {
    std::vector<std::int64_t> values;
    for (const E& e : elements) values.push_back(e.v);
    if (sorted_) std::sort(values.begin(), values.end());
    out.collect(fmt::format("{} {}: {}", key, window(ctx.window()), fmt::join(values, ",")));
  }

 private:
  bool sorted_;
};

ListValues sortedValues() { return ListValues(true); }

/// As ListValues for a GlobalWindow.
class ListGlobalValues : public ProcessWindowFunction<E, std::string, std::string, GlobalWindow> {
 public:
  void process(const std::string& key, Context&, std::span<const E> elements, Collector<std::string>& out) override {
    std::vector<std::int64_t> values;
    for (const E& e : elements) values.push_back(e.v);
    out.collect(fmt::format("{}: {}", key, fmt::join(values, ",")));
  }
};

/// "key [start,end): op1,op2,..." for every command the window holds.
class ListOps : public ProcessWindowFunction<Cmd, std::string, std::string, TimeWindow> {
 public:
  void process(const std::string& key, Context& ctx, std::span<const Cmd> elements,
               Collector<std::string>& out) override {
    std::vector<std::string> ops;
    for (const Cmd& c : elements) ops.push_back(c.op);
    out.collect(fmt::format("{} {}: {}", key, window(ctx.window()), fmt::join(ops, ",")));
  }
};

StreamExecutionEnvironment makeEnv() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  return env;
}

/// The keyed stream the window operators under test are built on (never run).
KeyedStream<std::string, E> keyed(StreamExecutionEnvironment& env) {
  return env.fromElements<E>({E{"a", 0}}).keyBy(keyOf);
}

template <class OUT>
using Harness = KeyedOneInputStreamOperatorTestHarness<std::string, E, OUT>;

/// The operator's own counters (numLateRecordsDropped), as a job would report them.
template <class H>
std::uint64_t lateRecordsDropped(H& harness) {
  internal::CounterReport report;
  harness.getOperator().reportCounters(report);
  for (const auto& [name, value] : report.counters()) {
    if (name == "numLateRecordsDropped") return value;
  }
  ADD_FAILURE() << "the operator reports no numLateRecordsDropped";
  return 0;
}

template <class T>
std::vector<std::string> recordLines(const std::vector<StreamRecord<T>>& records) {
  std::vector<std::string> out;
  for (const auto& r : records) {
    out.push_back(fmt::format("{} @ {}", describe(r.value), r.has_timestamp ? std::to_string(r.timestamp) : "none"));
  }
  return out;
}

const std::string kMax = std::to_string(kMaxWatermark);

/// Tumbling event-time windows as the API builds them by default (for reduce
/// and aggregate, the slicing operator), or with the default trigger named
/// explicitly, which keeps the general WindowOperator. The core event-time
/// tests run both: they must behave the same.
WindowedStream<std::string, E, TimeWindow> tumbling(StreamExecutionEnvironment& env, Duration size, bool general) {
  auto windowed = keyed(env).window(TumblingEventTimeWindows::of(size));
  if (general) windowed.trigger(EventTimeTrigger::create());
  return windowed;
}

const char* operatorKind(bool general) { return general ? "general WindowOperator" : "the API's default operator"; }

// ---- event-time firing --------------------------------------------------------

TEST(WindowOperatorTest, WatermarkExactlyEndMinusOneFiresEndMinusTwoDoesNot) {
  for (bool general : {false, true}) {
    SCOPED_TRACE(operatorKind(general));
    auto env = makeEnv();
    Harness<E> h(tumbling(env, 1000, general).reduce(sumE));
    h.open();
    h.processElement(E{"a", 1}, 0);
    h.processElement(E{"a", 2}, 999);
    h.processElement(E{"b", 5}, 500);
    EXPECT_EQ(h.numKeyedStateEntries(), 2u);
    EXPECT_EQ(h.numEventTimeTimers(), 2u);

    h.processWatermark(998);
    EXPECT_EQ(h.getOutput().lines(), (Lines{"Watermark(998)"}));
    EXPECT_EQ(h.numKeyedStateEntries(), 2u);

    h.processWatermark(999);
    // Timers with equal timestamps fire in registration order: a before b.
    EXPECT_EQ(h.getOutput().lines(),
              (Lines{"Watermark(998)", "Record(a:3 @ 999)", "Record(b:5 @ 999)", "Watermark(999)"}));
    EXPECT_EQ(h.numKeyedStateEntries(), 0u);
    EXPECT_EQ(h.numEventTimeTimers(), 0u);
  }
}

TEST(WindowOperatorTest, OneWatermarkFiresEveryDueWindowInTimestampOrderBeforeItIsForwarded) {
  for (bool general : {false, true}) {
    SCOPED_TRACE(operatorKind(general));
    auto env = makeEnv();
    Harness<E> h(tumbling(env, 1000, general).reduce(sumE));
    h.open();
    h.processElement(E{"a", 1}, 2500);
    h.processElement(E{"a", 2}, 100);
    h.processElement(E{"b", 4}, 1999);
    h.processElement(E{"a", 8}, 3000);
    h.processWatermark(2999);
    EXPECT_EQ(h.getOutput().lines(),
              (Lines{"Record(a:2 @ 999)", "Record(b:4 @ 1999)", "Record(a:1 @ 2999)", "Watermark(2999)"}));
    EXPECT_EQ(h.numKeyedStateEntries(), 1u);
    EXPECT_EQ(h.numEventTimeTimers(), 1u);
  }
}

TEST(WindowOperatorTest, NegativeTimestampsFloorToTheWindowBelow) {
  for (bool general : {false, true}) {
    SCOPED_TRACE(operatorKind(general));
    auto env = makeEnv();
    Harness<E> h(tumbling(env, 1000, general).reduce(sumE));
    h.open();
    h.processElement(E{"a", 1}, -1);
    h.processElement(E{"a", 2}, -1000);
    h.processElement(E{"a", 4}, -1001);
    h.processElement(E{"a", 8}, 0);
    h.processWatermark(-2);
    h.processWatermark(-1);
    h.processWatermark(999);
    EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a:4 @ -1001)", "Watermark(-2)", "Record(a:3 @ -1)", "Watermark(-1)",
                                            "Record(a:8 @ 999)", "Watermark(999)"}));
  }
}

TEST(WindowOperatorTest, TumblingOffsetShiftsTheGrid) {
  auto env = makeEnv();
  Harness<std::string> h(keyed(env).window(TumblingEventTimeWindows::of(1000, 300)).process(ListValues{}));
  h.open();
  h.processElement(E{"a", 1}, 299);
  h.processElement(E{"a", 2}, 300);
  h.processElement(E{"a", 3}, -701);
  h.processElement(E{"a", 4}, 1299);
  h.processWatermark(kMaxWatermark);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a [-1700,-700): 3 @ -701)", "Record(a [-700,300): 1 @ 299)",
                                          "Record(a [300,1300): 2,4 @ 1299)", "Watermark(" + kMax + ")"}));
}

// ---- lateness -----------------------------------------------------------------

TEST(WindowOperatorTest, ElementAtTheWatermarkIsLate) {
  for (bool general : {false, true}) {
    SCOPED_TRACE(operatorKind(general));
    auto env = makeEnv();
    const OutputTag<E> late("late");
    Harness<E> h(tumbling(env, 1000, general).sideOutputLateData(late).reduce(sumE));
    h.captureSideOutput(late);
    h.open();
    h.processWatermark(1500);
    h.processElement(E{"a", 1}, 1500);  // ts == wm: late, but its window [1000,2000) is not
    h.processElement(E{"a", 2}, 999);   // window [0,1000) is late (999 <= 1500): side output
    h.processElement(E{"a", 4}, 1501);
    h.processWatermark(1999);
    EXPECT_EQ(h.getOutput().lines(), (Lines{"Watermark(1500)", "Record(a:5 @ 1999)", "Watermark(1999)"}));
    EXPECT_EQ(recordLines(h.getSideOutput(late)), (Lines{"a:2 @ 999"}));
    EXPECT_EQ(lateRecordsDropped(h), 0u);
  }
}

TEST(WindowOperatorTest, LatenessUsesLessOrEqualWithAllowedLateness) {
  auto env = makeEnv();
  const OutputTag<E> late("late");
  Harness<E> h(
      keyed(env).window(TumblingEventTimeWindows::of(1000)).allowedLateness(500).sideOutputLateData(late).reduce(sumE));
  h.captureSideOutput(late);
  h.open();
  h.processElement(E{"a", 1}, 100);
  h.processWatermark(1498);
  // Window [0,1000) fired at 999 and lives until 999 + 500 = 1499 > 1498.
  h.processElement(E{"a", 2}, 998);  // 998 + 500 = 1498 <= 1498: the element is late, its window is not: accepted
  h.processWatermark(1499);          // cleanup of [0,1000)
  h.processElement(E{"a", 4}, 999);  // 999 + 500 <= 1499 and the window is gone: side output
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Record(a:1 @ 999)", "Watermark(1498)", "Record(a:3 @ 999)", "Watermark(1499)"}));
  EXPECT_EQ(recordLines(h.getSideOutput(late)), (Lines{"a:4 @ 999"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

TEST(WindowOperatorTest, AllowedLatenessRefiresWithTheFullUpdatedAggregate) {
  auto env = makeEnv();
  Harness<E> h(keyed(env).window(TumblingEventTimeWindows::of(1000)).allowedLateness(1000).reduce(sumE));
  h.open();
  h.processElement(E{"a", 1}, 100);
  h.processElement(E{"a", 1}, 200);
  h.processWatermark(999);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a:2 @ 999)", "Watermark(999)"}));
  // The window stays until its cleanup timer at 999 + 1000.
  EXPECT_EQ(h.numKeyedStateEntries(), 1u);
  EXPECT_EQ(h.numEventTimeTimers(), 1u);

  h.processElement(E{"a", 1}, 300);  // late but within lateness: fires at once, with everything
  h.processElement(E{"a", 5}, 999);
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Record(a:2 @ 999)", "Watermark(999)", "Record(a:3 @ 999)", "Record(a:8 @ 999)"}));

  // The cleanup timer does not fire the window again.
  h.processWatermark(1998);
  EXPECT_EQ(h.numKeyedStateEntries(), 1u);
  EXPECT_EQ(h.numEventTimeTimers(), 1u);
  h.processWatermark(1999);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a:2 @ 999)", "Watermark(999)", "Record(a:3 @ 999)",
                                          "Record(a:8 @ 999)", "Watermark(1998)", "Watermark(1999)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);

  // After cleanup the element is late and, without a side output, dropped and counted.
  h.processElement(E{"a", 100}, 999);
  EXPECT_EQ(lateRecordsDropped(h), 1u);
  EXPECT_EQ(h.getOutput().size(), 6u);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

TEST(WindowOperatorTest, LateSideOutputCarriesTheOriginalElementAndTimestamp) {
  for (bool general : {false, true}) {
    SCOPED_TRACE(operatorKind(general));
    auto env = makeEnv();
    const OutputTag<E> late("late");
    Harness<E> h(tumbling(env, 1000, general).sideOutputLateData(late).reduce(sumE));
    h.captureSideOutput(late);
    h.open();
    h.processWatermark(5000);
    h.processElement(E{"a", 7}, 1234);
    h.processElement(E{"b", 9}, -3);
    const auto side = h.getSideOutput(late);
    ASSERT_EQ(side.size(), 2u);
    EXPECT_EQ(side[0].value, (E{"a", 7}));
    EXPECT_TRUE(side[0].has_timestamp);
    EXPECT_EQ(side[0].timestamp, 1234);
    EXPECT_EQ(side[1].value, (E{"b", 9}));
    EXPECT_EQ(side[1].timestamp, -3);
    EXPECT_EQ(h.getOutput().lines(), (Lines{"Watermark(5000)"}));
    EXPECT_EQ(lateRecordsDropped(h), 0u);
    EXPECT_EQ(h.numKeyedStateEntries(), 0u);
    EXPECT_EQ(h.numEventTimeTimers(), 0u);
  }
}

TEST(WindowOperatorTest, WithoutSideOutputLateElementsAreDroppedAndCounted) {
  for (bool general : {false, true}) {
    SCOPED_TRACE(operatorKind(general));
    auto env = makeEnv();
    Harness<E> h(tumbling(env, 1000, general).reduce(sumE));
    h.open();
    h.processElement(E{"a", 1}, 10);
    h.processWatermark(999);
    h.processElement(E{"a", 2}, 999);
    h.processElement(E{"b", 3}, 0);
    h.processElement(E{"a", 4}, 1000);  // not late
    h.processWatermark(1999);
    EXPECT_EQ(h.getOutput().lines(),
              (Lines{"Record(a:1 @ 999)", "Watermark(999)", "Record(a:4 @ 1999)", "Watermark(1999)"}));
    EXPECT_EQ(lateRecordsDropped(h), 2u);
  }
}

TEST(WindowOperatorTest, SlidingElementAcceptedByOneWindowIsNotSideOutput) {
  auto env = makeEnv();
  const OutputTag<E> late("late");
  Harness<E> h(keyed(env).window(SlidingEventTimeWindows::of(2000, 1000)).sideOutputLateData(late).reduce(sumE));
  h.captureSideOutput(late);
  h.open();
  h.processElement(E{"a", 1}, 1500);  // [1000,3000) and [0,2000)
  h.processWatermark(1999);
  h.processElement(E{"a", 10}, 1200);  // [0,2000) is late and skips it; [1000,3000) takes it
  h.processWatermark(2999);
  h.processElement(E{"a", 100}, 1999);  // both windows late: side output
  h.processWatermark(3999);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a:1 @ 1999)", "Watermark(1999)", "Record(a:11 @ 2999)",
                                          "Watermark(2999)", "Watermark(3999)"}));
  EXPECT_EQ(recordLines(h.getSideOutput(late)), (Lines{"a:100 @ 1999"}));
  EXPECT_EQ(lateRecordsDropped(h), 0u);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

// size < slide: 1100 .. 1999 fall between [0,1000) and [2000,3000). Such an
// element is skipped by every window (it has none), so it goes to the late
// side output exactly when it is itself late (ts <= watermark).
void checkElementBetweenSlidingWindows(bool sum) {
  auto env = makeEnv();
  const OutputTag<E> late("late");
  auto windowed = keyed(env).window(SlidingEventTimeWindows::of(1000, 2000)).sideOutputLateData(late);
  Harness<E> h(sum ? windowed.sum(&E::v) : windowed.reduce(sumE));
  h.captureSideOutput(late);
  h.open();
  h.processElement(E{"a", 1}, 1500);  // no window, not late
  h.processElement(E{"a", 2}, 2000);
  h.processWatermark(1200);
  h.processElement(E{"a", 4}, 1300);  // no window, not late: nothing
  h.processElement(E{"a", 8}, 1100);  // no window, late: side output
  h.processElement(E{"a", 16}, 999);  // [0,1000) is late: side output
  h.processWatermark(kMaxWatermark);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Watermark(1200)", "Record(a:2 @ 2999)", "Watermark(" + kMax + ")"}));
  EXPECT_EQ(recordLines(h.getSideOutput(late)), (Lines{"a:8 @ 1100", "a:16 @ 999"}));
  EXPECT_EQ(lateRecordsDropped(h), 0u);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
}

TEST(WindowOperatorTest, ElementBetweenSlidingWindowsIsLateOnlyIfItsTimestampIs) {
  checkElementBetweenSlidingWindows(/*sum=*/false);
}

TEST(WindowOperatorTest, ElementBetweenSlidingWindowsIsLateOnlyIfItsTimestampIsWithSum) {
  checkElementBetweenSlidingWindows(/*sum=*/true);
}

TEST(WindowOperatorTest, PurgingEventTimeTriggerEmitsOnlyWhatArrivedSinceTheLastFiring) {
  auto env = makeEnv();
  Harness<E> h(keyed(env)
                   .window(TumblingEventTimeWindows::of(1000))
                   .allowedLateness(1000)
                   .trigger(PurgingTrigger::of(EventTimeTrigger::create()))
                   .reduce(sumE));
  h.open();
  h.processElement(E{"a", 1}, 100);
  h.processElement(E{"a", 1}, 200);
  h.processWatermark(999);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);  // purged
  EXPECT_EQ(h.numEventTimeTimers(), 1u);    // the cleanup timer at 1999
  h.processElement(E{"a", 5}, 300);
  h.processElement(E{"a", 7}, 400);
  h.processWatermark(1999);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a:2 @ 999)", "Watermark(999)", "Record(a:5 @ 999)",
                                          "Record(a:7 @ 999)", "Watermark(1999)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

TEST(WindowOperatorTest, CleanupTimeSaturatesAndIsNeverRegisteredAtMax) {
  auto env = makeEnv();
  Harness<E> h(keyed(env).window(TumblingEventTimeWindows::of(1000)).allowedLateness(kMaxWatermark).reduce(sumE));
  h.open();
  h.processElement(E{"a", 1}, 100);
  // Only the trigger's timer at 999: the cleanup time saturates to MAX and is not registered.
  EXPECT_EQ(h.numEventTimeTimers(), 1u);
  h.processWatermark(999);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
  h.processElement(E{"a", 2}, 0);  // never late
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a:1 @ 999)", "Watermark(999)", "Record(a:3 @ 999)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 1u);
}

TEST(WindowOperatorTest, ContinuousEventTimeTriggerFiresEarlyAndTimersRegisteredWhileFiringFireInTheSameAdvance) {
  auto env = makeEnv();
  Harness<E> h(keyed(env)
                   .window(TumblingEventTimeWindows::of(10000))
                   .trigger(ContinuousEventTimeTrigger::of(2000))
                   .reduce(sumE));
  h.open();
  h.processElement(E{"a", 1}, 1000);  // timers at 9999 and at 0 + 2000
  h.processWatermark(1999);
  h.processWatermark(2000);
  h.processElement(E{"a", 2}, 3500);
  h.processWatermark(4000);
  // One advance fires 6000, the 8000 registered by it, and 9999 (= min(10000, 9999)).
  h.processWatermark(9999);
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Watermark(1999)", "Record(a:1 @ 9999)", "Watermark(2000)", "Record(a:3 @ 9999)", "Watermark(4000)",
                   "Record(a:3 @ 9999)", "Record(a:3 @ 9999)", "Record(a:3 @ 9999)", "Watermark(9999)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);  // contents and the trigger's fire time
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

// A processing-time trigger on event-time windows fires a window again for
// each element that comes after its processing-time timer fired: the element
// registers a timer that is already due (the operator must not skip it).
TEST(WindowOperatorTest, ProcessingTimeTriggerOnEventTimeWindowsFiresAgainForLaterElements) {
  auto env = makeEnv();
  Harness<E> h(keyed(env)
                   .window(TumblingEventTimeWindows::of(1000))
                   .trigger(ProcessingTimeTrigger::create())
                   .reduce(sumE));
  h.setProcessingTime(100);
  h.open();
  h.processElement(E{"a", 1}, 500);
  h.processElement(E{"a", 2}, 600);
  EXPECT_EQ(h.numProcessingTimeTimers(), 1u);
  h.setProcessingTime(999);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a:3 @ 999)"}));
  h.processElement(E{"a", 4}, 700);  // the window is kept: event time has not passed it
  h.setProcessingTime(1000);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a:3 @ 999)", "Record(a:7 @ 999)"}));
  h.processWatermark(999);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numProcessingTimeTimers(), 0u);
}

// ---- processing-time windows ------------------------------------------------

TEST(WindowOperatorTest, TumblingProcessingTimeWindowsFireOnTheClockAndIgnoreTimestampsAndWatermarks) {
  auto env = makeEnv();
  Harness<E> h(keyed(env).window(TumblingProcessingTimeWindows::of(1000)).reduce(sumE));
  h.setProcessingTime(100);
  h.open();
  h.processElement(E{"a", 1}, 5000);  // the timestamp does not matter
  h.processElement(E{"b", 2});        // nor does having none
  h.setProcessingTime(500);
  h.processElement(E{"a", 4}, -7);
  EXPECT_EQ(h.numProcessingTimeTimers(), 2u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
  h.processWatermark(kMaxWatermark - 1);  // event time does not fire processing-time windows
  h.processElement(E{"a", 8}, 0);         // and never makes them late
  h.setProcessingTime(998);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Watermark(" + std::to_string(kMaxWatermark - 1) + ")"}));
  h.setProcessingTime(999);
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Watermark(" + std::to_string(kMaxWatermark - 1) + ")", "Record(a:13 @ 999)", "Record(b:2 @ 999)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numProcessingTimeTimers(), 0u);

  h.setProcessingTime(1500);
  h.processElement(E{"a", 16}, 0);
  h.setProcessingTime(5000);
  EXPECT_EQ(h.getOutput().records().back().value, (E{"a", 16}));
  EXPECT_EQ(h.getOutput().records().back().timestamp, 1999);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numProcessingTimeTimers(), 0u);
  EXPECT_EQ(lateRecordsDropped(h), 0u);
}

TEST(WindowOperatorTest, AllowedLatenessDoesNotApplyToProcessingTimeWindows) {
  auto env = makeEnv();
  const OutputTag<E> late("late");
  Harness<E> h(keyed(env)
                   .window(TumblingProcessingTimeWindows::of(1000))
                   .allowedLateness(5000)
                   .sideOutputLateData(late)
                   .reduce(sumE));
  h.captureSideOutput(late);
  h.open();
  h.processElement(E{"a", 1}, 0);
  EXPECT_EQ(h.numProcessingTimeTimers(), 1u);  // fire and cleanup both at 999
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
  h.setProcessingTime(999);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a:1 @ 999)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numProcessingTimeTimers(), 0u);
  h.processWatermark(kMaxWatermark - 1);
  h.processElement(E{"a", 2}, 0);  // never late
  EXPECT_TRUE(h.getSideOutput(late).empty());
  EXPECT_EQ(h.numKeyedStateEntries(), 1u);
}

TEST(WindowOperatorTest, SlidingProcessingTimeWindows) {
  auto env = makeEnv();
  Harness<E> h(keyed(env).window(SlidingProcessingTimeWindows::of(1000, 500)).reduce(sumE));
  h.open();
  h.setProcessingTime(700);
  h.processElement(E{"a", 1});  // [500,1500), [0,1000)
  h.setProcessingTime(999);
  h.setProcessingTime(1200);
  h.processElement(E{"a", 2});  // [1000,2000), [500,1500)
  h.setProcessingTime(1499);
  h.setProcessingTime(2500);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a:1 @ 999)", "Record(a:3 @ 1499)", "Record(a:2 @ 1999)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numProcessingTimeTimers(), 0u);
}

TEST(WindowOperatorTest, ProcessingTimeSessionsMergeAndFireAtTheSessionEnd) {
  auto env = makeEnv();
  Harness<std::string> h(keyed(env).window(ProcessingTimeSessionWindows::withGap(1000)).process(sortedValues()));
  h.open();
  h.processElement(E{"a", 1});  // [0,1000)
  h.setProcessingTime(500);
  h.processElement(E{"a", 2});  // [500,1500) -> [0,1500)
  h.setProcessingTime(1400);
  h.processElement(E{"a", 4});  // [1400,2400) -> [0,2400)
  h.processElement(E{"b", 8});  // [1400,2400)
  EXPECT_EQ(h.numProcessingTimeTimers(), 2u);
  h.setProcessingTime(2398);
  EXPECT_TRUE(h.getOutput().empty());
  h.setProcessingTime(2399);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a [0,2400): 1,2,4 @ 2399)", "Record(b [1400,2400): 8 @ 2399)"}));
  h.setProcessingTime(3000);
  h.processElement(E{"a", 16});
  h.setProcessingTime(4000);
  EXPECT_EQ(h.getOutput().lines().back(), "Record(a [3000,4000): 16 @ 3999)");
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numProcessingTimeTimers(), 0u);
}

TEST(WindowOperatorTest, MergingDeletesTheCleanupTimerWhenTheTriggersTimerIsInTheOtherTimeDomain) {
  // An event-time trigger on processing-time sessions: its clear() deletes
  // its event-time timer, and the operator still deletes the merged
  // window's processing-time cleanup timer.
  auto env = makeEnv();
  Harness<std::string> h(keyed(env)
                             .window(ProcessingTimeSessionWindows::withGap(1000))
                             .trigger(EventTimeTrigger::create())
                             .process(sortedValues()));
  h.open();
  h.processElement(E{"a", 1});  // [0,1000)
  h.setProcessingTime(500);
  h.processElement(E{"a", 2});  // [500,1500) -> [0,1500)
  EXPECT_EQ(h.numProcessingTimeTimers(), 1u);  // the cleanup timer at 1499, not the one at 999
  EXPECT_EQ(h.numEventTimeTimers(), 1u);       // the trigger's timer at 1499
  h.processWatermark(1499);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a [0,1500): 1,2 @ 1499)", "Watermark(1499)"}));
  h.setProcessingTime(1499);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numProcessingTimeTimers(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

// ---- GlobalWindows, count triggers ------------------------------------------

TEST(WindowOperatorTest, GlobalWindowsWithCountTriggerFireKeepsContents) {
  auto env = makeEnv();
  Harness<E> h(keyed(env).window(GlobalWindows::create()).trigger(CountTrigger::of(3)).reduce(sumE));
  h.open();
  for (std::int64_t v = 1; v <= 7; ++v) h.processElement(E{"a", v});
  h.processWatermark(kMaxWatermark);  // a GlobalWindow is never cleaned up by time
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Record(a:6 @ " + kMax + ")", "Record(a:21 @ " + kMax + ")", "Watermark(" + kMax + ")"}));
  // The reduced value and the count of the 7th element.
  EXPECT_EQ(h.numKeyedStateEntries(), 2u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
  EXPECT_EQ(h.numProcessingTimeTimers(), 0u);
}

TEST(WindowOperatorTest, GlobalWindowsWithoutTriggerNeverFire) {
  auto env = makeEnv();
  Harness<E> h(keyed(env).window(GlobalWindows::create()).reduce(sumE));
  h.open();
  h.processElement(E{"a", 1}, 5);
  h.processElement(E{"a", 2});
  h.processWatermark(kMaxWatermark);
  h.setProcessingTime(kMaxWatermark);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Watermark(" + kMax + ")"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 1u);
}

TEST(WindowOperatorTest, CountWindowPurgesAndCountWindowWithSlideEvicts) {
  auto env = makeEnv();
  Harness<E> tumbling(keyed(env).countWindow(3).reduce(sumE));
  Harness<E> sliding(keyed(env).countWindow(3, 2).reduce(sumE));
  tumbling.open();
  sliding.open();
  for (std::int64_t v = 1; v <= 7; ++v) {
    tumbling.processElement(E{"a", v}, v);
    sliding.processElement(E{"a", v}, v);
  }
  EXPECT_EQ(tumbling.getOutput().lines(), (Lines{"Record(a:6 @ " + kMax + ")", "Record(a:15 @ " + kMax + ")"}));
  EXPECT_EQ(tumbling.numKeyedStateEntries(), 2u);  // element 7 and its count
  // Fires every 2 elements with the last 3: {1,2}, {2,3,4}, {4,5,6}.
  EXPECT_EQ(sliding.getOutput().lines(),
            (Lines{"Record(a:3 @ " + kMax + ")", "Record(a:9 @ " + kMax + ")", "Record(a:15 @ " + kMax + ")"}));
}

// ---- custom trigger: FIRE / FIRE_AND_PURGE / PURGE ----------------------------

/// Fires as the element says ("FIRE", "FIRE_AND_PURGE", "PURGE", else
/// CONTINUE); counts the elements of each window in partitioned state and
/// fires at the window's end with an event-time timer. Logs its timer
/// callbacks and clear() calls (the log is shared by copies).
class ScriptedTrigger : public Trigger<Cmd, TimeWindow> {
 public:
  explicit ScriptedTrigger(std::shared_ptr<std::vector<std::string>> log) : log_(std::move(log)) {}

  TriggerResult onElement(const Cmd& c, Timestamp, const TimeWindow& w, TriggerContext<TimeWindow>& ctx) override {
    ValueState<std::int64_t>& seen = ctx.getPartitionedState(seen_);
    seen.update(seen.value().value_or(0) + 1);
    ctx.registerEventTimeTimer(w.maxTimestamp());
    if (c.op == "FIRE") return TriggerResult::FIRE;
    if (c.op == "FIRE_AND_PURGE") return TriggerResult::FIRE_AND_PURGE;
    if (c.op == "PURGE") return TriggerResult::PURGE;
    return TriggerResult::CONTINUE;
  }
  TriggerResult onEventTime(Timestamp t, const TimeWindow& w, TriggerContext<TimeWindow>& ctx) override {
    log_->push_back(
        fmt::format("onEventTime({}) {} seen={}", t, window(w), ctx.getPartitionedState(seen_).value().value_or(0)));
    return t == w.maxTimestamp() ? TriggerResult::FIRE : TriggerResult::CONTINUE;
  }
  TriggerResult onProcessingTime(Timestamp, const TimeWindow&, TriggerContext<TimeWindow>&) override {
    return TriggerResult::CONTINUE;
  }
  void clear(const TimeWindow& w, TriggerContext<TimeWindow>& ctx) override {
    log_->push_back(fmt::format("clear {} seen={}", window(w), ctx.getPartitionedState(seen_).value().value_or(0)));
    ctx.getPartitionedState(seen_).clear();
    ctx.deleteEventTimeTimer(w.maxTimestamp());
  }

 private:
  std::shared_ptr<std::vector<std::string>> log_;
  ValueStateDescriptor<std::int64_t> seen_{"seen"};
};

TEST(WindowOperatorTest, CustomTriggerFireKeepsFireAndPurgeEmitsAndDropsPurgeDropsSilently) {
  auto env = makeEnv();
  auto log = std::make_shared<std::vector<std::string>>();
  KeyedOneInputStreamOperatorTestHarness<std::string, Cmd, std::string> h(
      env.fromElements<Cmd>({Cmd{"a", "x"}})
          .keyBy([](const Cmd& c) { return c.key; })
          .window(TumblingEventTimeWindows::of(1000))
          .trigger(ScriptedTrigger(log))
          .process(ListOps{}));
  h.open();
  auto step = [&](const std::string& op, Timestamp ts) { h.processElement(Cmd{"a", op}, ts); };

  step("x", 10);
  EXPECT_EQ(h.numKeyedStateEntries(), 2u);  // contents + the trigger's count
  EXPECT_EQ(h.numEventTimeTimers(), 1u);    // trigger and cleanup timer are the same (a, [0,1000), 999)
  step("FIRE", 20);
  step("y", 30);
  step("FIRE", 40);
  EXPECT_EQ(h.numKeyedStateEntries(), 2u);
  step("FIRE_AND_PURGE", 50);
  EXPECT_EQ(h.numKeyedStateEntries(), 1u);  // contents gone, the trigger's count stays
  step("z", 60);
  EXPECT_EQ(h.numKeyedStateEntries(), 2u);
  step("PURGE", 70);
  EXPECT_EQ(h.numKeyedStateEntries(), 1u);
  step("w", 80);
  step("FIRE", 90);
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Record(a [0,1000): x,FIRE @ 999)", "Record(a [0,1000): x,FIRE,y,FIRE @ 999)",
                   "Record(a [0,1000): x,FIRE,y,FIRE,FIRE_AND_PURGE @ 999)", "Record(a [0,1000): w,FIRE @ 999)"}));
  EXPECT_TRUE(log->empty());  // purging never clears the trigger

  h.processWatermark(999);
  EXPECT_EQ(h.getOutput().lines().at(4), "Record(a [0,1000): w,FIRE @ 999)");
  EXPECT_EQ(h.getOutput().lines().at(5), "Watermark(999)");
  EXPECT_EQ(*log, (Lines{"onEventTime(999) [0,1000) seen=9", "clear [0,1000) seen=9"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

TEST(WindowOperatorTest, CustomTriggerTimersAndStateAreClearedAtCleanupAfterLateness) {
  auto env = makeEnv();
  auto log = std::make_shared<std::vector<std::string>>();
  KeyedOneInputStreamOperatorTestHarness<std::string, Cmd, std::string> h(
      env.fromElements<Cmd>({Cmd{"a", "x"}})
          .keyBy([](const Cmd& c) { return c.key; })
          .window(TumblingEventTimeWindows::of(1000))
          .allowedLateness(500)
          .trigger(ScriptedTrigger(log))
          .process(ListOps{}));
  h.open();
  h.processElement(Cmd{"a", "x"}, 10);
  h.processElement(Cmd{"b", "PURGE"}, 20);
  EXPECT_EQ(h.numEventTimeTimers(), 4u);  // per key: trigger timer 999 and cleanup timer 1499
  h.processWatermark(999);
  EXPECT_EQ(h.numEventTimeTimers(), 2u);
  EXPECT_EQ(h.numKeyedStateEntries(), 3u);  // a: contents + count; b: count (its contents were purged)
  h.processWatermark(1499);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a [0,1000): x @ 999)", "Watermark(999)", "Watermark(1499)"}));
  EXPECT_EQ(*log, (Lines{"onEventTime(999) [0,1000) seen=1", "onEventTime(999) [0,1000) seen=1",
                         "onEventTime(1499) [0,1000) seen=1", "clear [0,1000) seen=1",
                         "onEventTime(1499) [0,1000) seen=1", "clear [0,1000) seen=1"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

// ---- sessions -------------------------------------------------------------------

TEST(WindowOperatorTest, SessionsMergeWhenTouchingButNotAcrossAGap) {
  auto env = makeEnv();
  Harness<std::string> h(keyed(env).window(EventTimeSessionWindows::withGap(3000)).process(sortedValues()));
  h.open();
  h.processElement(E{"a", 1}, 1000);  // [1000,4000)
  h.processElement(E{"a", 2}, 4000);  // [4000,7000): touches, merges into [1000,7000)
  h.processElement(E{"b", 1}, 2500);  // [2500,5500)
  h.processElement(E{"b", 2}, 5501);  // [5501,8501): does not touch
  EXPECT_EQ(h.numEventTimeTimers(), 3u);
  h.processWatermark(kMaxWatermark);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(b [2500,5500): 1 @ 5499)", "Record(a [1000,7000): 1,2 @ 6999)",
                                          "Record(b [5501,8501): 2 @ 8500)", "Watermark(" + kMax + ")"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

TEST(WindowOperatorTest, SessionMergingDeletesTheTimersOfTheMergedWindows) {
  auto env = makeEnv();
  Harness<E> h(keyed(env).window(EventTimeSessionWindows::withGap(1000)).reduce(sumE));
  h.open();
  h.processElement(E{"a", 1}, 0);     // [0,1000)
  h.processElement(E{"a", 2}, 2000);  // [2000,3000)
  EXPECT_EQ(h.numEventTimeTimers(), 2u);
  EXPECT_EQ(h.numKeyedStateEntries(), 3u);  // two contents + the key's merging window set
  h.processElement(E{"a", 4}, 1000);        // [1000,2000) bridges both: [0,3000)
  EXPECT_EQ(h.numEventTimeTimers(), 1u);
  EXPECT_EQ(h.numKeyedStateEntries(), 2u);
  h.processWatermark(999);
  h.processWatermark(2998);
  h.processWatermark(2999);
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Watermark(999)", "Watermark(2998)", "Record(a:7 @ 2999)", "Watermark(2999)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

TEST(WindowOperatorTest, LateElementWithinLatenessBridgingTwoFiredSessionsMergesThem) {
  auto env = makeEnv();
  const OutputTag<E> late("late");
  Harness<E> h(keyed(env)
                   .window(EventTimeSessionWindows::withGap(1000))
                   .allowedLateness(5000)
                   .sideOutputLateData(late)
                   .reduce(sumE));
  h.captureSideOutput(late);
  h.open();
  h.processElement(E{"a", 1}, 0);     // [0,1000)
  h.processElement(E{"a", 2}, 2000);  // [2000,3000)
  h.processWatermark(3500);           // both fire; they live until 5999 and 7999
  EXPECT_EQ(h.numEventTimeTimers(), 2u);
  EXPECT_EQ(h.numKeyedStateEntries(), 3u);

  h.processElement(E{"a", 4}, 1000);  // [1000,2000): merges everything into [0,3000) and fires it at once
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Record(a:1 @ 999)", "Record(a:2 @ 2999)", "Watermark(3500)", "Record(a:7 @ 2999)"}));
  EXPECT_EQ(h.numEventTimeTimers(), 1u);  // only the merged window's cleanup timer (7999)
  EXPECT_EQ(h.numKeyedStateEntries(), 2u);

  h.processWatermark(6000);  // the merged-away [0,1000)'s cleanup time has passed: nothing happens
  EXPECT_EQ(h.getOutput().lines().size(), 5u);
  EXPECT_EQ(h.numKeyedStateEntries(), 2u);
  h.processElement(E{"a", 8}, 1500);  // [1500,2500) lies inside the merged window, within its lateness
  EXPECT_EQ(h.getOutput().lines().back(), "Record(a:15 @ 2999)");
  h.processWatermark(7999);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
  h.processElement(E{"a", 32}, 1500);  // [1500,2500) is late (2499 + 5000 <= 7999): side output
  EXPECT_EQ(recordLines(h.getSideOutput(late)), (Lines{"a:32 @ 1500"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  // A new session [2999,3999) is not late (3998 + 5000 > 7999) but already
  // due: it fires at once.
  h.processElement(E{"a", 16}, 2999);
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Record(a:1 @ 999)", "Record(a:2 @ 2999)", "Watermark(3500)", "Record(a:7 @ 2999)",
                   "Watermark(6000)", "Record(a:15 @ 2999)", "Watermark(7999)", "Record(a:16 @ 3998)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 2u);  // the new session and the merging set
}

TEST(WindowOperatorTest, DynamicGapSessions) {
  auto env = makeEnv();
  Harness<std::string> h(keyed(env)
                             .window(EventTimeSessionWindows::withDynamicGap([](const E& e) { return e.v * 100; }))
                             .process(sortedValues()));
  h.open();
  h.processElement(E{"a", 10}, 0);    // [0,1000)
  h.processElement(E{"a", 1}, 1500);  // [1500,1600)
  h.processElement(E{"a", 5}, 1100);  // [1100,1600): merges with [1500,1600), not with [0,1000)
  h.processElement(E{"a", 2}, 1650);  // [1650,1850)
  h.processElement(E{"b", 30}, 0);    // [0,3000)
  h.processElement(E{"b", 1}, 2950);  // [2950,3050): the session ends at the largest end
  h.processWatermark(kMaxWatermark);
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Record(a [0,1000): 10 @ 999)", "Record(a [1100,1600): 1,5 @ 1599)",
                   "Record(a [1650,1850): 2 @ 1849)", "Record(b [0,3050): 1,30 @ 3049)", "Watermark(" + kMax + ")"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
}

TEST(WindowOperatorTest, DynamicGapMustBePositive) {
  auto env = makeEnv();
  Harness<E> h(keyed(env).window(EventTimeSessionWindows::withDynamicGap([](const E& e) { return e.v; })).reduce(sumE));
  h.open();
  try {
    h.processElement(E{"a", 0}, 10);
    ADD_FAILURE() << "a gap of 0 was accepted";
  } catch (const internal::OperatorFailure& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("Window(Reduce)"));
    EXPECT_THAT(failure.what(), HasSubstr("gap"));
  }
}

TEST(WindowOperatorTest, CountTriggerCountsAreMergedWithSessions) {
  auto env = makeEnv();
  Harness<std::string> h(
      keyed(env).window(EventTimeSessionWindows::withGap(1000)).trigger(CountTrigger::of(3)).process(sortedValues()));
  h.open();
  h.processElement(E{"a", 1}, 0);           // [0,1000): count 1
  h.processElement(E{"a", 2}, 1500);        // [1500,2500): count 1
  EXPECT_EQ(h.numKeyedStateEntries(), 5u);  // 2 contents, 2 counts, merging set
  h.processElement(E{"a", 4}, 1000);        // merges into [0,2500): 1 + 1, + 1 for this element = 3: fires
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a [0,2500): 1,2,4 @ 2499)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 2u);  // contents + merging set; the count was reset
  h.processElement(E{"a", 8}, 2000);
  h.processElement(E{"a", 16}, 2900);  // [2900,3900) merges into [0,3900): count 2
  h.processWatermark(kMaxWatermark);   // a count trigger ignores time; the window is cleaned up
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a [0,2500): 1,2,4 @ 2499)", "Watermark(" + kMax + ")"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

TEST(WindowOperatorTest, CountTriggerCountSurvivesAnElementInsideAnExistingSession) {
  auto env = makeEnv();
  Harness<std::string> h(
      keyed(env).window(EventTimeSessionWindows::withGap(1000)).trigger(CountTrigger::of(2)).process(sortedValues()));
  h.open();
  // Two elements with the same timestamp: the second window equals the session.
  h.processElement(E{"a", 1}, 0);
  h.processElement(E{"a", 2}, 0);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a [0,1000): 1,2 @ 999)"}));
  // An element whose window lies inside the session [0,1500).
  h.processElement(E{"b", 1}, 0);
  h.processElement(E{"b", 2}, 500);  // [0,1500): 2 elements, fires
  h.processElement(E{"b", 4}, 200);  // [200,1200) lies inside [0,1500): count 1
  h.processElement(E{"b", 8}, 300);  // count 2: fires
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a [0,1000): 1,2 @ 999)", "Record(b [0,1500): 1,2 @ 1499)",
                                          "Record(b [0,1500): 1,2,4,8 @ 1499)"}));
}

// ---- evictors -------------------------------------------------------------------

TEST(WindowOperatorTest, CountEvictorBeforeAndAfterWithReduce) {
  auto env = makeEnv();
  Harness<E> before(keyed(env)
                        .window(GlobalWindows::create())
                        .trigger(CountTrigger::of(3))
                        .evictor(CountEvictor::of(2))
                        .reduce(sumE));
  Harness<E> after(keyed(env)
                       .window(GlobalWindows::create())
                       .trigger(CountTrigger::of(3))
                       .evictor(CountEvictor::of(2, true))
                       .reduce(sumE));
  before.open();
  after.open();
  for (std::int64_t v = 1; v <= 6; ++v) {
    before.processElement(E{"a", v}, v);
    after.processElement(E{"a", v}, v);
  }
  // before: {2,3} -> 5; {2,3,4,5,6} -> {5,6} -> 11.  after: {1,2,3} -> 6 (keeps {2,3}); {2,..,6} -> 20.
  EXPECT_EQ(before.extractOutputValues(), (std::vector<E>{{"a", 5}, {"a", 11}}));
  EXPECT_EQ(after.extractOutputValues(), (std::vector<E>{{"a", 6}, {"a", 20}}));
}

TEST(WindowOperatorTest, CountEvictorWithProcessSeesTheRemainingElements) {
  auto env = makeEnv();
  Harness<std::string> before(keyed(env)
                                  .window(GlobalWindows::create())
                                  .trigger(CountTrigger::of(3))
                                  .evictor(CountEvictor::of(2))
                                  .process(ListGlobalValues{}));
  Harness<std::string> after(keyed(env)
                                 .window(GlobalWindows::create())
                                 .trigger(CountTrigger::of(3))
                                 .evictor(CountEvictor::of(2, true))
                                 .process(ListGlobalValues{}));
  before.open();
  after.open();
  for (std::int64_t v = 1; v <= 6; ++v) {
    before.processElement(E{"a", v}, v);
    after.processElement(E{"a", v}, v);
  }
  EXPECT_EQ(before.getOutput().lines(), (Lines{"Record(a: 2,3 @ " + kMax + ")", "Record(a: 5,6 @ " + kMax + ")"}));
  EXPECT_EQ(after.getOutput().lines(),
            (Lines{"Record(a: 1,2,3 @ " + kMax + ")", "Record(a: 2,3,4,5,6 @ " + kMax + ")"}));
}

TEST(WindowOperatorTest, TimeEvictorBeforeAndAfterAcrossALateFiring) {
  auto env = makeEnv();
  auto build = [&](bool evict_after) {
    return keyed(env)
        .window(TumblingEventTimeWindows::of(10000))
        .allowedLateness(10000)
        .evictor(TimeEvictor::of(1000, evict_after))
        .process(ListValues{});
  };
  Harness<std::string> before(build(false));
  Harness<std::string> after(build(true));
  for (auto* h : {&before, &after}) {
    h->open();
    h->processElement(E{"a", 1}, 0);
    h->processElement(E{"a", 2}, 500);
    h->processElement(E{"a", 4}, 1500);
    h->processElement(E{"a", 8}, 2000);
    h->processElement(E{"a", 16}, 2600);  // newest: keeps timestamps > 1600
    h->processWatermark(9999);
    h->processElement(E{"a", 32}, 100);   // late firing: evicted again (100 <= 1600)
    h->processElement(E{"a", 64}, 3000);  // newest now: keeps timestamps > 2000
  }
  EXPECT_EQ(before.getOutput().lines(),
            (Lines{"Record(a [0,10000): 8,16 @ 9999)", "Watermark(9999)", "Record(a [0,10000): 8,16 @ 9999)",
                   "Record(a [0,10000): 16,64 @ 9999)"}));
  EXPECT_EQ(after.getOutput().lines(),
            (Lines{"Record(a [0,10000): 1,2,4,8,16 @ 9999)", "Watermark(9999)", "Record(a [0,10000): 8,16,32 @ 9999)",
                   "Record(a [0,10000): 8,16,64 @ 9999)"}));
}

TEST(WindowOperatorTest, TimeEvictorWithReduce) {
  auto env = makeEnv();
  Harness<E> h(keyed(env).window(TumblingEventTimeWindows::of(10000)).evictor(TimeEvictor::of(1000)).reduce(sumE));
  h.open();
  h.processElement(E{"a", 1}, 0);
  h.processElement(E{"a", 2}, 1500);
  h.processElement(E{"a", 4}, 2000);
  h.processElement(E{"b", 8}, 7000);
  h.processWatermark(9999);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a:6 @ 9999)", "Record(b:8 @ 9999)", "Watermark(9999)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
}

TEST(WindowOperatorTest, DeltaEvictorBeforeAndAfter) {
  auto env = makeEnv();
  auto delta = [](const E& a, const E& b) { return static_cast<double>(a.v > b.v ? a.v - b.v : b.v - a.v); };
  Harness<E> before(keyed(env)
                        .window(GlobalWindows::create())
                        .trigger(CountTrigger::of(4))
                        .evictor(DeltaEvictor::of(5.0, delta))
                        .reduce(sumE));
  Harness<std::string> after(keyed(env)
                                 .window(GlobalWindows::create())
                                 .trigger(CountTrigger::of(4))
                                 .evictor(DeltaEvictor::of(5.0, delta, true))
                                 .process(ListGlobalValues{}));
  before.open();
  after.open();
  for (std::int64_t v : {1, 10, 8, 12, 20, 11, 13, 30}) {
    before.processElement(E{"a", v}, 0);
    after.processElement(E{"a", v}, 0);
  }
  // 1st firing: last 12, deltas 11,2,4,0 -> keep 10,8,12. 2nd: last 30 -> keep 30 (and 20? |20-30| = 10: no).
  EXPECT_EQ(before.extractOutputValues(), (std::vector<E>{{"a", 30}, {"a", 30}}));
  EXPECT_EQ(after.getOutput().lines(),
            (Lines{"Record(a: 1,10,8,12 @ " + kMax + ")", "Record(a: 10,8,12,20,11,13,30 @ " + kMax + ")"}));
}

// ---- ProcessWindowFunction context ------------------------------------------

const OutputTag<std::string> kMeta("meta");

/// Reports what the context shows; counts firings per window in windowState()
/// and clears it in clear(); side-outputs the window.
class DescribeWindow : public ProcessWindowFunction<E, std::string, std::string, TimeWindow> {
 public:
  void process(const std::string& key, Context& ctx, std::span<const E> elements,
               Collector<std::string>& out) override {
    ValueState<std::int64_t>& fires = ctx.windowState().getState(fires_);
    fires.update(fires.value().value_or(0) + 1);
    out.collect(fmt::format("{} {} sum={} wm={} now={} fires={}", key, window(ctx.window()), elements.front().v,
                            ctx.currentWatermark(), ctx.currentProcessingTime(), *fires.value()));
    ctx.output(kMeta, fmt::format("meta {} {}", key, window(ctx.window())));
  }
  void clear(Context& ctx) override { ctx.windowState().getState(fires_).clear(); }

 private:
  ValueStateDescriptor<std::int64_t> fires_{"fires"};
};

TEST(WindowOperatorTest, ProcessWindowFunctionContextAndPerWindowStateClearedAtCleanup) {
  auto env = makeEnv();
  Harness<std::string> h(
      keyed(env).window(TumblingEventTimeWindows::of(1000)).allowedLateness(1000).reduce(sumE, DescribeWindow{}));
  h.captureSideOutput(kMeta);
  h.setProcessingTime(42);
  h.open();
  h.processElement(E{"a", 1}, 100);
  h.processElement(E{"a", 2}, 1500);
  h.processWatermark(1200);  // [0,1000) fires; the function sees the watermark being processed
  h.setProcessingTime(77);
  h.processElement(E{"a", 4}, 200);         // late firing: fires=2
  EXPECT_EQ(h.numKeyedStateEntries(), 3u);  // contents of both windows + fires of [0,1000)
  h.processWatermark(1999);                 // [0,1000) cleaned up (registered first), then [1000,2000) fires
  EXPECT_EQ(h.numKeyedStateEntries(), 2u);  // [1000,2000): contents + fires
  h.processWatermark(2999);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Record(a [0,1000) sum=1 wm=1200 now=42 fires=1 @ 999)", "Watermark(1200)",
                   "Record(a [0,1000) sum=5 wm=1200 now=77 fires=2 @ 999)",
                   "Record(a [1000,2000) sum=2 wm=1999 now=77 fires=1 @ 1999)", "Watermark(1999)", "Watermark(2999)"}));
  EXPECT_EQ(recordLines(h.getSideOutput(kMeta)),
            (Lines{"meta a [0,1000) @ 999", "meta a [0,1000) @ 999", "meta a [1000,2000) @ 1999"}));
}

/// As DescribeWindow without clear(): per-window state outlives the window.
class LeakyWindowState : public ProcessWindowFunction<E, std::string, std::string, TimeWindow> {
 public:
  void process(const std::string& key, Context& ctx, std::span<const E>, Collector<std::string>& out) override {
    ctx.windowState().getState(ValueStateDescriptor<std::int64_t>("fires")).update(1);
    out.collect(key);
  }
};

TEST(WindowOperatorTest, PerWindowStateIsOnlyRemovedByTheFunctionsClear) {
  auto env = makeEnv();
  Harness<std::string> h(keyed(env).window(TumblingEventTimeWindows::of(1000)).reduce(sumE, LeakyWindowState{}));
  h.open();
  h.processElement(E{"a", 1}, 100);
  h.processWatermark(999);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a @ 999)", "Watermark(999)"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 1u);  // the contents are gone; "fires" of [0,1000) remains
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
}

/// Counts firings per key across windows in globalState().
class CountFiringsPerKey : public ProcessWindowFunction<E, std::string, std::string, TimeWindow> {
 public:
  void process(const std::string& key, Context& ctx, std::span<const E> elements,
               Collector<std::string>& out) override {
    ValueState<std::int64_t>& total = ctx.globalState().getState(total_);
    total.update(total.value().value_or(0) + 1);
    out.collect(fmt::format("{} {} n={} firings={}", key, window(ctx.window()), elements.size(), *total.value()));
  }

 private:
  ValueStateDescriptor<std::int64_t> total_{"total"};
};

TEST(WindowOperatorTest, GlobalStateIsPerKeyAcrossWindows) {
  auto env = makeEnv();
  Harness<std::string> h(keyed(env).window(SlidingEventTimeWindows::of(2000, 1000)).process(CountFiringsPerKey{}));
  h.open();
  h.processElement(E{"a", 1}, 500);   // [0,2000), [-1000,1000)
  h.processElement(E{"b", 1}, 1500);  // [1000,3000), [0,2000)
  h.processElement(E{"a", 1}, 1200);  // [1000,3000), [0,2000)
  h.processWatermark(kMaxWatermark);
  EXPECT_EQ(h.getOutput().lines(),
            (Lines{"Record(a [-1000,1000) n=1 firings=1 @ 999)", "Record(a [0,2000) n=2 firings=2 @ 1999)",
                   "Record(b [0,2000) n=1 firings=1 @ 1999)", "Record(b [1000,3000) n=1 firings=2 @ 2999)",
                   "Record(a [1000,3000) n=1 firings=3 @ 2999)", "Watermark(" + kMax + ")"}));
  EXPECT_EQ(h.numKeyedStateEntries(), 2u);  // the global counts of a and b
}

TEST(WindowOperatorTest, GlobalWindowOutputsAndSideOutputsAreStampedMax) {
  class Tag : public ProcessWindowFunction<E, std::string, std::string, GlobalWindow> {
   public:
    void process(const std::string& key, Context& ctx, std::span<const E> elements,
                 Collector<std::string>& out) override {
      out.collect(fmt::format("{} n={}", key, elements.size()));
      ctx.output(kMeta, key);
    }
  };
  auto env = makeEnv();
  Harness<std::string> h(keyed(env).window(GlobalWindows::create()).trigger(CountTrigger::of(2)).process(Tag{}));
  h.captureSideOutput(kMeta);
  h.open();
  h.processElement(E{"a", 1}, 5);
  h.processElement(E{"a", 2}, 6);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a n=2 @ " + kMax + ")"}));
  EXPECT_EQ(recordLines(h.getSideOutput(kMeta)), (Lines{"a @ " + kMax}));
}

/// Counts firings per window in windowState() and clears it in clear().
class FiringsPerSession : public ProcessWindowFunction<E, std::string, std::string, TimeWindow> {
 public:
  void process(const std::string& key, Context& ctx, std::span<const E>, Collector<std::string>& out) override {
    ValueState<std::int64_t>& fires = ctx.windowState().getState(fires_);
    fires.update(fires.value().value_or(0) + 1);
    out.collect(fmt::format("{} {} fires={}", key, window(ctx.window()), *fires.value()));
  }
  void clear(Context& ctx) override { ctx.windowState().getState(fires_).clear(); }

 private:
  ValueStateDescriptor<std::int64_t> fires_{"fires"};
};

TEST(WindowOperatorTest, PerWindowStateIsRefusedWithMergingWindows) {
  auto env = makeEnv();
  Harness<std::string> h(
      keyed(env).window(EventTimeSessionWindows::withGap(1000)).allowedLateness(5000).process(FiringsPerSession{}));
  h.open();
  h.processElement(E{"a", 1}, 0);
  h.processElement(E{"a", 2}, 2000);
  try {
    h.processWatermark(3500);  // both sessions fire and ask for per-window state
    ADD_FAILURE() << "per-window state was allowed with merging windows";
  } catch (const internal::OperatorFailure& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("Per-window state is not allowed when using merging windows"));
  }
}

// ---- aggregate / apply ------------------------------------------------------------

class Average : public AggregateFunction<E, std::pair<std::int64_t, std::int64_t>, double> {
 public:
  std::pair<std::int64_t, std::int64_t> createAccumulator() override { return {0, 0}; }
  std::pair<std::int64_t, std::int64_t> add(const E& e, std::pair<std::int64_t, std::int64_t> acc) override {
    return {acc.first + e.v, acc.second + 1};
  }
  double getResult(const std::pair<std::int64_t, std::int64_t>& acc) override {
    return static_cast<double>(acc.first) / static_cast<double>(acc.second);
  }
  std::pair<std::int64_t, std::int64_t> merge(std::pair<std::int64_t, std::int64_t> a,
                                              std::pair<std::int64_t, std::int64_t> b) override {
    return {a.first + b.first, a.second + b.second};
  }
};

TEST(WindowOperatorTest, AggregateSessionsMergeAccumulators) {
  auto env = makeEnv();
  Harness<double> h(keyed(env).window(EventTimeSessionWindows::withGap(1000)).aggregate(Average{}));
  h.open();
  h.processElement(E{"a", 1}, 0);
  h.processElement(E{"a", 2}, 2000);
  h.processElement(E{"a", 6}, 1000);  // bridges: (1 + 2 + 6) / 3
  h.processElement(E{"b", 5}, 0);
  h.processWatermark(kMaxWatermark);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(5 @ 999)", "Record(3 @ 2999)", "Watermark(" + kMax + ")"}));
}

TEST(WindowOperatorTest, ApplyWindowFunctionGetsKeyWindowAndElements) {
  auto env = makeEnv();
  Harness<std::string> h(keyed(env)
                             .window(TumblingEventTimeWindows::of(1000))
                             .apply<std::string>([](const std::string& key, const TimeWindow& w,
                                                    std::span<const E> elements, Collector<std::string>& out) {
                               out.collect(fmt::format("{} {} n={}", key, window(w), elements.size()));
                             }));
  h.open();
  h.processElement(E{"a", 1}, 100);
  h.processElement(E{"a", 1}, 200);
  h.processWatermark(999);
  EXPECT_EQ(h.getOutput().lines(), (Lines{"Record(a [0,1000) n=2 @ 999)", "Watermark(999)"}));
}

// ---- failures -----------------------------------------------------------------------

TEST(WindowOperatorTest, ElementWithoutTimestampFailsEventTimeWindowsNamingTheOperator) {
  auto env = makeEnv();
  Harness<E> tumbling(keyed(env).window(TumblingEventTimeWindows::of(1000)).reduce(sumE));
  Harness<E> sliding(keyed(env).window(SlidingEventTimeWindows::of(1000, 500)).reduce(sumE));
  Harness<E> sessions(keyed(env).window(EventTimeSessionWindows::withGap(1000)).reduce(sumE));
  for (auto* h : {&tumbling, &sliding, &sessions}) {
    h->open();
    try {
      h->processElement(E{"a", 1});
      ADD_FAILURE() << "an element without timestamp was accepted";
    } catch (const internal::OperatorFailure& failure) {
      EXPECT_THAT(failure.what(), HasSubstr("operator 'Window(Reduce)'"));
      EXPECT_THAT(failure.what(), HasSubstr("a:1"));
      EXPECT_THAT(failure.what(), HasSubstr("no timestamp"));
    }
  }
}

}  // namespace
}  // namespace tidemark
