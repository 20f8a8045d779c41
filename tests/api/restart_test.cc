// Restart strategies and injected failures in simulated time: a job that
// fails restores every task from its latest completed checkpoint (or starts
// afresh without one), rewinds its sources, goes on, and ends with exactly
// the output of a run without failures; the strategy decides how often.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "support/counting_source.h"
#include "support/scratch_directory.h"
#include "support/sum_per_window.h"
#include "tidemark/core/log.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using testing_support::CountingSource;
using testing_support::ScratchDirectory;
using testing_support::SumPerWindow;

struct RestartJob {
  std::vector<FailureInjection> failures;
  std::optional<RestartStrategyConfiguration> strategy = RestartStrategies::fixedDelayRestart(3, 10);
  bool checkpointing = true;
  std::string storage;
};

struct RestartRun {
  std::vector<std::string> output;  // sorted
  std::optional<JobExecutionResult> result;
};

/// counting (2) -> keyBy(v % 3) -> 50 ms tumbling windows, summed -> collected
/// (2), checkpointed every 100 ms; each subtask of the source runs 300 ms.
RestartRun runRestartJob(const RestartJob& job) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime();
  if (job.checkpointing) env.enableCheckpointing(100);
  if (!job.storage.empty()) env.getCheckpointConfig().setCheckpointStorage(job.storage);
  if (job.strategy) env.setRestartStrategy(*job.strategy);
  for (const FailureInjection& failure : job.failures) env.injectFailure(failure);
  auto collected = env.addSource(CountingSource(400), "counting")
                       .keyBy([](std::int64_t v) { return v % 3; })
                       .window(TumblingEventTimeWindows::of(50))
                       .process(SumPerWindow())
                       .name("window-sum")
                       .collectToMemory();
  RestartRun run;
  run.result.emplace(env.execute("restarting windows"));
  run.output = collected->values();
  std::sort(run.output.begin(), run.output.end());
  return run;
}

const std::vector<std::string>& failureFreeOutput() {
  static const std::vector<std::string> output = runRestartJob({.failures = {}}).output;
  return output;
}

TEST(RestartTest, TheFailureFreeRunHasEveryWindow) {
  EXPECT_EQ(failureFreeOutput().size(), 3u * 8u);  // 3 keys, event time 0..399 in 50 ms windows
  EXPECT_EQ(failureFreeOutput().front(), "key 0 window 0 sum 1683");
}

TEST(RestartTest, AFailedJobRestoresItsLatestCheckpointAndEndsWithTheOutputOfARunWithoutFailures) {
  const RestartRun run = runRestartJob({.failures = {FailureInjection::atTime("window-sum", 0, 250)}});
  EXPECT_EQ(run.output, failureFreeOutput());
  const JobExecutionResult& result = *run.result;
  EXPECT_EQ(result.getNumRestarts(), 1u);
  ASSERT_EQ(result.getFailures().size(), 1u);
  EXPECT_EQ(result.getFailures()[0].timestamp, 250);
  EXPECT_EQ(result.getFailures()[0].cause,
            "window-sum -> Collect (subtask 1/2) failed: injected failure at 250 ms in operator "
            "'window-sum' (subtask 1)");
  const CheckpointStatistics& stats = result.getCheckpointStatistics();
  EXPECT_EQ(stats.num_restarts, 1u);
  EXPECT_EQ(stats.restored_checkpoint_path, "checkpoint 2 (in memory)");
  EXPECT_EQ(stats.last_checkpoint_restore_timestamp, 260);  // 10 ms after the failure
}

TEST(RestartTest, ARestartSaysWhatFailedAndWhereItGoesOnFrom) {
  std::vector<std::string> lines;
  LogHandler previous =
      setLogHandler([&lines](LogLevel, std::string_view message) { lines.emplace_back(message); });
  runRestartJob({.failures = {FailureInjection::atTime("window-sum", 1, 150)}});
  setLogHandler(std::move(previous));
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "job 'restarting windows' failed at 150 ms and restarts (restart 1, fixed delay (3 restarts, 10 ms "
                       "apart)) 10 ms later from checkpoint 1 (in memory): window-sum -> Collect (subtask 2/2) "
                       "failed: injected failure at 150 ms in operator 'window-sum' (subtask 2)"}));
}

TEST(RestartTest, AFailureBeforeTheFirstCheckpointRestartsFromTheBeginningAndTakesBackWhatWasCollected) {
  const RestartRun run = runRestartJob({.failures = {FailureInjection::atTime("window-sum", 0, 80)}});
  EXPECT_EQ(run.output, failureFreeOutput());
  EXPECT_EQ(run.result->getNumRestarts(), 1u);
  EXPECT_EQ(run.result->getCheckpointStatistics().restored_checkpoint_path, "");
}

TEST(RestartTest, AFailureAfterSomeRecordsIsExactAndRecovered) {
  const RestartRun run = runRestartJob({.failures = {FailureInjection::afterRecords("window-sum", 1, 150)}});
  EXPECT_EQ(run.output, failureFreeOutput());
  ASSERT_EQ(run.result->getFailures().size(), 1u);
  EXPECT_THAT(run.result->getFailures()[0].cause,
              testing::EndsWith("injected failure after 150 records of operator 'window-sum' (subtask 2)"));
}

TEST(RestartTest, RestartsFromTheCheckpointStorageAndNumbersCheckpointsOnAcrossAttempts) {
  ScratchDirectory dir("restart");
  const RestartRun run = runRestartJob({.failures = {FailureInjection::atTime("window-sum", 0, 250)},
                                        .storage = dir.path().string()});
  EXPECT_EQ(run.output, failureFreeOutput());
  const CheckpointStatistics& stats = run.result->getCheckpointStatistics();
  EXPECT_EQ(stats.restored_checkpoint_path, (dir.path() / "chk-2").string());
  // 1 and 2 before the failure at 250; the restart at 260 runs 35 ms more
  // (100 records of each subtask left, 3 ms per 4): no round comes before its end.
  EXPECT_EQ(stats.number_of_completed_checkpoints, 2u);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "chk-2"));  // a finished job deletes its checkpoints
}

TEST(RestartTest, FixedDelayFailsTheJobAtTheFailureBeyondItsRestarts) {
  try {
    runRestartJob({.failures = {FailureInjection::atTime("window-sum", 0, 150), FailureInjection::atTime("window-sum", 1, 250)},
                   .strategy = RestartStrategies::fixedDelayRestart(1, 0)});
    FAIL() << "the job should have failed";
  } catch (const JobExecutionException& error) {
    EXPECT_EQ(std::string(error.what()),
              "job 'restarting windows' failed (after 1 restart; fixed delay (1 restart, 0 ms apart) allows no more): "
              "window-sum -> Collect (subtask 2/2) failed: injected failure at 250 ms in operator "
              "'window-sum' (subtask 2)");
  }
}

TEST(RestartTest, FailureRateFailsTheJobAtTheNthFailureWithinTheInterval) {
  const RestartJob two_within_a_second{
      .failures = {FailureInjection::atTime("window-sum", 0, 150), FailureInjection::atTime("window-sum", 1, 250)},
      .strategy = RestartStrategies::failureRateRestart(2, 1000, 0)};
  EXPECT_THROW(runRestartJob(two_within_a_second), JobExecutionException);
  RestartJob two_apart = two_within_a_second;
  two_apart.strategy = RestartStrategies::failureRateRestart(2, 50, 0);
  const RestartRun run = runRestartJob(two_apart);
  EXPECT_EQ(run.output, failureFreeOutput());
  EXPECT_EQ(run.result->getNumRestarts(), 2u);
}

TEST(RestartTest, WithoutCheckpointingTheDefaultIsNoRestart) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  EXPECT_EQ(env.getRestartStrategy().describe(), "no restart");
  env.enableCheckpointing(100);
  EXPECT_EQ(env.getRestartStrategy().describe(), "fixed delay (unlimited restarts, 1000 ms apart)");
  try {
    runRestartJob({.failures = {FailureInjection::atTime("window-sum", 0, 150)}, .strategy = std::nullopt,
                   .checkpointing = false});
    FAIL() << "the job should have failed";
  } catch (const JobExecutionException& error) {
    EXPECT_EQ(std::string(error.what()),
              "job 'restarting windows' failed: window-sum -> Collect (subtask 1/2) failed: injected "
              "failure at 150 ms in operator 'window-sum' (subtask 1)");
  }
}

TEST(RestartTest, WithCheckpointingTheDefaultRestartsASecondLater) {
  const RestartRun run = runRestartJob({.failures = {FailureInjection::atTime("window-sum", 0, 150)}, .strategy = std::nullopt});
  EXPECT_EQ(run.output, failureFreeOutput());
  EXPECT_EQ(run.result->getCheckpointStatistics().last_checkpoint_restore_timestamp, 1150);
}

TEST(RestartTest, AnInjectionTheJobCannotHonourIsRefusedBeforeItStarts) {
  try {
    runRestartJob({.failures = {FailureInjection::atTime("no-such", 0, 10), FailureInjection::atTime("window-sum", 2, 10),
                                FailureInjection::afterRecords("counting", 0, 5)}});
    FAIL() << "the job should have been refused";
  } catch (const InvalidProgramException& error) {
    EXPECT_EQ(std::string(error.what()),
              "the job is invalid (3 problems):\n"
              "  - injectFailure(at 10 ms in operator 'no-such' (subtask 1)): the job has no operator named 'no-such'\n"
              "  - injectFailure(at 10 ms in operator 'window-sum' (subtask 3)): operator 'window-sum' has 2 subtasks\n"
              "  - injectFailure(after 5 records of operator 'counting' (subtask 1)): 'counting' is a source and "
              "receives no records; name an operator it feeds");
  }
}

/// The sum of each 50 ms window of the whole stream (windowAll), at parallelism 2 upstream.
std::vector<std::string> runWindowAllJob(const std::vector<FailureInjection>& failures) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime().enableCheckpointing(100);
  env.setRestartStrategy(RestartStrategies::fixedDelayRestart(1, 10));
  for (const FailureInjection& failure : failures) env.injectFailure(failure);
  auto collected = env.addSource(CountingSource(400), "counting")
                       .windowAll(TumblingEventTimeWindows::of(50))
                       .reduce([](std::int64_t a, std::int64_t b) { return a + b; })
                       .name("all-sum")
                       .map([](std::int64_t sum) { return fmt::format("sum {}", sum); })
                       .collectToMemory();
  const JobExecutionResult result = env.execute("window all");
  EXPECT_EQ(result.getNumRestarts(), failures.size());
  return collected->values();
}

TEST(RestartTest, AWindowAllJobIsCheckpointedAndRestoredLikeAKeyedOne) {
  const std::vector<std::string> expected = runWindowAllJob({});
  ASSERT_EQ(expected.size(), 8u);  // event time 0..399
  EXPECT_EQ(expected.front(), "sum 4950");  // 0..99: both subtasks' first 50 records
  for (Timestamp at : {150, 250}) {
    SCOPED_TRACE(fmt::format("fails at {} ms", at));
    EXPECT_EQ(runWindowAllJob({FailureInjection::atTime("all-sum", 0, at)}), expected);
  }
}

/// Numbers each value it maps, per subtask, and keeps the count in operator
/// state: the class style of Flink's map functions with state of their own.
class NumberingMapper : public MapFunction<std::int64_t, std::string>, public CheckpointedFunction {
 public:
  struct Count {
    std::int32_t subtask = 0;
    std::int64_t count = 0;
    auto fields() { return std::tie(subtask, count); }
  };

  void initializeState(FunctionInitializationContext& context) override {
    counts_ = &context.getOperatorStateStore().getUnionListState(ListStateDescriptor<Count>("numbering"));
    restored_ = counts_->get();
  }
  void snapshotState(const FunctionSnapshotContext&) override {
    // Before its first value a subtask does not know which count is its own.
    if (started_) {
      counts_->update({Count{subtask_, count_}});
    } else {
      counts_->update(restored_);
    }
  }

  std::string map(const std::int64_t& value) override {
    // CountingSource makes next * 2 + subtask: the value says whose it is.
    if (!started_) {
      subtask_ = static_cast<std::int32_t>(value % 2);
      for (const Count& restored : restored_) {
        if (restored.subtask == subtask_) count_ = restored.count;
      }
      started_ = true;
    }
    return fmt::format("value {} number {}", value, ++count_);
  }

 private:
  ListState<Count>* counts_ = nullptr;
  std::vector<Count> restored_;
  std::int32_t subtask_ = 0;
  std::int64_t count_ = 0;
  bool started_ = false;
};

std::vector<std::string> runNumberingJob(const std::vector<FailureInjection>& failures) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime().enableCheckpointing(100);
  env.setRestartStrategy(RestartStrategies::fixedDelayRestart(1, 10));
  for (const FailureInjection& failure : failures) env.injectFailure(failure);
  // A forward edge: each mapper subtask gets one source subtask's values.
  auto collected = env.addSource(CountingSource(400), "counting").map(NumberingMapper()).name("numbering").collectToMemory();
  env.execute("numbering");
  std::vector<std::string> output = collected->values();
  std::sort(output.begin(), output.end());
  return output;
}

TEST(RestartTest, AMapFunctionThatIsACheckpointedFunctionGoesOnFromItsCheckpointedState) {
  const std::vector<std::string> expected = runNumberingJob({});
  ASSERT_EQ(expected.size(), 800u);
  EXPECT_EQ(std::count(expected.begin(), expected.end(), "value 799 number 400"), 1);
  for (Timestamp at : {150, 250}) {
    SCOPED_TRACE(fmt::format("fails at {} ms", at));
    EXPECT_EQ(runNumberingJob({FailureInjection::atTime("numbering", 1, at)}), expected);
  }
}

/// A type without a TypeSerializer.
struct Opaque {
  int value = 0;
};

/// Keeps an Opaque per key, registered in open().
class KeepsOpaque : public KeyedProcessFunction<std::int64_t, std::int64_t, std::string> {
 public:
  void open() override { opaque_ = &getRuntimeContext().getState(ValueStateDescriptor<Opaque>("opaque")); }
  void processElement(const std::int64_t& v, Context&, Collector<std::string>& out) override {
    opaque_->update(Opaque{static_cast<int>(v)});
    out.collect(fmt::format("{}", v));
  }

 private:
  ValueState<Opaque>* opaque_ = nullptr;
};

std::vector<std::string> runOpaqueJob(bool checkpointing) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  if (checkpointing) env.enableCheckpointing(100);  // and so the default: restart without end
  auto collected = env.addSource(CountingSource(10), "counting")
                       .keyBy([](std::int64_t v) { return v % 3; })
                       .process(KeepsOpaque())
                       .name("keeps-opaque")
                       .collectToMemory();
  env.execute("opaque state");
  return collected->values();
}

TEST(RestartTest, AStateTypeWithoutASerializerFailsACheckpointedJobBeforeItsFirstRecordAndIsNotRestarted) {
  EXPECT_EQ(runOpaqueJob(false).size(), 10u);
  try {
    runOpaqueJob(true);
    FAIL() << "the job should have failed";
  } catch (const JobExecutionException& error) {
    EXPECT_EQ(std::string(error.what()),
              "job 'opaque state' failed (not restarted: the program is invalid): operator 'keeps-opaque' (subtask "
              "1/1) cannot be checkpointed, so the job does not start: state 'opaque' cannot be snapshotted: its "
              "value type tidemark::(anonymous namespace)::Opaque has no TypeSerializer (give it a member `auto "
              "fields() { return std::tie(a, b); }` or specialize tidemark::TypeSerializer)");
  }
}

/// The failure matrix: instants before, at and after each checkpoint round
/// (100, 200, 300 ms; at a round the barriers may be in flight, so the
/// failure falls into an alignment), near the end of the input, and counts
/// of records from the first to the last, on both window subtasks.
std::vector<FailureInjection> failurePoints() {
  std::vector<FailureInjection> points;
  for (Timestamp t : {1, 40, 99, 100, 101, 160, 199, 200, 201, 240, 280, 297, 298, 299, 300}) {
    points.push_back(FailureInjection::atTime("window-sum", static_cast<int>(t % 2), t));
  }
  // Subtask 2 gets one key's 267 records, subtask 1 the other two keys' 533.
  for (std::uint64_t n : {0, 1, 7, 60, 133, 134, 200, 265, 267, 300, 333, 399, 400, 500, 532}) {
    points.push_back(FailureInjection::afterRecords("window-sum", n < 267 ? static_cast<int>(n % 2) : 0, n));
  }
  return points;
}

TEST(RestartTest, EveryFailurePointOfTheMatrixEndsWithTheOutputOfARunWithoutFailures) {
  const std::vector<FailureInjection> points = failurePoints();
  ASSERT_EQ(points.size(), 30u);
  for (const FailureInjection& point : points) {
    const RestartRun run = runRestartJob({.failures = {point}});
    EXPECT_EQ(run.output, failureFreeOutput()) << point.describe();
    EXPECT_EQ(run.result->getNumRestarts(), 1u) << point.describe();
  }
}

}  // namespace
}  // namespace tidemark
