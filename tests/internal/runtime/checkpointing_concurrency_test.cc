// Checkpoints on real threads: barriers cross the channels between task
// threads, keyed tasks align them and the coordinator is called from every
// task thread, while the output stays what it is without checkpoints.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "support/counting_source.h"

namespace tidemark {
namespace {

std::vector<std::string> runWindowSums(StreamExecutionEnvironment& env, CheckpointStatistics* statistics,
                                       std::uint64_t* restarts = nullptr) {
  auto sums = env.addSource(testing_support::CountingSource(400), "counting")
                  .keyBy([](std::int64_t v) { return v % 3; })
                  .window(TumblingEventTimeWindows::of(50))
                  .reduce([](std::int64_t a, std::int64_t b) { return a + b; })
                  .name("window-sum")
                  .map([](std::int64_t sum) { return fmt::format("sum {}", sum); })
                  .collectToMemory();
  const JobExecutionResult result = env.execute("window sums");
  if (statistics != nullptr) *statistics = result.getCheckpointStatistics();
  if (restarts != nullptr) *restarts = result.getNumRestarts();
  std::vector<std::string> lines = sums->values();
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(CheckpointingConcurrencyTest, RealThreadsCheckpointWhileTheOutputStaysExact) {
  auto simulated = StreamExecutionEnvironment::createLocalEnvironment(2);
  simulated.enableSimulatedTime();
  const std::vector<std::string> expected = runWindowSums(simulated, nullptr);

  // The sources sleep 100 times 3 ms, so the job runs at least 300 ms:
  // rounds every 10 ms start checkpoints, and one at least completes.
  auto real = StreamExecutionEnvironment::createLocalEnvironment(2);
  real.enableCheckpointing(10);
  CheckpointStatistics statistics;
  EXPECT_EQ(runWindowSums(real, &statistics), expected);
  EXPECT_GE(statistics.number_of_completed_checkpoints, 1u);
}

TEST(CheckpointingConcurrencyTest, RealThreadsRestartAfterAFailureAndTheOutputStaysExact) {
  auto simulated = StreamExecutionEnvironment::createLocalEnvironment(2);
  simulated.enableSimulatedTime();
  const std::vector<std::string> expected = runWindowSums(simulated, nullptr);

  // The failure comes at a record, wherever the checkpoints then stand; the
  // restart restores the latest one and the collection takes back the rest.
  auto real = StreamExecutionEnvironment::createLocalEnvironment(2);
  real.enableCheckpointing(10).setRestartStrategy(RestartStrategies::fixedDelayRestart(1, 0));
  real.injectFailure(FailureInjection::afterRecords("window-sum", 0, 150));
  std::uint64_t restarts = 0;
  EXPECT_EQ(runWindowSums(real, nullptr, &restarts), expected);
  EXPECT_EQ(restarts, 1u);
}

}  // namespace
}  // namespace tidemark
