// The seed scenarios through failures: S1a, S1b, S2b, S3, S4a and S4b, the
// examples' own jobs (examples/s*.h), run in simulated time with a
// checkpoint every 300 ms. Each fails once at every failure point: at
// instants just before, at and after checkpoint rounds, at and just after
// the source's steps and the periodic watermarks after them, near the end of
// the input, at seeded random instants, and after every record of the parse
// operator. Each run must end with exactly the output of the run without
// failures, line for line and in order at parallelism 1: the watermark
// state is restored, so every late-data decision, timer and match is the
// same.
//
// The same at parallelism 2 (of the keyed part; the sources keep the
// scenario's parallelism), compared as sorted lines because two subtasks
// write in their own order, and after a rescale: the failed job stops,
// and a new environment at the other parallelism (2 -> 1, 1 -> 2) restores
// its latest checkpoint from disk.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "s1_event_time_timers.h"
#include "s2_union_watermarks.h"
#include "s3_late_data.h"
#include "s4_cep_login_failures.h"
#include "support/run_program.h"
#include "support/latest_checkpoint.h"
#include "support/scratch_directory.h"
#include "support/shared_collection.h"
#include "tidemark/core/log.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using Lines = std::vector<std::string>;

constexpr Duration kCheckpointInterval = 300;

/// The collections a scenario's sinks write to, one per output. They
/// outlive one job, so a job restored in a new environment adds to what the
/// failed one collected.
class Outputs {
 public:
  /// Collects `stream` at `parallelism` into the next collection, printed as
  /// the example prints it: "<prefix>> value".
  template <class T>
  void collect(const DataStream<T>& stream, int parallelism, const std::string& prefix) {
    if (next_ == collections_.size()) collections_.emplace_back();
    collections_[next_]
        .collect<T>(stream,
                    [prefix](const T& value) {
                      std::ostringstream line;
                      if (!prefix.empty()) line << prefix << "> ";
                      line << value;
                      return line.str();
                    })
        .name(sinkName(next_))
        .setParallelism(parallelism);
    ++next_;
  }

  /// Before a job attaches its sinks.
  void beginJob() { next_ = 0; }

  /// Takes back what the failed job collected after `checkpoint_id` (0: all), as a restart would.
  void takeBackAfter(std::int64_t checkpoint_id) {
    for (testing_support::SharedCollection& collection : collections_) collection.takeBackAfter(checkpoint_id);
  }

  /// Each collection's lines; sorted when the order is the subtasks' own.
  std::vector<Lines> lines(bool sorted) const {
    std::vector<Lines> all;
    for (const testing_support::SharedCollection& collection : collections_) {
      all.push_back(collection.lines());
      if (sorted) std::sort(all.back().begin(), all.back().end());
    }
    return all;
  }

  static std::string sinkName(std::size_t index) { return fmt::format("collect {}", index); }

 private:
  std::vector<testing_support::SharedCollection> collections_;
  std::size_t next_ = 0;
};

struct Scenario {
  std::string name;
  /// Builds the job in `env` (whose parallelism is the sources'), its keyed part at `parallelism`.
  std::function<void(StreamExecutionEnvironment& env, int parallelism, Outputs& outputs)> build;
  int source_parallelism = 1;
  std::vector<std::size_t> records_per_source_subtask;  // lines each parse subtask reads (S1 parses none)
  std::vector<Timestamp> steps;                           // when the source emits
  Timestamp input_ends = 0;
  std::vector<int> parallelisms = {1, 2};  // of the keyed part
};

auto scriptedLines(StreamExecutionEnvironment& env, click_events::Script script, const std::string& name) {
  return env.addSource(ScriptedSource<std::string>::single(std::move(script)), name);
}

std::vector<Timestamp> stepsOf(const click_events::Script& script) {
  std::vector<Timestamp> steps;
  for (const auto& step : script) steps.push_back(step.at);
  return steps;
}

Scenario s1(bool variant_b) {
  Scenario s;
  s.name = variant_b ? "s1b" : "s1a";
  s.build = [variant_b](StreamExecutionEnvironment& env, int parallelism, Outputs& outputs) {
    auto printed = s1::eventTimeTimers(env, variant_b);
    printed.setParallelism(parallelism);
    outputs.collect(printed, parallelism, "");
  };
  s.steps = {0, 5000, 10000};
  s.input_ends = 15000;
  return s;
}

Scenario s2b() {
  Scenario s;
  s.name = "s2b";
  s.build = [](StreamExecutionEnvironment& env, int, Outputs& outputs) {
    auto lines = env.addSource(ScriptedSource<std::string>({s2::scenarioScript(1), s2::scenarioScript(2)}), "streams");
    outputs.collect(s2::keyedByUser(lines, false), 1, "");
  };
  s.source_parallelism = 2;
  s.records_per_source_subtask = {s2::scenarioScript(1).size(), s2::scenarioScript(2).size()};
  s.steps = stepsOf(s2::scenarioScript(1));
  for (const Timestamp step : stepsOf(s2::scenarioScript(2))) s.steps.push_back(step);
  std::sort(s.steps.begin(), s.steps.end());
  s.input_ends = s.steps.back();
  // The scenario fixes both parallelisms: two source subtasks, one keyed.
  // Restored at one source subtask, the two scripts would share one
  // watermark generator, which is another job's watermarks.
  s.parallelisms = {1};
  return s;
}

Scenario s3() {
  Scenario s;
  s.name = "s3";
  s.build = [](StreamExecutionEnvironment& env, int parallelism, Outputs& outputs) {
    const s3::LateDataOutputs job = s3::lateData(scriptedLines(env, s3::scenarioScript(), "events"));
    auto results = job.results;
    results.setParallelism(parallelism);
    outputs.collect(job.results, parallelism, "result");
    outputs.collect(job.late, parallelism, "late");
  };
  s.records_per_source_subtask = {s3::scenarioScript().size()};
  s.steps = stepsOf(s3::scenarioScript());
  s.input_ends = s.steps.back();
  return s;
}

Scenario s4(bool variant_b) {
  Scenario s;
  s.name = variant_b ? "s4b" : "s4a";
  s.build = [variant_b](StreamExecutionEnvironment& env, int parallelism, Outputs& outputs) {
    const s4::LoginAlerts job = s4::loginAlerts(scriptedLines(env, s4::scenarioScript(variant_b), "logins"));
    auto alerts = job.alerts;
    alerts.setParallelism(parallelism);
    outputs.collect(job.alerts, parallelism, "alert");
    outputs.collect(job.late, parallelism, "late");
  };
  s.records_per_source_subtask = {s4::scenarioScript(variant_b).size()};
  s.steps = stepsOf(s4::scenarioScript(variant_b));
  s.input_ends = s.steps.back();
  return s;
}

std::vector<Scenario> scenarios() { return {s1(false), s1(true), s2b(), s3(), s4(false), s4(true)}; }

/// The scenarios whose keyed part may run at another parallelism (all but S2b).
std::vector<Scenario> rescalableScenarios() {
  std::vector<Scenario> all = scenarios();
  std::erase_if(all, [](const Scenario& s) { return s.parallelisms.size() < 2; });
  return all;
}

void PrintTo(const Scenario& scenario, std::ostream* os) { *os << scenario.name; }

struct RunOptions {
  int parallelism = 1;
  std::optional<FailureInjection> failure;
  bool restart = true;              // restart in the same job, from its latest checkpoint in memory
  std::filesystem::path storage;    // set: keep checkpoints there
  std::filesystem::path restore;    // set: start from the latest checkpoint there
};

/// Runs the scenario's job; returns its number of restarts, or nullopt when it failed.
std::optional<std::uint64_t> runScenario(const Scenario& scenario, Outputs& outputs, const RunOptions& options) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(scenario.source_parallelism);
  env.enableSimulatedTime(0);
  env.enableCheckpointing(kCheckpointInterval);
  env.setRestartStrategy(options.restart ? RestartStrategies::fixedDelayRestart(1, 10) : RestartStrategies::noRestart());
  if (!options.storage.empty()) env.getCheckpointConfig().setCheckpointStorage(options.storage.string());
  if (!options.restore.empty()) env.setRestorePath(options.restore.string());
  if (options.failure) env.injectFailure(*options.failure);
  outputs.beginJob();
  scenario.build(env, options.parallelism, outputs);
  // Each restart logs a WARNING line; restart_test.cc checks them.
  LogHandler previous = setLogHandler([](LogLevel, std::string_view) {});
  std::optional<std::uint64_t> restarts;
  try {
    restarts = env.execute(scenario.name).getNumRestarts();
  } catch (const JobExecutionException&) {
  }
  setLogHandler(std::move(previous));
  return restarts;
}

/// The failure points of `scenario` whose sinks run at `parallelism`.
std::vector<FailureInjection> failurePoints(const Scenario& scenario, int parallelism) {
  std::vector<FailureInjection> points;
  const auto at = [&](Timestamp instant) {
    if (instant <= 0 || instant >= scenario.input_ends) return;
    points.push_back(
        FailureInjection::atTime(Outputs::sinkName(0), static_cast<int>(points.size()) % parallelism, instant));
  };
  // Just before, at and after checkpoint rounds (barriers in flight, being aligned).
  for (const Timestamp round : {300, 1200, 3000, 6000}) {
    for (const Timestamp offset : {-1, 0, 1}) at(round + offset);
  }
  // At and just after a source step, and at the periodic watermark 200 ms after it.
  for (const Timestamp step : {scenario.steps[1], scenario.steps.back()}) {
    for (const Timestamp offset : {0, 1, 199, 200, 201}) at(step + offset);
  }
  at(scenario.input_ends - 1);
  std::mt19937 random(2026);
  std::uniform_int_distribution<Timestamp> instant(1, std::max<Timestamp>(1, scenario.input_ends - 1));
  while (scenario.input_ends > 1 && points.size() < 31) at(instant(random));
  for (std::size_t subtask = 0; subtask < scenario.records_per_source_subtask.size(); ++subtask) {
    for (std::size_t n = 0; n < scenario.records_per_source_subtask[subtask]; ++n) {
      points.push_back(FailureInjection::afterRecords("parse", static_cast<int>(subtask), n));
    }
  }
  return points;
}

const std::vector<Lines>& failureFree(const Scenario& scenario, int parallelism) {
  static std::map<std::pair<std::string, int>, std::vector<Lines>> runs;
  const auto key = std::make_pair(scenario.name, parallelism);
  auto found = runs.find(key);
  if (found == runs.end()) {
    Outputs outputs;
    EXPECT_EQ(runScenario(scenario, outputs, {.parallelism = parallelism}), 0u);
    found = runs.emplace(key, outputs.lines(parallelism > 1)).first;
  }
  return found->second;
}

/// The lines of the scenario's expected output file that start with `prefix`, in order.
Lines expectedLines(const std::string& scenario, const std::string& prefix) {
  std::istringstream in(testing_support::readFile(testing_support::testDataPath("scenarios/" + scenario + ".out")));
  Lines lines;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(prefix)) lines.push_back(line);
  }
  return lines;
}

class ScenarioFailureTest : public ::testing::TestWithParam<Scenario> {};

TEST_P(ScenarioFailureTest, TheRunWithoutFailuresPrintsTheScenarioAtEitherParallelism) {
  const Scenario& scenario = GetParam();
  const std::vector<Lines>& lines = failureFree(scenario, 1);
  if (lines.size() == 1) {
    EXPECT_EQ(lines[0], expectedLines(scenario.name, ""));
  } else {
    const char* prefix = scenario.name == "s3" ? "result> " : "alert> ";
    EXPECT_EQ(lines[0], expectedLines(scenario.name, prefix));
    EXPECT_EQ(lines[1], expectedLines(scenario.name, "late> "));
  }
  std::vector<Lines> sorted = lines;
  for (Lines& output : sorted) std::sort(output.begin(), output.end());
  EXPECT_EQ(failureFree(scenario, 2), sorted);
}

TEST_P(ScenarioFailureTest, EveryFailurePointEndsWithTheOutputOfTheRunWithoutFailures) {
  const Scenario& scenario = GetParam();
  for (const int parallelism : scenario.parallelisms) {
    const std::vector<FailureInjection> points = failurePoints(scenario, parallelism);
    // S4a's input is one atomic step at 0 ms, over before a checkpoint can
    // start: its failure points are the records.
    EXPECT_GE(points.size(), scenario.input_ends > 0 ? 31u : 7u);
    for (const FailureInjection& point : points) {
      SCOPED_TRACE(fmt::format("{} at parallelism {} fails {}", scenario.name, parallelism, point.describe()));
      Outputs outputs;
      EXPECT_EQ(runScenario(scenario, outputs, {.parallelism = parallelism, .failure = point}), 1u);
      EXPECT_EQ(outputs.lines(parallelism > 1), failureFree(scenario, parallelism));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seed, ScenarioFailureTest, ::testing::ValuesIn(scenarios()),
                         [](const ::testing::TestParamInfo<Scenario>& param) { return param.param.name; });

class ScenarioRescaleTest : public ::testing::TestWithParam<Scenario> {};

TEST_P(ScenarioRescaleTest, RestoredAtAnotherParallelismItEndsWithTheOutputOfTheRunWithoutFailures) {
  const Scenario& scenario = GetParam();
  for (const auto& [from, to] : {std::pair{2, 1}, std::pair{1, 2}}) {
    for (const FailureInjection& point : failurePoints(scenario, from)) {
      SCOPED_TRACE(fmt::format("{} fails at parallelism {} {}, restored at {}", scenario.name, from, point.describe(), to));
      const testing_support::ScratchDirectory storage("scenario-rescale");
      Outputs outputs;
      EXPECT_FALSE(runScenario(scenario, outputs,
                               {.parallelism = from, .failure = point, .restart = false, .storage = storage.path()}));
      const std::int64_t kept = testing_support::latestCompletedCheckpoint(storage.path());
      outputs.takeBackAfter(kept);
      RunOptions restored{.parallelism = to, .storage = storage.path()};
      if (kept > 0) restored.restore = storage.path();
      EXPECT_EQ(runScenario(scenario, outputs, restored), 0u);
      EXPECT_EQ(outputs.lines(true), failureFree(scenario, 2));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seed, ScenarioRescaleTest, ::testing::ValuesIn(rescalableScenarios()),
                         [](const ::testing::TestParamInfo<Scenario>& param) { return param.param.name; });

}  // namespace
}  // namespace tidemark
