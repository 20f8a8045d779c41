// Time in the CEP operator (docs/semantics.md 6.2, 6.3, 7.5, 7.14): within()
// windows, timed-out partial matches (through a TimedOutPartialMatchHandler
// and through select / flatSelect with a timeout tag) with their
// timestamps, timeouts found by the watermark alone, timeouts in processing
// time, event-time ordering of out-of-order and same-timestamp input (with
// and without a comparator), and late data (side output or counted).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "cep/cep_test_support.h"
#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using cep_test::named::Ev;
using cep_test::named::feed;
using cep_test::named::Harness;
using cep_test::named::is;
using cep_test::named::keyOf;
using cep_test::named::kTimedOut;
using cep_test::named::render;
using cep_test::named::sideLines;

/// Matches to the main output; timed-out partial matches to kTimedOut as
/// "match (ctx ts)", the record carrying the same timestamp in event time.
class MatchesAndTimeouts final : public PatternProcessFunction<Ev, std::string>,
                                 public TimedOutPartialMatchHandler<Ev> {
 public:
  void processMatch(const Match<Ev>& match, PatternProcessFunction::Context&, Collector<std::string>& out) override {
    out.collect(render(match));
  }
  void processTimedOutMatch(const Match<Ev>& match, TimedOutPartialMatchHandler::Context& ctx) override {
    ctx.output(kTimedOut, fmt::format("{} ({})", render(match), ctx.timestamp()));
  }
};

StreamExecutionEnvironment newEnv() { return StreamExecutionEnvironment::getExecutionEnvironment(); }

/// The CEP operator of `pattern` with MatchesAndTimeouts, opened, capturing kTimedOut.
std::unique_ptr<Harness> harnessFor(const Pattern<Ev>& pattern) {
  return cep_test::named::harnessFor(pattern, MatchesAndTimeouts{});
}

// ---- within ----

Pattern<Ev> startMiddleEnd(bool any) {
  auto start = Pattern<Ev>::begin("start").where(is('s'));
  auto middle = any ? start.followedByAny("middle") : start.followedBy("middle");
  middle.where(is('m'));
  auto end = any ? middle.followedByAny("end") : middle.followedBy("end");
  return end.where(is('e')).within(10);
}

TEST(CepTime, WithinDropsPartialMatchesOlderThanTheWindow) {
  auto harness = harnessFor(startMiddleEnd(false));
  feed(*harness, {{"s1", 1}, {"s2", 2}, {"m", 3}, {"f", 4}, {"e1", 11}, {"e2", 13}});
  harness->processWatermark(100);
  // s1's window is [1, 11): e1 at 11 is too late for it, in time for s2.
  EXPECT_THAT(harness->getOutput().lines(),
              ElementsAre("Record(start=[s2] middle=[m] end=[e1] @ 11)", "Watermark(100)"));
  // followedBy keeps no branch that skips m or e1, so only s1's partial match is left to time out.
  EXPECT_THAT(sideLines(*harness, kTimedOut), ElementsAre("start=[s1] middle=[m] (11) @ 11"));
}

TEST(CepTime, TimedOutPartialMatchesCarryFirstEventPlusWindow) {
  auto harness = harnessFor(startMiddleEnd(true));
  feed(*harness, {{"s1", 1}, {"s2", 2}, {"m", 3}, {"f", 4}, {"e1", 11}, {"e2", 13}});
  harness->processWatermark(100);
  EXPECT_THAT(harness->extractOutputValues(), ElementsAre("start=[s2] middle=[m] end=[e1]"));
  EXPECT_THAT(sideLines(*harness, kTimedOut), ElementsAre("start=[s1] middle=[m] (11) @ 11", "start=[s1] (11) @ 11",
                                                          "start=[s2] middle=[m] (12) @ 12", "start=[s2] (12) @ 12"));
}

Pattern<Ev> aThenBWithin10() {
  return Pattern<Ev>::begin("a").where(is('a')).followedBy("b").where(is('b')).within(10);
}

// The window is [first, first + window): an event at exactly first + window
// cannot complete the match.
TEST(CepTime, AnEventAtExactlyFirstPlusWindowIsTooLate) {
  auto harness = harnessFor(aThenBWithin10());
  feed(*harness, {{"a1", 1}, {"b1", 11}});
  harness->processWatermark(100);
  EXPECT_THAT(harness->extractOutputValues(), IsEmpty());
  EXPECT_THAT(sideLines(*harness, kTimedOut), ElementsAre("a=[a1] (11) @ 11"));
}

TEST(CepTime, AnEventJustInsideTheWindowCompletesTheMatch) {
  auto harness = harnessFor(aThenBWithin10());
  feed(*harness, {{"a1", 1}, {"b1", 10}});
  harness->processWatermark(100);
  EXPECT_THAT(harness->getOutput().lines(), ElementsAre("Record(a=[a1] b=[b1] @ 10)", "Watermark(100)"));
  EXPECT_THAT(sideLines(*harness, kTimedOut), IsEmpty());
}

// No further event for the key: the watermark alone times the match out, at
// first + window, before the watermark is forwarded.
TEST(CepTime, TheWatermarkAloneTimesOutAPartialMatch) {
  auto harness = harnessFor(aThenBWithin10());
  harness->processElement(Ev{"a1", 1}, 1);
  harness->processWatermark(5);
  harness->processWatermark(10);
  EXPECT_THAT(sideLines(*harness, kTimedOut), IsEmpty());
  harness->processWatermark(11);
  EXPECT_THAT(sideLines(*harness, kTimedOut), ElementsAre("a=[a1] (11) @ 11"));
  harness->processWatermark(30);
  EXPECT_THAT(harness->getOutput().lines(),
              ElementsAre("Watermark(5)", "Watermark(10)", "Watermark(11)", "Watermark(30)"));
  EXPECT_THAT(sideLines(*harness, kTimedOut), ElementsAre("a=[a1] (11) @ 11"));
}

TEST(CepTime, AWatermarkFarBeyondTheWindowStillReportsFirstPlusWindow) {
  auto harness = harnessFor(aThenBWithin10());
  feed(*harness, {{"a1", 1}, {"a2", 7}});
  harness->processWatermark(1000);
  EXPECT_THAT(sideLines(*harness, kTimedOut), ElementsAre("a=[a1] (11) @ 11", "a=[a2] (17) @ 17"));
}

TEST(CepTime, ATimedOutLoopKeepsTheEventsItTook) {
  auto pattern = Pattern<Ev>::begin("a").where(is('a')).followedBy("b").where(is('b')).oneOrMore().within(10);
  auto harness = harnessFor(pattern);
  feed(*harness, {{"a1", 1}, {"b1", 2}, {"x", 3}, {"b2", 4}});
  harness->processWatermark(30);
  EXPECT_THAT(harness->getOutput().lines(),
              ElementsAre("Record(a=[a1] b=[b1] @ 2)", "Record(a=[a1] b=[b1 b2] @ 4)", "Watermark(30)"));
  EXPECT_THAT(sideLines(*harness, kTimedOut), ElementsAre("a=[a1] b=[b1 b2] (11) @ 11"));
}

// within() on several patterns of a sequence: the smallest window applies to the whole match.
TEST(CepTime, TheSmallestWindowOfTheSequenceApplies) {
  auto pattern = Pattern<Ev>::begin("a")
                     .where(is('a'))
                     .followedBy("b")
                     .where(is('b'))
                     .within(10)
                     .followedBy("c")
                     .where(is('c'))
                     .within(5);
  auto harness = harnessFor(pattern);
  feed(*harness, {{"a1", 1}, {"b1", 3}, {"c1", 6}, {"a2", 10}, {"b2", 11}, {"c2", 14}});
  harness->processWatermark(30);
  EXPECT_THAT(harness->getOutput().lines(), ElementsAre("Record(a=[a2] b=[b2] c=[c2] @ 14)", "Watermark(30)"));
  EXPECT_THAT(sideLines(*harness, kTimedOut), ElementsAre("a=[a1] b=[b1] (6) @ 6"));
}

// ---- select / flatSelect with a timeout tag ----

TEST(CepTime, SelectWithATimeoutTag) {
  auto env = newEnv();
  const OutputTag<std::string> timeouts("timeouts");
  auto matches =
      CEP::pattern(env.fromElements<Ev>({}).keyBy(keyOf), aThenBWithin10())
          .select(
              timeouts, [](const Match<Ev>& m, Timestamp ts) { return fmt::format("timeout {} at {}", render(m), ts); },
              [](const Match<Ev>& m) { return "match " + render(m); });
  Harness harness(matches);
  harness.captureSideOutput(timeouts);
  harness.open();
  feed(harness, {{"a1", 1}, {"a2", 5}, {"b1", 12}});
  harness.processWatermark(100);
  EXPECT_THAT(harness.getOutput().lines(), ElementsAre("Record(match a=[a2] b=[b1] @ 12)", "Watermark(100)"));
  EXPECT_THAT(sideLines(harness, timeouts), ElementsAre("timeout a=[a1] at 11 @ 11"));
}

TEST(CepTime, FlatSelectWithATimeoutTag) {
  auto env = newEnv();
  const OutputTag<std::string> timeouts("timeouts");
  auto matches = CEP::pattern(env.fromElements<Ev>({}).keyBy(keyOf), aThenBWithin10())
                     .flatSelect<std::string>(
                         timeouts,
                         [](const Match<Ev>& m, Timestamp ts, Collector<std::string>& out) {
                           out.collect(fmt::format("timeout {}", render(m)));
                           out.collect(fmt::format("at {}", ts));
                         },
                         [](const Match<Ev>& m, Collector<std::string>& out) {
                           for (const Ev& e : m.get("a")) out.collect("a " + e.name);
                           for (const Ev& e : m.get("b")) out.collect("b " + e.name);
                         });
  Harness harness(matches);
  harness.captureSideOutput(timeouts);
  harness.open();
  feed(harness, {{"a1", 1}, {"b1", 3}, {"a2", 20}});
  harness.processWatermark(100);
  EXPECT_THAT(harness.getOutput().lines(), ElementsAre("Record(a a1 @ 3)", "Record(b b1 @ 3)", "Watermark(100)"));
  EXPECT_THAT(sideLines(harness, timeouts), ElementsAre("timeout a=[a2] @ 30", "at 30 @ 30"));
}

// ---- processing time ----

std::unique_ptr<Harness> processingTimeHarness(const OutputTag<std::string>& timeouts) {
  auto env = newEnv();
  auto matches =
      CEP::pattern(env.fromElements<Ev>({}).keyBy(keyOf), aThenBWithin10())
          .inProcessingTime()
          .select(
              timeouts, [](const Match<Ev>& m, Timestamp ts) { return fmt::format("timeout {} at {}", render(m), ts); },
              [](const Match<Ev>& m) { return "match " + render(m); });
  auto harness = std::make_unique<Harness>(matches);
  harness->captureSideOutput(timeouts);
  harness->setProcessingTime(100);
  harness->open();
  return harness;
}

// A processing-time timer at first + window + 1 finds the timeout when no
// other element arrives; it is reported at first + window.
TEST(CepTime, ProcessingTimeTimeoutByTimer) {
  const OutputTag<std::string> timeouts("timeouts");
  auto harness = processingTimeHarness(timeouts);
  harness->processElement(Ev{"a1"});
  EXPECT_EQ(harness->numProcessingTimeTimers(), 1u);
  harness->setProcessingTime(110);
  EXPECT_THAT(sideLines(*harness, timeouts), IsEmpty());
  harness->setProcessingTime(111);
  EXPECT_THAT(sideLines(*harness, timeouts), ElementsAre("timeout a=[a1] at 110, no timestamp"));
  EXPECT_EQ(harness->numKeyedStateEntries(), 0u);
}

// The next element of the key also advances the time first: at first +
// window it times the partial match out and cannot complete it.
TEST(CepTime, ProcessingTimeTimeoutOnTheNextElement) {
  const OutputTag<std::string> timeouts("timeouts");
  auto harness = processingTimeHarness(timeouts);
  harness->processElement(Ev{"a1"});
  harness->setProcessingTime(110);
  harness->processElement(Ev{"b1"});
  EXPECT_THAT(sideLines(*harness, timeouts), ElementsAre("timeout a=[a1] at 110, no timestamp"));
  EXPECT_THAT(harness->extractOutputValues(), IsEmpty());
}

TEST(CepTime, ProcessingTimeMatchesInArrivalOrderWithoutTimestamps) {
  const OutputTag<std::string> timeouts("timeouts");
  auto harness = processingTimeHarness(timeouts);
  harness->processElement(Ev{"a1", 500});
  harness->setProcessingTime(109);
  harness->processElement(Ev{"b1", 1});
  harness->setProcessingTime(200);
  EXPECT_THAT(harness->getOutput().lines(), ElementsAre("Record(match a=[a1] b=[b1], no timestamp)"));
  EXPECT_THAT(sideLines(*harness, timeouts), IsEmpty());
}

// With a comparator, processing-time elements wait for the next millisecond
// and are then fed in comparator order.
TEST(CepTime, ProcessingTimeWithAComparatorSortsTheElementsOfOneMillisecond) {
  auto env = newEnv();
  auto by_name = [](const Ev& x, const Ev& y) {
    return x.name < y.name ? -1 : (x.name == y.name ? 0 : 1);
  };
  Harness harness(CEP::pattern(env.fromElements<Ev>({}).keyBy(keyOf), aThenBWithin10(), by_name)
                      .inProcessingTime()
                      .process(MatchesAndTimeouts{}));
  harness.setProcessingTime(100);
  harness.open();
  harness.processElement(Ev{"b1"});
  harness.processElement(Ev{"a1"});
  EXPECT_THAT(harness.extractOutputValues(), IsEmpty());
  harness.setProcessingTime(101);
  EXPECT_THAT(harness.getOutput().lines(), ElementsAre("Record(a=[a1] b=[b1], no timestamp)"));
  EXPECT_EQ(harness.numKeyedStateEntries(), 0u);
}

// ---- event-time order ----

Pattern<Ev> aNextB() { return Pattern<Ev>::begin("a").where(is('a')).next("b").where(is('b')); }

TEST(CepTime, OutOfOrderInputIsMatchedInTimestampOrderOnceTheWatermarkPasses) {
  auto harness = harnessFor(aNextB());
  feed(*harness, {{"b1", 2}, {"c1", 4}, {"a1", 1}, {"a2", 3}});
  harness->processWatermark(1);
  EXPECT_THAT(harness->extractOutputValues(), IsEmpty());
  harness->processWatermark(2);
  harness->processElement(Ev{"b2", 5}, 5);
  harness->processWatermark(10);
  // a2 (3) is followed by c1 (4), not by b2 (5).
  EXPECT_THAT(harness->getOutput().lines(),
              ElementsAre("Watermark(1)", "Record(a=[a1] b=[b1] @ 2)", "Watermark(2)", "Watermark(10)"));
}

TEST(CepTime, EqualTimestampsAreMatchedInArrivalOrder) {
  auto harness = harnessFor(aNextB());
  feed(*harness, {{"b1", 5}, {"a1", 5}, {"a2", 7}, {"b2", 7}});
  harness->processWatermark(10);
  EXPECT_THAT(harness->getOutput().lines(), ElementsAre("Record(a=[a2] b=[b2] @ 7)", "Watermark(10)"));
}

TEST(CepTime, AComparatorOrdersEqualTimestamps) {
  auto env = newEnv();
  // Same-timestamp events in name order, whatever their arrival order.
  auto by_name = [](const Ev& x, const Ev& y) {
    return x.name < y.name ? -1 : (x.name == y.name ? 0 : 1);
  };
  Harness harness(CEP::pattern(env.fromElements<Ev>({}).keyBy(keyOf), aNextB(), by_name).process(MatchesAndTimeouts{}));
  harness.open();
  feed(harness, {{"b1", 5}, {"a1", 5}, {"b2", 7}, {"c2", 7}, {"a2", 7}});
  harness.processWatermark(10);
  EXPECT_THAT(harness.getOutput().lines(),
              ElementsAre("Record(a=[a1] b=[b1] @ 5)", "Record(a=[a2] b=[b2] @ 7)", "Watermark(10)"));
}

// ---- late data ----

TEST(CepTime, LateElementsGoToTheLateDataSideOutput) {
  auto env = newEnv();
  const OutputTag<Ev> late("late");
  Harness harness(CEP::pattern(env.fromElements<Ev>({}).keyBy(keyOf), aNextB())
                      .sideOutputLateData(late)
                      .process(MatchesAndTimeouts{}));
  harness.captureSideOutput(late);
  harness.open();
  harness.processElement(Ev{"a1", 8}, 8);
  harness.processWatermark(10);
  harness.processElement(Ev{"b1", 10}, 10);  // at the watermark: late
  harness.processElement(Ev{"b2", 9}, 9);    // behind it: late
  harness.processElement(Ev{"a2", 11}, 11);
  harness.processElement(Ev{"b3", 12}, 12);
  harness.processWatermark(20);
  std::vector<std::string> late_lines;
  for (const auto& r : harness.getSideOutput(late))
    late_lines.push_back(r.value.name + " @ " + std::to_string(r.timestamp));
  EXPECT_THAT(late_lines, ElementsAre("b1 @ 10", "b2 @ 9"));
  EXPECT_THAT(harness.getOutput().lines(), ElementsAre("Watermark(10)", "Record(a=[a2] b=[b3] @ 12)", "Watermark(20)"));
}

/// Emits a watermark at each event's timestamp, so that a later event at or
/// below it is late.
class WatermarkPerEvent final : public WatermarkGenerator<Ev> {
 public:
  void onEvent(const Ev&, Timestamp ts, WatermarkOutput& output) override {
    if (ts > max_) {
      max_ = ts;
      output.emitWatermark(ts);
    }
  }
  void onPeriodicEmit(WatermarkOutput&) override {}

 private:
  Timestamp max_ = kMinWatermark;
};

DataStream<Ev> watermarkedPerEvent(StreamExecutionEnvironment& env, std::initializer_list<Ev> events) {
  auto strategy = WatermarkStrategy<Ev>::forGenerator([] {
                    return std::unique_ptr<WatermarkGenerator<Ev>>(std::make_unique<WatermarkPerEvent>());
                  }).withTimestampAssigner([](const Ev& e, Timestamp) { return e.ts; });
  return env.fromElements<Ev>(events).assignTimestampsAndWatermarks(strategy);
}

TEST(CepTime, LateElementsWithoutASideOutputAreCounted) {
  auto env = newEnv();
  env.setParallelism(1).enableSimulatedTime(0);
  auto input = watermarkedPerEvent(env, {{"a1", 1}, {"a2", 5}, {"b1", 5}, {"b2", 3}, {"b3", 6}});
  auto out = CEP::pattern(input.keyBy(keyOf), aNextB()).process(MatchesAndTimeouts{}).collectToMemory();
  JobExecutionResult result = env.execute("late");
  EXPECT_THAT(out->values(), ElementsAre("a=[a2] b=[b3]"));
  EXPECT_EQ(result.counter("CepOperator", "numLateRecordsDropped"), 2u);
}

TEST(CepTime, TheLateCounterFollowsTheOperatorName) {
  auto env = newEnv();
  env.setParallelism(1).enableSimulatedTime(0);
  auto input = watermarkedPerEvent(env, {{"a1", 4}, {"b1", 4}, {"b2", 2}});
  CEP::pattern(input.keyBy(keyOf), aNextB()).process(MatchesAndTimeouts{}).name("pairs").collectToMemory();
  JobExecutionResult result = env.execute("late");
  EXPECT_EQ(result.counter("pairs", "numLateRecordsDropped"), 2u);
  EXPECT_EQ(result.counter("CepOperator", "numLateRecordsDropped"), 0u);
}

}  // namespace
}  // namespace tidemark
