// Nexmark q3, q5, q7 and q8 through failures: at parallelism 2, paced on the
// simulated clock (5 s for the input, 100 s of event time in it) and
// checkpointed every 250 ms, each query fails once at 31
// instants (random ones and the phase boundaries: just before, at and after
// a checkpoint round, the first records, the end of the input), restarts
// from its latest completed checkpoint, and must end with exactly the output
// of the run without failures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "nexmark/queries/q3_local_item_suggestion.h"
#include "nexmark/queries/q5_hot_items.h"
#include "nexmark/queries/q7_highest_bid.h"
#include "nexmark/queries/q8_monitor_new_users.h"
#include "nexmark_test_support.h"
#include "tidemark/core/log.h"

namespace tidemark::nexmark {
namespace {

constexpr std::int64_t kEvents = 10'000;
constexpr std::int64_t kRate = 2'000;  // events per second of the job's clock: the input runs 5 s
constexpr Duration kCheckpointInterval = 250;
// 100 s of event time, so that q7's 10 s tumbling windows close ten times.
constexpr std::int64_t kEventTimeRate = 100;

/// Adds a query and its sink to the job; returns the sink's records, printed.
using AddQuery = std::function<std::function<std::vector<std::string>()>(const DataStream<Event>&)>;

template <class T>
AddQuery collecting(DataStream<T> (*query)(const DataStream<Event>&)) {
  return [query](const DataStream<Event>& events) {
    auto collected = query(events).collectToMemory();
    return std::function<std::vector<std::string>()>([collected] {
      std::vector<std::string> lines;
      for (const T& value : collected->values()) lines.push_back(describe(value));
      return lines;
    });
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

QueryRun runQuery(const std::string& name, const std::vector<FailureInjection>& failures) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime();
  env.enableCheckpointing(kCheckpointInterval);
  env.setRestartStrategy(RestartStrategies::fixedDelayRestart(2, 10));
  for (const FailureInjection& failure : failures) env.injectFailure(failure);
  SourceOptions options;
  options.generator = testing::smallConfig();
  options.generator.events_per_second = kEventTimeRate;
  options.events = kEvents;
  options.rate = kRate;
  options.pacing = Pacing::kJobClock;
  const auto output = queries().at(name)(addNexmarkSource(env, options));
  // Each restart logs a WARNING line; restart_test.cc checks them.
  LogHandler previous = setLogHandler([](LogLevel, std::string_view) {});
  const JobExecutionResult result = env.execute("nexmark " + name);
  setLogHandler(std::move(previous));
  QueryRun run{output(), result.getNumRestarts()};
  std::sort(run.output.begin(), run.output.end());
  return run;
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

}  // namespace
}  // namespace tidemark::nexmark
