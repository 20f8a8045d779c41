// Nexmark q3, q5, q7 and q8 through failures: at parallelism 2, paced on the
// simulated clock (5 s for the input, 100 s of event time in it) and
// checkpointed every 250 ms, each query fails once at 31
// instants (random ones and the phase boundaries: just before, at and after
// a checkpoint round, the first records, the end of the input), restarts
// from its latest completed checkpoint, and must end with exactly the output
// of the run without failures. The same after a rescale: the job fails and
// stops at parallelism 2 (or 1), and a new environment at 1 (or 2) restores
// its latest checkpoint from disk, sources and all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "nexmark/queries/q3_local_item_suggestion.h"
#include "nexmark/queries/q5_hot_items.h"
#include "nexmark/queries/q7_highest_bid.h"
#include "nexmark/queries/q8_monitor_new_users.h"
#include "nexmark_test_support.h"
#include "support/latest_checkpoint.h"
#include "support/scratch_directory.h"
#include "support/shared_collection.h"
#include "tidemark/core/log.h"

namespace tidemark::nexmark {
namespace {

constexpr std::int64_t kEvents = 10'000;
constexpr std::int64_t kRate = 2'000;  // events per second of the job's clock: the input runs 5 s
constexpr Duration kCheckpointInterval = 250;
// 100 s of event time, so that q7's 10 s tumbling windows close ten times.
constexpr std::int64_t kEventTimeRate = 100;

using testing_support::SharedCollection;

/// Adds a query and its sink, named "Collect", to the job.
using AddQuery = std::function<void(const DataStream<Event>&, SharedCollection&)>;

template <class T>
AddQuery collecting(DataStream<T> (*query)(const DataStream<Event>&)) {
  return [query](const DataStream<Event>& events, SharedCollection& into) {
    into.collect<T>(query(events), [](const T& value) { return describe(value); }).name("Collect");
  };
}

const std::map<std::string, AddQuery>& queries() {
  static const std::map<std::string, AddQuery> all{
      {"q3", collecting(&q3LocalItemSuggestion)},
      {"q5", collecting(&q5HotItems)},
      {"q7", collecting(&q7HighestBid)},
      {"q8", collecting(&q8MonitorNewUsers)},
  };
  return all;
}

struct QueryRun {
  std::vector<std::string> output;  // sorted: the two subtasks' order is their own
  std::uint64_t restarts = 0;
};

struct QueryOptions {
  int parallelism = 2;
  std::vector<FailureInjection> failures;
  bool restart = true;            // restart in the same job, from its latest checkpoint in memory
  std::filesystem::path storage;  // set: keep checkpoints there
  bool restore = false;           // start from the latest checkpoint in `storage`
};

/// Runs the query into `collection`; the number of restarts, or nullopt when the job failed.
std::optional<std::uint64_t> runInto(const std::string& name, const QueryOptions& run, SharedCollection& collection) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(run.parallelism);
  env.enableSimulatedTime();
  env.enableCheckpointing(kCheckpointInterval);
  env.setRestartStrategy(run.restart ? RestartStrategies::fixedDelayRestart(2, 10) : RestartStrategies::noRestart());
  if (!run.storage.empty()) env.getCheckpointConfig().setCheckpointStorage(run.storage.string());
  if (run.restore) env.setRestorePath(run.storage.string());
  for (const FailureInjection& failure : run.failures) env.injectFailure(failure);
  SourceOptions options;
  options.generator = testing::smallConfig();
  options.generator.events_per_second = kEventTimeRate;
  options.events = kEvents;
  options.rate = kRate;
  options.pacing = Pacing::kJobClock;
  queries().at(name)(addNexmarkSource(env, options), collection);
  // Each restart logs a WARNING line; restart_test.cc checks them.
  LogHandler previous = setLogHandler([](LogLevel, std::string_view) {});
  std::optional<std::uint64_t> restarts;
  try {
    restarts = env.execute("nexmark " + name).getNumRestarts();
  } catch (const JobExecutionException&) {
  }
  setLogHandler(std::move(previous));
  return restarts;
}

std::vector<std::string> sortedLines(const SharedCollection& collection) {
  std::vector<std::string> lines = collection.lines();
  std::sort(lines.begin(), lines.end());
  return lines;
}

QueryRun runQuery(const std::string& name, const std::vector<FailureInjection>& failures) {
  SharedCollection collection;
  const std::optional<std::uint64_t> restarts = runInto(name, {.failures = failures}, collection);
  EXPECT_TRUE(restarts.has_value()) << name << " failed";
  return QueryRun{sortedLines(collection), restarts.value_or(0)};
}

const QueryRun& failureFree(const std::string& name) {
  static std::map<std::string, QueryRun> runs;
  auto found = runs.find(name);
  if (found == runs.end()) found = runs.emplace(name, runQuery(name, {})).first;
  return found->second;
}

struct FailurePoint {
  int subtask;
  Timestamp at;
};

/// Around the checkpoint rounds at 250, 500 and 2500 ms (barriers may be in
/// flight just after), the first records, the end of the input (about
/// 4999 ms), and 18 seeded random instants.
std::vector<FailurePoint> failurePoints() {
  std::vector<FailurePoint> points;
  const Timestamp boundaries[] = {1, 3, 249, 250, 251, 252, 499, 500, 501, 2499, 2500, 2501, 4990};
  for (std::size_t i = 0; i < std::size(boundaries); ++i) {
    points.push_back({static_cast<int>(i % 2), boundaries[i]});
  }
  std::mt19937 random(2026);
  std::uniform_int_distribution<Timestamp> instant(1, 4990);
  for (int i = 0; i < 18; ++i) points.push_back({i % 2, instant(random)});
  return points;
}

class NexmarkFailureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(NexmarkFailureTest, EveryFailurePointEndsWithTheOutputOfTheRunWithoutFailures) {
  const std::string& query = GetParam();
  const QueryRun& expected = failureFree(query);
  ASSERT_GE(expected.output.size(), 10u);
  for (const FailurePoint& point : failurePoints()) {
    SCOPED_TRACE(fmt::format("{} fails at {} ms in subtask {}", query, point.at, point.subtask));
    const QueryRun run = runQuery(query, {FailureInjection::atTime("Collect", point.subtask, point.at)});
    EXPECT_EQ(run.restarts, 1u);
    EXPECT_EQ(run.output, expected.output);
  }
}

INSTANTIATE_TEST_SUITE_P(Queries, NexmarkFailureTest, ::testing::Values("q3", "q5", "q7", "q8"),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

class NexmarkRescaleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(NexmarkRescaleTest, RestoredAtAnotherParallelismItEndsWithTheOutputOfTheRunWithoutFailures) {
  const std::string& query = GetParam();
  const QueryRun& expected = failureFree(query);
  // Before the first checkpoint, just after two of them, mid-input, at the end.
  const Timestamp instants[] = {100, 251, 501, 1777, 2501, 4990};
  for (const auto& [from, to] : {std::pair{2, 1}, std::pair{1, 2}}) {
    for (std::size_t i = 0; i < std::size(instants); ++i) {
      const int subtask = static_cast<int>(i) % from;
      SCOPED_TRACE(fmt::format("{} fails at {} ms in subtask {} of {}, restored at {}", query, instants[i], subtask,
                               from, to));
      const testing_support::ScratchDirectory storage("nexmark-rescale");
      SharedCollection collection;
      const QueryOptions failing{.parallelism = from,
                                 .failures = {FailureInjection::atTime("Collect", subtask, instants[i])},
                                 .restart = false,
                                 .storage = storage.path()};
      EXPECT_FALSE(runInto(query, failing, collection).has_value());
      const std::int64_t latest = testing_support::latestCompletedCheckpoint(storage.path());
      collection.takeBackAfter(latest);
      const QueryOptions restored{.parallelism = to, .storage = storage.path(), .restore = latest != 0};
      EXPECT_EQ(runInto(query, restored, collection), 0u);
      EXPECT_EQ(sortedLines(collection), expected.output);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Queries, NexmarkRescaleTest, ::testing::Values("q3", "q5", "q7", "q8"),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

}  // namespace
}  // namespace tidemark::nexmark
