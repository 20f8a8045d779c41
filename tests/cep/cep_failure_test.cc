// The CEP bench patterns through failures: at parallelism 2 in simulated
// time, checkpointed every 50 ms, a keyed CEP job fails once at 30 instants
// (random ones, and just before, at and after checkpoint rounds, and near
// the end of the input), restores its partial matches, shared buffer and
// timers from the latest completed checkpoint, and must end with exactly the
// matches of the run without failures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "support/counting_source.h"
#include "tidemark/core/log.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using testing_support::CountingSource;

struct CepEvent {
  std::int64_t key = 0;
  std::int64_t seq = 0;
  std::int32_t type = 0;
  auto fields() { return std::tie(key, seq, type); }
};

constexpr std::int32_t kA = 0;  // also: a failed login
constexpr std::int32_t kB = 1;
constexpr std::int32_t kC = 2;
constexpr std::int32_t kD = 3;

/// A type for event `seq`, pseudo-random but fixed: [0, a) A, [a, b) B, [b, c) C, the rest D.
std::int32_t typeOf(std::int64_t seq, std::int64_t a, std::int64_t b, std::int64_t c) {
  std::uint64_t x = static_cast<std::uint64_t>(seq) + 0x9e3779b97f4a7c15ULL;  // splitmix64
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  const auto d = static_cast<std::int64_t>((x ^ (x >> 31)) % 100);
  return d < a ? kA : d < b ? kB : d < c ? kC : kD;
}

/// The bench's cep-login pattern (scenario S4's): three failed logins in a row within 10 ms here.
Pattern<CepEvent> loginPattern() {
  auto fail = [](const CepEvent& e) { return e.type == kA; };
  return Pattern<CepEvent>::begin("first").where(fail).next("second").where(fail).next("third").where(fail).within(10);
}

/// The bench's cep-any pattern: an A, any B's after it, then a C, within 20 ms.
Pattern<CepEvent> anyPattern() {
  return Pattern<CepEvent>::begin("start")
      .where([](const CepEvent& e) { return e.type == kA; })
      .followedByAny("middle")
      .where([](const CepEvent& e) { return e.type == kB; })
      .oneOrMore()
      .followedBy("end")
      .where([](const CepEvent& e) { return e.type == kC; })
      .within(20);
}

struct CepCase {
  std::string name;
  std::function<Pattern<CepEvent>()> pattern;
  std::int64_t a, b, c;  // type shares in percent, see typeOf
};

const std::vector<CepCase>& cases() {
  static const std::vector<CepCase> all{{"login", &loginPattern, 40, 40, 40}, {"any", &anyPattern, 15, 50, 60}};
  return all;
}

std::string describeMatch(const Match<CepEvent>& match) {
  std::string text;
  for (const auto& [name, events] : match) {
    text += std::string(name) + ":";
    for (const CepEvent& e : events) text += fmt::format(" {}", e.seq);
    text += "; ";
  }
  return text;
}

struct CepRun {
  std::vector<std::string> matches;  // sorted
  std::uint64_t restarts = 0;
};

/// counting (2; 800 events over 300 ms of the job's clock) -> events ->
/// keyBy(seq % 7) -> CEP -> collected (2).
CepRun runCep(const CepCase& cep, const std::vector<FailureInjection>& failures) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime();
  env.enableCheckpointing(50);
  env.setRestartStrategy(RestartStrategies::fixedDelayRestart(2, 10));
  for (const FailureInjection& failure : failures) env.injectFailure(failure);
  const std::int64_t a = cep.a, b = cep.b, c = cep.c;
  auto events = env.addSource(CountingSource(400), "counting")
                    .map([a, b, c](std::int64_t v) { return CepEvent{v % 7, v, typeOf(v, a, b, c)}; })
                    .name("events")
                    .keyBy([](const CepEvent& e) { return e.key; });
  std::function<int(const CepEvent&, const CepEvent&)> by_sequence = [](const CepEvent& x, const CepEvent& y) {
    return x.seq < y.seq ? -1 : (x.seq > y.seq ? 1 : 0);
  };
  auto matches = CEP::pattern(events, cep.pattern(), by_sequence)
                     .select([](const Match<CepEvent>& m) { return describeMatch(m); })
                     .name("matches")
                     .collectToMemory();
  LogHandler previous = setLogHandler([](LogLevel, std::string_view) {});  // the restart lines
  const JobExecutionResult result = env.execute("cep " + cep.name);
  setLogHandler(std::move(previous));
  CepRun run{matches->values(), result.getNumRestarts()};
  std::sort(run.matches.begin(), run.matches.end());
  return run;
}

struct FailurePoint {
  int subtask;
  Timestamp at;
};

std::vector<FailurePoint> failurePoints() {
  std::vector<FailurePoint> points;
  const Timestamp boundaries[] = {1, 49, 50, 51, 52, 99, 100, 101, 149, 150, 151, 250, 251, 297, 299};
  for (std::size_t i = 0; i < std::size(boundaries); ++i) points.push_back({static_cast<int>(i % 2), boundaries[i]});
  std::mt19937 random(7);
  std::uniform_int_distribution<Timestamp> instant(1, 299);
  for (int i = 0; i < 15; ++i) points.push_back({i % 2, instant(random)});
  return points;
}

class CepFailureTest : public ::testing::TestWithParam<std::size_t> {};

TEST_P(CepFailureTest, EveryFailurePointEndsWithTheMatchesOfTheRunWithoutFailures) {
  const CepCase& cep = cases()[GetParam()];
  const CepRun expected = runCep(cep, {});
  ASSERT_GT(expected.matches.size(), 20u);
  for (const FailurePoint& point : failurePoints()) {
    SCOPED_TRACE(fmt::format("{} fails at {} ms in subtask {}", cep.name, point.at, point.subtask));
    const CepRun run = runCep(cep, {FailureInjection::atTime("matches", point.subtask, point.at)});
    EXPECT_EQ(run.restarts, 1u);
    EXPECT_EQ(run.matches, expected.matches);
  }
}

INSTANTIATE_TEST_SUITE_P(Patterns, CepFailureTest, ::testing::Values(0u, 1u),
                         [](const ::testing::TestParamInfo<std::size_t>& param) { return cases()[param.param].name; });

}  // namespace
}  // namespace tidemark
