// Checkpointing a running job in simulated time: barriers injected at the
// sources on the job's clock, aligned at every keyed task, snapshots stored
// in chk-<id> directories, notifyCheckpointComplete after each; a job that
// fails is restored from its latest checkpoint in a new environment and
// ends with exactly the output of a run that never failed.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "support/counting_source.h"
#include "support/logging_sink.h"
#include "support/scratch_directory.h"
#include "tidemark/internal/checkpoint/file_checkpoint_storage.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using testing_support::CountingSource;
using testing_support::LoggingSink;
using testing_support::ScratchDirectory;
using testing_support::SinkLog;

struct JobOptions {
  std::int64_t per_subtask = 400;
  std::int64_t fail_at = -1;  // the value whose map throws; -1: none
  std::filesystem::path storage;
  std::string restore;
  CheckpointingMode mode = CheckpointingMode::EXACTLY_ONCE;
};

/// source (2) -> map -> keyBy(v % 3) -> 50 ms event-time windows, summed -> sink (2).
JobExecutionResult runWindowJob(const std::shared_ptr<SinkLog>& log, const JobOptions& options) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime();
  env.enableCheckpointing(100, options.mode);
  if (!options.storage.empty()) env.getCheckpointConfig().setCheckpointStorage(options.storage.string());
  if (!options.restore.empty()) env.setRestorePath(options.restore);
  const std::int64_t fail_at = options.fail_at;
  env.addSource(CountingSource(options.per_subtask), "counting")
      .map([fail_at](std::int64_t v) {
        if (v == fail_at) throw std::runtime_error(fmt::format("injected failure at {}", v));
        return v;
      })
      .name("fail-at")
      .keyBy([](std::int64_t v) { return v % 3; })
      .window(TumblingEventTimeWindows::of(50))
      .reduce([](std::int64_t a, std::int64_t b) { return a + b; })
      .name("window-sum")
      .map([](std::int64_t sum) { return fmt::format("sum {}", sum); })
      .addSink(LoggingSink(log))
      .name("log");
  return env.execute("checkpointed windows");
}

TEST(CheckpointingTest, CompletesACheckpointEveryIntervalAndTellsEverySinkSubtask) {
  auto log = std::make_shared<SinkLog>();
  const JobExecutionResult result = runWindowJob(log, {});
  const CheckpointStatistics& stats = result.getCheckpointStatistics();
  // Each subtask emits 400 records with a 3 ms sleep after every fourth, so
  // its last sleep ends at 300 ms: trigger rounds at 100, 200 and 300 ms.
  // The one at 300 ms comes first (its timer was set at 200 ms, the last
  // wake-up at 297 ms), while both sources still sleep.
  EXPECT_EQ(stats.number_of_completed_checkpoints, 3u);
  EXPECT_EQ(stats.last_checkpoint_duration, 0);  // simulated time stands still while barriers flow
  EXPECT_GT(stats.last_checkpoint_size, 0u);
  EXPECT_EQ(stats.last_checkpoint_restore_timestamp, -1);
  EXPECT_EQ(log->completed[0], (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(log->completed[1], (std::vector<std::int64_t>{1, 2, 3}));
}

TEST(CheckpointingTest, OutputDoesNotDependOnCheckpointing) {
  auto with = std::make_shared<SinkLog>();
  runWindowJob(with, {});
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime();
  auto without = std::make_shared<SinkLog>();
  env.addSource(CountingSource(400), "counting")
      .keyBy([](std::int64_t v) { return v % 3; })
      .window(TumblingEventTimeWindows::of(50))
      .reduce([](std::int64_t a, std::int64_t b) { return a + b; })
      .map([](std::int64_t sum) { return fmt::format("sum {}", sum); })
      .addSink(LoggingSink(without));
  env.execute("without checkpoints");
  EXPECT_EQ(with->sortedLines(), without->sortedLines());
  EXPECT_EQ(with->sortedLines().size(), 3u * 8u);  // 3 keys, event time 0..399 in 50 ms windows
}

TEST(CheckpointingTest, AJobRestoredAfterAFailureEndsWithTheOutputOfARunWithoutOne) {
  auto expected = std::make_shared<SinkLog>();
  runWindowJob(expected, {});

  ScratchDirectory dir("checkpointing");
  auto log = std::make_shared<SinkLog>();
  EXPECT_THROW(runWindowJob(log, {.fail_at = 500, .storage = dir.path()}), JobExecutionException);
  // Value 500 is subtask 0's record 250, emitted at 186 ms: after checkpoint
  // 1 (100 ms), before 2 (200 ms). A failed job keeps its checkpoints.
  const std::vector<std::int64_t> kept = internal::FileCheckpointStorage(dir.path()).completedCheckpoints();
  ASSERT_EQ(kept, (std::vector<std::int64_t>{1}));

  const JobExecutionResult restored = runWindowJob(log, {.storage = dir.path(), .restore = dir.path().string()});
  EXPECT_GT(log->cut, 0u) << "the failed run wrote lines after its last checkpoint, which the restore takes back";
  EXPECT_EQ(log->sortedLines(), expected->sortedLines());
  EXPECT_EQ(restored.getCheckpointStatistics().last_checkpoint_restore_timestamp, 0);
  // Ids go on after the restored checkpoint's; a finished job deletes its checkpoints.
  EXPECT_TRUE(internal::FileCheckpointStorage(dir.path()).completedCheckpoints().empty());
}

TEST(CheckpointingTest, AtLeastOnceCheckpointsWithoutBlockingAndGivesTheSameOutputWithoutFailures) {
  auto expected = std::make_shared<SinkLog>();
  runWindowJob(expected, {});
  auto log = std::make_shared<SinkLog>();
  const JobExecutionResult result = runWindowJob(log, {.mode = CheckpointingMode::AT_LEAST_ONCE});
  EXPECT_EQ(result.getCheckpointStatistics().number_of_completed_checkpoints, 3u);
  EXPECT_EQ(log->sortedLines(), expected->sortedLines());
}

TEST(CheckpointingTest, RestoringFromADirectoryWithoutCheckpointsFailsNamingIt) {
  ScratchDirectory dir("checkpointing");
  auto log = std::make_shared<SinkLog>();
  try {
    runWindowJob(log, {.restore = dir.path().string()});
    FAIL() << "the restore should have failed";
  } catch (const JobExecutionException& error) {
    EXPECT_EQ(std::string(error.what()), fmt::format("cannot restore from {0}: {0} holds no completed checkpoint",
                                                     dir.path().string()));
  }
}

TEST(CheckpointingTest, RestoringStateOfAnOperatorTheJobLacksFailsNamingItUnlessAllowed) {
  ScratchDirectory dir("checkpointing");
  auto log = std::make_shared<SinkLog>();
  EXPECT_THROW(runWindowJob(log, {.fail_at = 500, .storage = dir.path()}), JobExecutionException);
  const std::string checkpoint = (dir.path() / "chk-1").string();
  auto build = [&](bool allow) {
    auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
    env.enableSimulatedTime().setRestorePath(checkpoint).setAllowNonRestoredState(allow);
    env.addSource(CountingSource(400), "counting").map([](std::int64_t v) { return fmt::format("{}", v); }).addSink(LoggingSink(log));
    return env.execute("other job");
  };
  try {
    build(false);
    FAIL() << "the restore should have failed";
  } catch (const JobExecutionException& error) {
    EXPECT_EQ(std::string(error.what()),
              fmt::format("cannot restore from {}: it holds state of operator 'auto-1-fail-at', which this job does not "
                          "have (give the operator the same uid, or setAllowNonRestoredState(true) to skip that state)",
                          checkpoint));
  }
  // Allowed: the source (the same id) goes on from its checkpointed position.
  log->lines.clear();
  build(true);
  const std::vector<std::string> lines = log->sortedLines();
  EXPECT_EQ(lines.size(), 800u - 2u * 136u);  // checkpoint 1 at 100 ms: 136 records per subtask were out
}

/// Passes records on; its snapshot always fails.
class Unsnapshottable : public ProcessFunction<std::int64_t, std::int64_t>, public CheckpointedFunction {
 public:
  void processElement(const std::int64_t& v, Context&, Collector<std::int64_t>& out) override { out.collect(v); }
  void initializeState(FunctionInitializationContext&) override {}
  void snapshotState(const FunctionSnapshotContext& ctx) override {
    throw std::runtime_error(fmt::format("no room for checkpoint {}", ctx.getCheckpointId()));
  }
};

JobExecutionResult runUnsnapshottable(int tolerable) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime().enableCheckpointing(100);
  env.getCheckpointConfig().setTolerableCheckpointFailureNumber(tolerable);
  auto log = std::make_shared<SinkLog>();
  env.addSource(CountingSource(400), "counting")
      .process(Unsnapshottable())
      .name("unsnapshottable")
      .map([](std::int64_t v) { return fmt::format("{}", v); })
      .addSink(LoggingSink(log));
  return env.execute("declining job");
}

TEST(CheckpointingTest, ADeclinedCheckpointFailsTheJobBeyondTheTolerableNumberNamingTheReason) {
  try {
    runUnsnapshottable(0);
    FAIL() << "the job should have failed";
  } catch (const JobExecutionException& error) {
    EXPECT_EQ(std::string(error.what()),
              "job 'declining job' failed: 1 consecutive checkpoint failure exceed the tolerable number 0; the last: "
              "checkpoint 1 was declined by counting -> unsnapshottable -> Map -> Sink (subtask 1/1): the snapshot of "
              "operator 'unsnapshottable' (subtask 1/1) failed: no room for checkpoint 1");
  }
}

TEST(CheckpointingTest, DeclinedCheckpointsWithinTheTolerableNumberAreCountedAndTheJobGoesOn) {
  const JobExecutionResult result = runUnsnapshottable(10);
  // At 1 record per 0.75 ms the single subtask runs 300 ms: three rounds, all declined.
  EXPECT_EQ(result.getCheckpointStatistics().number_of_completed_checkpoints, 0u);
  EXPECT_EQ(result.getCheckpointStatistics().number_of_failed_checkpoints, 3u);
}

TEST(CheckpointingTest, CheckpointConfigRefusesWhatItCannotHonour) {
  CheckpointConfig config;
  EXPECT_THROW(config.setCheckpointInterval(0), std::invalid_argument);
  EXPECT_THROW(config.setMaxRetainedCheckpoints(0), std::invalid_argument);
  try {
    config.setMaxConcurrentCheckpoints(2);
    FAIL();
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()),
              "CheckpointConfig::setMaxConcurrentCheckpoints(2): tidemark runs one checkpoint at a time; only 1 is "
              "supported");
  }
  EXPECT_FALSE(config.isCheckpointingEnabled());
  EXPECT_TRUE(config.setCheckpointInterval(5).isCheckpointingEnabled());
}

}  // namespace
}  // namespace tidemark
