// Checkpointing a running job in simulated time: barriers injected at the
// sources on the job's clock, aligned at every keyed task, snapshots stored
// in chk-<id> directories, notifyCheckpointComplete after each; a job that
// fails is restored from its latest checkpoint in a new environment and
// ends with exactly the output of a run that never failed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "support/counting_source.h"
#include "support/logging_sink.h"
#include "support/scratch_directory.h"
#include "tidemark/connectors/socket_text_source.h"
#include "tidemark/core/log.h"
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
  int max_parallelism = kDefaultMaxParallelism;
  int retained = 1;
  Duration interval = 100;
};

/// source (2) -> map -> keyBy(v % 3) -> 50 ms event-time windows, summed -> sink (2).
JobExecutionResult runWindowJob(const std::shared_ptr<SinkLog>& log, const JobOptions& options) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime();
  env.enableCheckpointing(options.interval, options.mode);
  env.setMaxParallelism(options.max_parallelism);
  env.getCheckpointConfig().setMaxRetainedCheckpoints(options.retained);
  if (!options.storage.empty()) env.getCheckpointConfig().setCheckpointStorage(options.storage.string());
  if (!options.restore.empty()) env.setRestorePath(options.restore);
  // A failure ends the process here; a new environment restores (restarts: restart_test.cc).
  env.setRestartStrategy(RestartStrategies::noRestart());
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
  EXPECT_EQ(stats.restored_checkpoint_path, "");
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
  EXPECT_EQ(restored.getCheckpointStatistics().restored_checkpoint_path, (dir.path() / "chk-1").string());
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

TEST(CheckpointingTest, AJobRestoredInItsOwnStorageDeletesTheCheckpointsItWentOnWithWhenItFinishes) {
  ScratchDirectory dir("checkpointing");
  auto log = std::make_shared<SinkLog>();
  EXPECT_THROW(runWindowJob(log, {.fail_at = 500, .storage = dir.path()}), JobExecutionException);
  // What a crash while writing checkpoint 2 leaves: a directory without _metadata.
  std::filesystem::create_directory(dir.path() / "chk-2");
  // Every 1000 ms: the restored run (200 ms to 300 ms) completes none of its own.
  const JobExecutionResult restored =
      runWindowJob(log, {.storage = dir.path(), .restore = dir.path().string(), .interval = 1000});
  EXPECT_EQ(restored.getCheckpointStatistics().number_of_completed_checkpoints, 0u);
  EXPECT_EQ(restored.getCheckpointStatistics().restored_checkpoint_path, (dir.path() / "chk-1").string());
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(CheckpointingTest, AJobRestoredFromAnotherDirectoryLeavesItsCheckpointsThere) {
  ScratchDirectory first("checkpointing-first");
  ScratchDirectory second("checkpointing-second");
  auto log = std::make_shared<SinkLog>();
  EXPECT_THROW(runWindowJob(log, {.fail_at = 500, .storage = first.path()}), JobExecutionException);
  runWindowJob(log, {.storage = second.path(), .restore = first.path().string()});
  EXPECT_EQ(internal::FileCheckpointStorage(first.path()).completedCheckpoints(), (std::vector<std::int64_t>{1}));
  EXPECT_TRUE(std::filesystem::is_empty(second.path()));
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

/// Collects the log lines written while it lives, instead of standard error.
class CapturedLog {
 public:
  CapturedLog()
      : previous_(setLogHandler([this](LogLevel level, std::string_view message) {
          lines_.push_back(fmt::format("{} {}", logLevelName(level), message));
        })) {}
  CapturedLog(const CapturedLog&) = delete;
  CapturedLog& operator=(const CapturedLog&) = delete;
  ~CapturedLog() { setLogHandler(std::move(previous_)); }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::vector<std::string> lines_;
  LogHandler previous_;
};

/// Flips a byte in the middle of `file`.
void corrupt(const std::filesystem::path& file) {
  std::fstream io(file, std::ios::in | std::ios::out | std::ios::binary);
  ASSERT_TRUE(io) << file;
  io.seekg(0, std::ios::end);
  const std::streamoff middle = io.tellg() / 2;
  char byte = 0;
  io.seekg(middle);
  io.get(byte);
  io.seekp(middle);
  io.put(static_cast<char>(byte ^ 0x5a));
}

/// Fails at value 700 (subtask 0's record 350, at 262 ms): after checkpoints
/// 1 (100 ms) and 2 (200 ms), both retained in `dir`.
void failAfterTwoCheckpoints(const std::shared_ptr<SinkLog>& log, const ScratchDirectory& dir) {
  EXPECT_THROW(runWindowJob(log, {.fail_at = 700, .storage = dir.path(), .retained = 2}), JobExecutionException);
  ASSERT_EQ(internal::FileCheckpointStorage(dir.path()).completedCheckpoints(), (std::vector<std::int64_t>{1, 2}));
}

TEST(CheckpointingTest, RestoringLatestPassesOverACorruptNewestCheckpointSayingSoAndTheOutputIsStillExact) {
  auto expected = std::make_shared<SinkLog>();
  runWindowJob(expected, {});
  ScratchDirectory dir("checkpointing");
  auto log = std::make_shared<SinkLog>();
  failAfterTwoCheckpoints(log, dir);
  const std::filesystem::path newest = dir.path() / "chk-2";
  corrupt(newest / "state-0");

  CapturedLog captured;
  const JobExecutionResult restored = runWindowJob(log, {.storage = dir.path(), .restore = dir.path().string()});
  EXPECT_EQ(log->sortedLines(), expected->sortedLines());
  EXPECT_EQ(restored.getCheckpointStatistics().last_checkpoint_restore_timestamp, 0);
  EXPECT_EQ(restored.getCheckpointStatistics().restored_checkpoint_path, (dir.path() / "chk-1").string());
  const std::string d = dir.path().string();
  EXPECT_EQ(captured.lines(),
            (std::vector<std::string>{
                fmt::format("WARNING restoring from {0}: skipped a checkpoint that is not intact: checkpoint state "
                            "file {1}/state-0 (operator 'auto-0-counting', subtask 0): the checksum does not match: "
                            "the file is corrupt",
                            d, newest.string()),
                fmt::format("WARNING restoring from {0}: restoring the newest intact checkpoint, {0}/chk-1", d)}));
}

TEST(CheckpointingTest, RestoringLatestFailsWhenNoCheckpointIsIntactNamingEach) {
  ScratchDirectory dir("checkpointing");
  auto log = std::make_shared<SinkLog>();
  failAfterTwoCheckpoints(log, dir);
  const std::filesystem::path first = dir.path() / "chk-1";
  const std::filesystem::path second = dir.path() / "chk-2";
  std::filesystem::remove(first / "state-0");
  std::filesystem::resize_file(second / "_metadata", 10);
  const std::string d = dir.path().string();
  try {
    runWindowJob(log, {.restore = d});
    FAIL() << "the restore should have failed";
  } catch (const JobExecutionException& error) {
    EXPECT_EQ(std::string(error.what()),
              fmt::format("cannot restore from {0}: {0} holds no intact checkpoint: checkpoint metadata "
                          "{1}/_metadata: 10 bytes, too few for a checkpoint's metadata; checkpoint state file "
                          "{2}/state-0 (operator 'auto-0-counting', subtask 0) is missing",
                          d, second.string(), first.string()));
  }
}

TEST(CheckpointingTest, RestoringAtAnotherMaxParallelismFailsNamingBoth) {
  ScratchDirectory dir("checkpointing");
  auto log = std::make_shared<SinkLog>();
  EXPECT_THROW(runWindowJob(log, {.fail_at = 500, .storage = dir.path()}), JobExecutionException);
  const std::string d = dir.path().string();
  try {
    runWindowJob(log, {.restore = d, .max_parallelism = 64});
    FAIL() << "the restore should have failed";
  } catch (const JobExecutionException& error) {
    EXPECT_EQ(std::string(error.what()),
              fmt::format("cannot restore from {0}: {0}/chk-1 was taken with max parallelism {1} and this job has "
                          "max parallelism 64: the max parallelism cannot change across a restore "
                          "(setMaxParallelism({1}))",
                          d, kDefaultMaxParallelism));
  }
}

/// Emits 1, 2, 3 and keeps no position: a restore cannot rewind it.
class StatelessSource : public ParallelSourceFunction<std::int64_t> {
 public:
  void run(SourceContext<std::int64_t>& ctx) override {
    for (std::int64_t v = 1; v <= 3; ++v) ctx.collect(v);
  }
};

std::vector<std::string> logOfStatelessJob(bool checkpointing) {
  CapturedLog captured;
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime();
  if (checkpointing) env.enableCheckpointing(100);
  auto log = std::make_shared<SinkLog>();
  env.addSource(StatelessSource(), "stateless")
      .map([](std::int64_t v) { return fmt::format("{}", v); })
      .addSink(LoggingSink(log));
  env.execute("stateless source");
  EXPECT_EQ(log->sortedLines().size(), 6u);
  return captured.lines();
}

// The socket source is such a source: what the server sent is gone.
static_assert(!std::is_base_of_v<CheckpointedFunction, SocketTextSource>);

TEST(CheckpointingTest, ASourceThatKeepsNoPositionSaysItIsNotReplayableWhenCheckpointingIsOn) {
  const std::string warning =
      "WARNING source operator 'stateless' (subtask {}/2) is not replayable: it keeps no position in checkpoints (it "
      "is not a CheckpointedFunction), so a restored job runs it afresh instead of from the checkpoint, and "
      "exactly-once does not cover its records";
  std::vector<std::string> lines = logOfStatelessJob(true);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{fmt::format(fmt::runtime(warning), 1), fmt::format(fmt::runtime(warning), 2)}));
  EXPECT_TRUE(logOfStatelessJob(false).empty());
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
  env.setRestartStrategy(RestartStrategies::noRestart());
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
