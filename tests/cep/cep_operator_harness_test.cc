// The CEP operator driven by hand (KeyedOneInputStreamOperatorTestHarness
// built from a PatternStream's result) and in whole jobs: records,
// watermarks, matches, timeouts and late records per key; keyed state and
// timers going back to zero once nothing can match; keyed vs non-keyed CEP;
// the same matches per key at parallelism 1 and 2; a non-keyed CEP operator
// refusing a parallelism above 1; scenario S4b (late login event).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cep/cep_test_support.h"
#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;
using cep_test::named::feed;
using cep_test::named::is;
using cep_test::named::kTimedOut;
using cep_test::named::sideLines;

struct Ev {
  std::string key;
  std::string name;
  Timestamp ts = 0;
};

std::string keyOf(const Ev& e) { return e.key; }

/// "k1: a=[a1] b=[b1]": the key, then the events of each pattern name.
std::string renderWithKey(const Match<Ev>& match) {
  return match.begin()->second.front().key + ": " + cep_test::named::render(match);
}

const OutputTag<Ev> kLate("late");

using MatchesAndTimeouts = cep_test::named::MatchesAndTimeouts<Ev, &renderWithKey>;
using Harness = cep_test::named::CepHarness<Ev>;

Pattern<Ev> aThenBWithin10() {
  return Pattern<Ev>::begin("a").where(is('a')).followedBy("b").where(is('b')).within(10);
}

/// An opened harness around the CEP operator of `pattern`, capturing timeouts and late records.
std::unique_ptr<Harness> harnessFor(const Pattern<Ev>& pattern) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto matches = CEP::pattern(env.fromElements<Ev>({}).keyBy(keyOf), pattern)
                     .sideOutputLateData(kLate)
                     .process(MatchesAndTimeouts{});
  auto harness = std::make_unique<Harness>(matches);
  harness->captureSideOutput(kTimedOut);
  harness->captureSideOutput(kLate);
  harness->open();
  return harness;
}

std::vector<std::string> timeoutLines(const Harness& harness) { return sideLines(harness, kTimedOut); }

std::vector<std::string> lateLines(const Harness& harness) {
  std::vector<std::string> out;
  for (const auto& r : harness.getSideOutput(kLate)) {
    out.push_back(r.value.key + "/" + r.value.name + " @ " + std::to_string(r.timestamp));
  }
  return out;
}

// ---- harness ----

TEST(CepOperatorHarness, MatchesTimeoutsAndLateRecordsPerKey) {
  auto harness = harnessFor(aThenBWithin10());
  feed(*harness, {{"k1", "a1", 1}, {"k2", "a2", 2}, {"k1", "x", 4}, {"k1", "b1", 5}});
  harness->processWatermark(5);
  feed(*harness, {{"k2", "b2", 5}, {"k2", "b3", 13}, {"k1", "a3", 20}});
  harness->processWatermark(12);
  harness->processWatermark(40);
  EXPECT_THAT(harness->getOutput().lines(),
              ElementsAre("Record(k1: a=[a1] b=[b1] @ 5)", "Watermark(5)", "Watermark(12)", "Watermark(40)"));
  EXPECT_THAT(timeoutLines(*harness), ElementsAre("k2: a=[a2] @ 12", "k1: a=[a3] @ 30"));
  EXPECT_THAT(lateLines(*harness), ElementsAre("k2/b2 @ 5"));
  // A late element of a new key leaves no state behind.
  harness->processElement(Ev{"k9", "a9", 40}, 40);
  EXPECT_THAT(lateLines(*harness), ElementsAre("k2/b2 @ 5", "k9/a9 @ 40"));
  EXPECT_EQ(harness->numKeyedStateEntries(), 0u);
}

TEST(CepOperatorHarness, KeyedStateAndTimersReturnToZeroOnceNothingCanMatch) {
  auto harness = harnessFor(aThenBWithin10());
  EXPECT_EQ(harness->numKeyedStateEntries(), 0u);
  feed(*harness, {{"k1", "a1", 1}, {"k2", "a2", 2}, {"k1", "b1", 3}});
  // Both keys hold buffered elements, each with a timer at its earliest timestamp.
  EXPECT_EQ(harness->numKeyedStateEntries(), 2u);
  EXPECT_EQ(harness->numEventTimeTimers(), 2u);

  harness->processWatermark(3);
  EXPECT_THAT(harness->extractOutputValues(), ElementsAre("k1: a=[a1] b=[b1]"));
  // k1 matched and has nothing left; k2 waits for a b until 12. The window
  // timers of both partial matches (11 and 12) stay registered.
  EXPECT_EQ(harness->numKeyedStateEntries(), 1u);
  EXPECT_EQ(harness->numEventTimeTimers(), 2u);

  harness->processWatermark(11);
  EXPECT_EQ(harness->numKeyedStateEntries(), 1u);
  EXPECT_EQ(harness->numEventTimeTimers(), 1u);
  EXPECT_THAT(timeoutLines(*harness), IsEmpty());

  harness->processWatermark(12);
  EXPECT_THAT(timeoutLines(*harness), ElementsAre("k2: a=[a2] @ 12"));
  EXPECT_EQ(harness->numKeyedStateEntries(), 0u);
  EXPECT_EQ(harness->numEventTimeTimers(), 0u);
}

TEST(CepOperatorHarness, ElementsThatStartNoPartialMatchLeaveNoState) {
  auto harness = harnessFor(aThenBWithin10());
  feed(*harness, {{"k1", "x1", 1}, {"k2", "b1", 2}, {"k3", "y1", 3}});
  EXPECT_EQ(harness->numKeyedStateEntries(), 3u);
  harness->processWatermark(3);
  EXPECT_EQ(harness->numKeyedStateEntries(), 0u);
  EXPECT_EQ(harness->numEventTimeTimers(), 0u);
  EXPECT_THAT(harness->getOutput().lines(), ElementsAre("Watermark(3)"));
}

TEST(CepOperatorHarness, APatternWithoutWithinKeepsItsPartialMatch) {
  auto harness = harnessFor(Pattern<Ev>::begin("a").where(is('a')).followedBy("b").where(is('b')));
  feed(*harness, {{"k1", "a1", 1}});
  harness->processWatermark(1000);
  EXPECT_EQ(harness->numKeyedStateEntries(), 1u);
  EXPECT_EQ(harness->numEventTimeTimers(), 0u);
  harness->processElement(Ev{"k1", "b1", 5000}, 5000);
  harness->processWatermark(5000);
  EXPECT_THAT(harness->extractOutputValues(), ElementsAre("k1: a=[a1] b=[b1]"));
  EXPECT_EQ(harness->numKeyedStateEntries(), 0u);
}

// Each key's timer drains that key's buffer, keys in timer order; every
// output comes before the watermark that released it.
TEST(CepOperatorHarness, AllOutputsOfAWatermarkPrecedeIt) {
  auto harness = harnessFor(Pattern<Ev>::begin("a").where(is('a')).next("b").where(is('b')));
  feed(*harness,
       {{"k1", "a1", 1}, {"k2", "a2", 2}, {"k2", "b2", 2}, {"k1", "b1", 3}, {"k1", "a3", 7}, {"k1", "b3", 8}});
  harness->processWatermark(5);
  harness->processWatermark(9);
  EXPECT_THAT(harness->getOutput().lines(),
              ElementsAre("Record(k1: a=[a1] b=[b1] @ 3)", "Record(k2: a=[a2] b=[b2] @ 2)", "Watermark(5)",
                          "Record(k1: a=[a3] b=[b3] @ 8)", "Watermark(9)"));
}

// ---- keyed vs non-keyed ----

Pattern<Ev> threeFails() {
  return Pattern<Ev>::begin("first").where(is('f')).next("second").where(is('f')).next("third").where(is('f')).within(
      10);
}

std::vector<Ev> logins() {
  return {{"u1", "f1", 1}, {"u2", "f2", 2}, {"u1", "f3", 3}, {"u2", "s4", 4},   {"u1", "f5", 5},   {"u3", "f6", 6},
          {"u2", "f7", 7}, {"u2", "f8", 8}, {"u2", "f9", 9}, {"u3", "f10", 10}, {"u1", "f11", 11}, {"u3", "f12", 30}};
}

DataStream<Ev> timestamped(StreamExecutionEnvironment& env, std::vector<Ev> events) {
  return env.fromCollection<Ev>(std::move(events))
      .assignTimestampsAndWatermarks(
          WatermarkStrategy<Ev>::forMonotonousTimestamps().withTimestampAssigner([](const Ev& e) { return e.ts; }));
}

/// Three-failure matches per key at `parallelism`, each key's in emission order.
std::map<std::string, std::vector<std::string>> keyedMatches(int parallelism) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(parallelism).enableSimulatedTime(0);
  auto out = CEP::pattern(timestamped(env, logins()).keyBy(keyOf), threeFails())
                 .process(MatchesAndTimeouts{})
                 .collectToMemory();
  env.execute("keyed");
  std::map<std::string, std::vector<std::string>> by_key;
  for (const std::string& m : out->values()) by_key[m.substr(0, m.find(':'))].push_back(m);
  return by_key;
}

TEST(CepOperatorJob, KeyedMatchesPerKey) {
  const auto by_key = keyedMatches(1);
  ASSERT_EQ(by_key.size(), 2u);
  // u3's f12 comes 24 ms after f6: outside the window.
  EXPECT_THAT(by_key.at("u1"),
              ElementsAre("u1: first=[f1] second=[f3] third=[f5]", "u1: first=[f3] second=[f5] third=[f11]"));
  EXPECT_THAT(by_key.at("u2"), ElementsAre("u2: first=[f7] second=[f8] third=[f9]"));
}

TEST(CepOperatorJob, ParallelismTwoGivesTheSameMatchesPerKey) { EXPECT_EQ(keyedMatches(2), keyedMatches(1)); }

/// Three-failure matches over all keys at `parallelism` (the CEP operator's own parallelism stays 1).
std::vector<std::string> nonKeyedMatches(int parallelism) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(parallelism).enableSimulatedTime(0);
  auto out = CEP::pattern(timestamped(env, logins()), threeFails()).process(MatchesAndTimeouts{}).collectToMemory();
  JobExecutionResult result = env.execute("non-keyed");
  for (const OperatorMetrics& op : result.getOperatorMetrics()) {
    if (op.name == "CepOperator") {
      EXPECT_EQ(op.parallelism, 1);
    }
  }
  return out->values();
}

// Without keys the pattern sees all events as one sequence.
TEST(CepOperatorJob, NonKeyedMatchesAcrossKeys) {
  EXPECT_THAT(nonKeyedMatches(1),
              ElementsAre("u1: first=[f1] second=[f2] third=[f3]", "u1: first=[f5] second=[f6] third=[f7]",
                          "u3: first=[f6] second=[f7] third=[f8]", "u2: first=[f7] second=[f8] third=[f9]",
                          "u2: first=[f8] second=[f9] third=[f10]", "u2: first=[f9] second=[f10] third=[f11]"));
}

// At parallelism 2 the non-keyed operator still runs once (its output is
// spread over two sink subtasks, hence compared as a set).
TEST(CepOperatorJob, NonKeyedCepRunsAtParallelismOneInAParallelJob) {
  EXPECT_THAT(
      nonKeyedMatches(2),
      UnorderedElementsAre("u1: first=[f1] second=[f2] third=[f3]", "u1: first=[f5] second=[f6] third=[f7]",
                           "u3: first=[f6] second=[f7] third=[f8]", "u2: first=[f7] second=[f8] third=[f9]",
                           "u2: first=[f8] second=[f9] third=[f10]", "u2: first=[f9] second=[f10] third=[f11]"));
}

TEST(CepOperatorJob, NonKeyedCepRefusesAParallelismAboveOne) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1).enableSimulatedTime(0);
  CEP::pattern(timestamped(env, logins()), threeFails())
      .process(MatchesAndTimeouts{})
      .name("all-logins")
      .setParallelism(2)
      .collectToMemory();
  try {
    env.execute();
    ADD_FAILURE() << "the job ran";
  } catch (const InvalidProgramException& problem) {
    EXPECT_THAT(problem.what(), HasSubstr("operator 'all-logins' is not parallel: its parallelism must be 1, not 2"));
  }
}

// ---- scenario S4b ----

struct Login {
  std::string user;
  std::string ip;
  std::string type;
  Timestamp timestamp = 0;
};

// The logins arrive one per simulated second with 3 s of bounded
// out-of-orderness; at 8 s a failure stamped 4000 arrives behind the
// watermark (8000 - 3000 - 1 = 4999) and goes to the late side output.
TEST(CepOperatorJob, ScenarioS4bLateLogin) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1).enableSimulatedTime(0);
  ScriptedSource<Login>::Script script{{1000, {"user_1", "192.168.0.1", "fail", 2000}, std::nullopt},
                                       {2000, {"user_1", "192.168.0.2", "fail", 3000}, std::nullopt},
                                       {3000, {"user_2", "192.168.1.29", "fail", 4000}, std::nullopt},
                                       {4000, {"user_1", "171.56.23.10", "fail", 5000}, std::nullopt},
                                       {5000, {"user_2", "192.168.1.29", "fail", 7000}, std::nullopt},
                                       {6000, {"user_2", "192.168.1.29", "fail", 8000}, std::nullopt},
                                       {7000, {"user_2", "192.168.1.29", "success", 6000}, std::nullopt},
                                       {8000, {"user_1", "192.168.0.3", "fail", 4000}, std::nullopt}};
  auto logins =
      env.addSource(ScriptedSource<Login>::single(std::move(script)), "logins")
          .assignTimestampsAndWatermarks(WatermarkStrategy<Login>::forBoundedOutOfOrderness(3000).withTimestampAssigner(
              [](const Login& l) { return l.timestamp; }));
  auto fail = [](const Login& l) { return l.type == "fail"; };
  auto pattern = Pattern<Login>::begin("first").where(fail).next("second").where(fail).next("third").where(fail).within(
      std::chrono::seconds(10));
  const OutputTag<Login> late("late-logins");
  auto alerts =
      CEP::pattern(logins.keyBy([](const Login& l) { return l.user; }), pattern)
          .sideOutputLateData(late)
          .select([](const Match<Login>& m) {
            return fmt::format("alert> {} failed to log in 3 times in a row: {}, {}, {}", m.at("first")[0].user,
                               m.at("first")[0].timestamp, m.at("second")[0].timestamp, m.at("third")[0].timestamp);
          });
  auto alert_lines = alerts.collectToMemory();
  auto late_lines = alerts.getSideOutput(late)
                        .map([](const Login& l) {
                          return fmt::format("late> LoginEvent{{user={}, ip={}, type={}, timestamp={}}}", l.user, l.ip,
                                             l.type, l.timestamp);
                        })
                        .collectToMemory();
  JobExecutionResult result = env.execute("s4b");
  EXPECT_THAT(alert_lines->values(), ElementsAre("alert> user_1 failed to log in 3 times in a row: 2000, 3000, 5000"));
  EXPECT_THAT(late_lines->values(),
              ElementsAre("late> LoginEvent{user=user_1, ip=192.168.0.3, type=fail, timestamp=4000}"));
  EXPECT_EQ(result.counter("CepOperator", "numLateRecordsDropped"), 0u);
}

}  // namespace
}  // namespace tidemark
