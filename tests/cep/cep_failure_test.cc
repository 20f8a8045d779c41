// The CEP bench patterns through failures, in simulated time, checkpointed
// every 50 ms: a keyed CEP job fails once at 30 instants (random ones, and
// just before, at and after checkpoint rounds, and near the end of the
// input), restores its partial matches, shared buffer and timers from the
// latest completed checkpoint, and must end with exactly the matches of the
// run without failures. At parallelism 1 and 2 (restarted in the same job),
// and rescaled: the failed job stops, and a new environment at the other
// parallelism (2 -> 1, 1 -> 2) restores its latest checkpoint from disk, the
// partial matches of each key now in the subtask that owns its key group.
//
// The events come from four scripts, dealt out to the source subtasks, in
// event-time order within each and with a watermark bound larger than the
// skew between subtasks: no event is late at any parallelism, so the
// matches do not depend on it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "support/latest_checkpoint.h"
#include "support/scratch_directory.h"
#include "support/shared_collection.h"
#include "tidemark/core/log.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {


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

constexpr int kScripts = 4;
constexpr std::int64_t kStepsPerScript = 200;

/// Script j emits events j, j + 4, j + 8, ... (800 in all), event `seq` at
/// event time seq / 2 and at 3/4 ms of the job's clock per unit of event time
/// (the input lasts 300 ms).
const ScriptedSource<std::int64_t>& eventScripts() {
  static const ScriptedSource<std::int64_t> source = [] {
    std::vector<ScriptedSource<std::int64_t>::Script> scripts(kScripts);
    for (int j = 0; j < kScripts; ++j) {
      for (std::int64_t k = 0; k < kStepsPerScript; ++k) {
        const std::int64_t seq = k * kScripts + j;
        const Timestamp event_time = seq / 2;
        scripts[j].push_back({event_time * 3 / 4, seq, event_time});
      }
    }
    return ScriptedSource<std::int64_t>(std::move(scripts));
  }();
  return source;
}

constexpr Duration kInputEnds = 300;
constexpr Duration kCheckpointInterval = 50;

struct RunOptions {
  int parallelism = 1;
  std::optional<FailureInjection> failure;
  bool restart = true;            // restart in the same job, from its latest checkpoint in memory
  std::filesystem::path storage;  // set: keep checkpoints there
  std::filesystem::path restore;  // set: start from the latest checkpoint there
};

/// scripted (P) -> events -> keyBy(seq % 7) -> CEP -> collected, all at
/// parallelism P. Returns the number of restarts, or nullopt when the job failed.
std::optional<std::uint64_t> runCep(const CepCase& cep, testing_support::SharedCollection& matches,
                                    const RunOptions& options) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(options.parallelism);
  env.enableSimulatedTime();
  env.getConfig().setAutoWatermarkInterval(10);
  env.enableCheckpointing(kCheckpointInterval);
  env.setRestartStrategy(options.restart ? RestartStrategies::fixedDelayRestart(1, 10) : RestartStrategies::noRestart());
  if (!options.storage.empty()) env.getCheckpointConfig().setCheckpointStorage(options.storage.string());
  if (!options.restore.empty()) env.setRestorePath(options.restore.string());
  if (options.failure) env.injectFailure(*options.failure);
  const std::int64_t a = cep.a, b = cep.b, c = cep.c;
  auto events = env.addSource(eventScripts(), "scripted")
                    .assignTimestampsAndWatermarks(WatermarkStrategy<std::int64_t>::forBoundedOutOfOrderness(10))
                    .map([a, b, c](std::int64_t v) { return CepEvent{v % 7, v, typeOf(v, a, b, c)}; })
                    .name("events")
                    .keyBy([](const CepEvent& e) { return e.key; });
  std::function<int(const CepEvent&, const CepEvent&)> by_sequence = [](const CepEvent& x, const CepEvent& y) {
    return x.seq < y.seq ? -1 : (x.seq > y.seq ? 1 : 0);
  };
  auto described = CEP::pattern(events, cep.pattern(), by_sequence)
                       .select([](const Match<CepEvent>& m) { return describeMatch(m); })
                       .name("matches");
  matches.collect<std::string>(described, [](const std::string& match) { return match; });
  LogHandler previous = setLogHandler([](LogLevel, std::string_view) {});  // the restart lines
  std::optional<std::uint64_t> restarts;
  try {
    restarts = env.execute("cep " + cep.name).getNumRestarts();
  } catch (const JobExecutionException&) {
  }
  setLogHandler(std::move(previous));
  return restarts;
}

std::vector<std::string> sorted(std::vector<std::string> lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

/// The matches of the run without failures, sorted (the same at either parallelism).
const std::vector<std::string>& failureFree(const CepCase& cep) {
  static std::vector<std::vector<std::string>> runs(cases().size());
  std::vector<std::string>& run = runs[static_cast<std::size_t>(&cep - cases().data())];
  if (run.empty()) {
    testing_support::SharedCollection matches;
    EXPECT_EQ(runCep(cep, matches, {}), 0u);
    run = sorted(matches.lines());
  }
  return run;
}

/// 30 failure points of the "matches" operator at `parallelism`.
std::vector<FailureInjection> failurePoints(int parallelism) {
  std::vector<FailureInjection> points;
  const auto at = [&](Timestamp instant) {
    points.push_back(FailureInjection::atTime("matches", static_cast<int>(points.size()) % parallelism, instant));
  };
  for (const Timestamp instant : {1, 49, 50, 51, 52, 99, 100, 101, 149, 150, 151, 250, 251, 297, 299}) at(instant);
  std::mt19937 random(7);
  std::uniform_int_distribution<Timestamp> instant(1, kInputEnds - 1);
  for (int i = 0; i < 15; ++i) at(instant(random));
  return points;
}

class CepFailureTest : public ::testing::TestWithParam<std::size_t> {};

TEST_P(CepFailureTest, TheRunWithoutFailuresHasTheSameMatchesAtEitherParallelism) {
  const CepCase& cep = cases()[GetParam()];
  ASSERT_GT(failureFree(cep).size(), 20u);
  testing_support::SharedCollection matches;
  EXPECT_EQ(runCep(cep, matches, {.parallelism = 2}), 0u);
  EXPECT_EQ(sorted(matches.lines()), failureFree(cep));
}

TEST_P(CepFailureTest, EveryFailurePointEndsWithTheMatchesOfTheRunWithoutFailures) {
  const CepCase& cep = cases()[GetParam()];
  for (const int parallelism : {1, 2}) {
    for (const FailureInjection& point : failurePoints(parallelism)) {
      SCOPED_TRACE(fmt::format("{} at parallelism {} fails {}", cep.name, parallelism, point.describe()));
      testing_support::SharedCollection matches;
      EXPECT_EQ(runCep(cep, matches, {.parallelism = parallelism, .failure = point}), 1u);
      EXPECT_EQ(sorted(matches.lines()), failureFree(cep));
    }
  }
}

TEST_P(CepFailureTest, RestoredAtAnotherParallelismItEndsWithTheMatchesOfTheRunWithoutFailures) {
  const CepCase& cep = cases()[GetParam()];
  for (const auto& [from, to] : {std::pair{2, 1}, std::pair{1, 2}}) {
    for (const FailureInjection& point : failurePoints(from)) {
      SCOPED_TRACE(fmt::format("{} fails at parallelism {} {}, restored at {}", cep.name, from, point.describe(), to));
      const testing_support::ScratchDirectory storage("cep-rescale");
      testing_support::SharedCollection matches;
      EXPECT_FALSE(runCep(cep, matches,
                          {.parallelism = from, .failure = point, .restart = false, .storage = storage.path()}));
      const std::int64_t kept = testing_support::latestCompletedCheckpoint(storage.path());
      matches.takeBackAfter(kept);
      RunOptions restored{.parallelism = to, .storage = storage.path()};
      if (kept > 0) restored.restore = storage.path();
      EXPECT_EQ(runCep(cep, matches, restored), 0u);
      EXPECT_EQ(sorted(matches.lines()), failureFree(cep));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Patterns, CepFailureTest, ::testing::Values(0u, 1u),
                         [](const ::testing::TestParamInfo<std::size_t>& param) { return cases()[param.param].name; });

}  // namespace
}  // namespace tidemark
