// FileSink: part files that become visible only when the checkpoint after
// them completes, so that what a job committed after failures, restarts,
// restores that fall back past a checkpoint, and rescales is exactly what a
// run without failures commits. All in simulated time.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "support/counting_source.h"
#include "support/scratch_directory.h"
#include "support/sum_per_window.h"
#include "tidemark/connectors/file/file_sink.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

namespace fs = std::filesystem;
using testing_support::CountingSource;
using testing_support::ScratchDirectory;
using testing_support::SumPerWindow;

/// What a directory of part files holds.
struct Committed {
  std::map<std::string, std::string> files;  // relative path of each committed part: its text
  std::vector<std::string> hidden;           // relative paths of parts still in progress

  /// Each writer's committed parts in counter order, concatenated: what a
  /// subtask wrote, whatever its parts' boundaries.
  std::map<int, std::string> perWriter() const {
    std::map<int, std::map<std::int64_t, std::string>> ordered;
    for (const auto& [path, text] : files) {
      int writer = 0;
      std::int64_t counter = 0;
      const std::string name = fs::path(path).filename().string();
      EXPECT_EQ(std::sscanf(name.c_str(), "part-%d-%ld", &writer, &counter), 2) << name;
      ordered[writer][counter] = text;
    }
    std::map<int, std::string> out;
    for (const auto& [writer, parts] : ordered) {
      for (const auto& [counter, text] : parts) out[writer] += text;
    }
    return out;
  }
  /// Every committed line, sorted.
  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    for (const auto& [path, text] : files) {
      std::istringstream in(text);
      for (std::string line; std::getline(in, line);) out.push_back(line);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
};

Committed readParts(const fs::path& base) {
  Committed out;
  if (!fs::exists(base)) return out;
  for (const auto& entry : fs::recursive_directory_iterator(base)) {
    if (!entry.is_regular_file()) continue;
    const std::string relative = fs::relative(entry.path(), base).string();
    if (entry.path().filename().string().starts_with(".")) {
      out.hidden.push_back(relative);
      continue;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    out.files[relative] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::sort(out.hidden.begin(), out.hidden.end());
  return out;
}

std::vector<std::string> names(const Committed& committed) {
  std::vector<std::string> out;
  for (const auto& [path, text] : committed.files) out.push_back(path);
  return out;
}

enum class Rolling { ON_CHECKPOINT, BY_SIZE, DEFAULT };

struct SinkJob {
  fs::path output;
  int parallelism = 2;
  Rolling rolling = Rolling::ON_CHECKPOINT;
  bool checkpointing = true;
  Duration checkpoint_interval = 50;
  std::string storage;  // checkpoint storage directory, or in memory
  std::string restore;  // setRestorePath
  std::optional<RestartStrategyConfiguration> strategy = RestartStrategies::fixedDelayRestart(3, 10);
  std::vector<FailureInjection> failures;
};

std::shared_ptr<const RollingPolicy> policyFor(Rolling rolling) {
  switch (rolling) {
    case Rolling::ON_CHECKPOINT:
      return OnCheckpointRollingPolicy::build();
    case Rolling::BY_SIZE:
      return DefaultRollingPolicy::builder().withMaxPartSize(100).build();
    case Rolling::DEFAULT:
      break;
  }
  return DefaultRollingPolicy::builder().build();
}

/// counting (1) -> keyBy(v % 5) -> 20 ms tumbling windows, summed (p) ->
/// FileSink (p), checkpointed every 50 ms (by default); the source runs 300 ms.
JobExecutionResult runSinkJob(const SinkJob& job) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(job.parallelism);
  env.enableSimulatedTime();
  if (job.checkpointing) env.enableCheckpointing(job.checkpoint_interval);
  if (!job.storage.empty()) {
    env.getCheckpointConfig().setCheckpointStorage(job.storage);
    env.getCheckpointConfig().setMaxRetainedCheckpoints(3);
  }
  if (!job.restore.empty()) env.setRestorePath(job.restore);
  if (job.strategy) env.setRestartStrategy(*job.strategy);
  for (const FailureInjection& failure : job.failures) env.injectFailure(failure);
  env.addSource(CountingSource(400), "counting")
      .setParallelism(1)
      .keyBy([](std::int64_t v) { return v % 5; })
      .window(TumblingEventTimeWindows::of(20))
      .process(SumPerWindow())
      .name("window-sum")
      .uid("window-sum")
      .sinkTo(FileSink<std::string>::forRowFormat(job.output.string(), SimpleStringEncoder<std::string>())
                  .withRollingPolicy(policyFor(job.rolling))
                  .build())
      .name("files")
      .uid("files");
  return env.execute("file sink job");
}

/// What a run without failures commits, at parallelism `p` with `rolling`.
const Committed& failureFree(int p, Rolling rolling) {
  static std::map<std::pair<int, Rolling>, Committed> runs;
  auto found = runs.find({p, rolling});
  if (found == runs.end()) {
    ScratchDirectory dir(fmt::format("file-sink-free-{}-{}", p, static_cast<int>(rolling)));
    runSinkJob({.output = dir.path() / "out", .parallelism = p, .rolling = rolling});
    found = runs.emplace(std::make_pair(p, rolling), readParts(dir.path() / "out")).first;
  }
  return found->second;
}

TEST(FileSinkTest, WithoutCheckpointsEachSubtaskCommitsOnePartWhenTheInputEnds) {
  ScratchDirectory dir("file-sink-bounded");
  runSinkJob({.output = dir.path() / "out", .rolling = Rolling::DEFAULT, .checkpointing = false});
  const Committed committed = readParts(dir.path() / "out");
  EXPECT_EQ(names(committed), (std::vector<std::string>{"part-0-0", "part-1-0"}));
  EXPECT_THAT(committed.hidden, testing::IsEmpty());
  EXPECT_EQ(committed.lines().size(), 5u * 20u);  // 5 keys, event time 0..399 in 20 ms windows
  EXPECT_EQ(committed.lines(), failureFree(2, Rolling::ON_CHECKPOINT).lines());
}

TEST(FileSinkTest, OnCheckpointRollingCommitsAPartPerCheckpointPeriod) {
  const Committed& committed = failureFree(2, Rolling::ON_CHECKPOINT);
  EXPECT_THAT(committed.hidden, testing::IsEmpty());
  // Checkpoints at 50, 100, ... 300 ms and the end: a part for each period a subtask wrote in.
  EXPECT_GE(committed.files.size(), 10u);
  EXPECT_EQ(committed.files.count("part-0-0"), 1u);
  EXPECT_EQ(committed.files.count("part-1-0"), 1u);
  EXPECT_EQ(committed.lines().size(), 100u);
}

TEST(FileSinkTest, ASizeLimitRollsPartsOnceTheyReachIt) {
  const Committed& committed = failureFree(2, Rolling::BY_SIZE);
  for (const auto& [path, text] : committed.files) {
    // Rolled before the record that would follow 100 bytes; a line is under 40.
    EXPECT_LT(text.size(), 140u) << path;
  }
  EXPECT_EQ(committed.perWriter(), failureFree(2, Rolling::ON_CHECKPOINT).perWriter());
}

TEST(FileSinkTest, NothingIsVisibleBeforeTheCheckpointAfterItCompletes) {
  ScratchDirectory dir("file-sink-visible");
  // Fails for good at 120 ms: checkpoints 1 (50 ms) and 2 (100 ms) completed.
  EXPECT_THROW(runSinkJob({.output = dir.path() / "out",
                           .strategy = RestartStrategies::noRestart(),
                           .failures = {FailureInjection::atTime("window-sum", 0, 120)}}),
               std::exception);
  const Committed committed = readParts(dir.path() / "out");
  // What is committed is where each subtask stood at checkpoint 2: a
  // beginning of what it writes in a run without failures, and the rest hidden.
  const std::map<int, std::string> complete = failureFree(2, Rolling::ON_CHECKPOINT).perWriter();
  for (const auto& [writer, text] : committed.perWriter()) {
    EXPECT_TRUE(complete.at(writer).starts_with(text)) << writer;
    EXPECT_LT(text.size(), complete.at(writer).size()) << writer;
  }
  EXPECT_EQ(committed.perWriter().size(), 2u);
  EXPECT_FALSE(committed.hidden.empty());
}

/// Failure points: before, at and after the checkpoint rounds (50 ms
/// apart), between them, and near the end of the input (300 ms).
struct FailurePoint {
  int subtask;
  Timestamp at;
};

class FileSinkFailureTest : public testing::TestWithParam<std::tuple<Rolling, FailurePoint>> {};

TEST_P(FileSinkFailureTest, TheCommittedPartsAfterARestartHoldWhatARunWithoutFailuresCommits) {
  const auto [rolling, point] = GetParam();
  ScratchDirectory dir(fmt::format("file-sink-fail-{}-{}-{}", static_cast<int>(rolling), point.subtask, point.at));
  const JobExecutionResult result =
      runSinkJob({.output = dir.path() / "out",
                  .rolling = rolling,
                  .failures = {FailureInjection::atTime("window-sum", point.subtask, point.at)}});
  EXPECT_EQ(result.getNumRestarts(), 1u);
  const Committed committed = readParts(dir.path() / "out");
  EXPECT_THAT(committed.hidden, testing::IsEmpty());
  // Byte for byte, per subtask: every record once, in the order written.
  EXPECT_EQ(committed.perWriter(), failureFree(2, rolling).perWriter());
}

std::string failureName(const testing::TestParamInfo<std::tuple<Rolling, FailurePoint>>& info) {
  const auto [rolling, point] = info.param;
  const char* policy = rolling == Rolling::ON_CHECKPOINT ? "OnCheckpoint" : rolling == Rolling::BY_SIZE ? "BySize"
                                                                                                           : "Default";
  return fmt::format("{}_subtask{}_at{}ms", policy, point.subtask, point.at);
}

INSTANTIATE_TEST_SUITE_P(FailurePoints, FileSinkFailureTest,
                         testing::Combine(testing::Values(Rolling::ON_CHECKPOINT, Rolling::BY_SIZE, Rolling::DEFAULT),
                                          testing::Values(FailurePoint{0, 10}, FailurePoint{1, 49},
                                                          FailurePoint{0, 50}, FailurePoint{1, 51},
                                                          FailurePoint{0, 75}, FailurePoint{1, 100},
                                                          FailurePoint{0, 149}, FailurePoint{1, 150},
                                                          FailurePoint{0, 201}, FailurePoint{1, 250},
                                                          FailurePoint{0, 299}, FailurePoint{1, 300})),
                         failureName);

/// Flips a byte in every state file of a checkpoint directory.
void corrupt(const fs::path& checkpoint) {
  for (const auto& entry : fs::directory_iterator(checkpoint)) {
    if (!entry.path().filename().string().starts_with("state-")) continue;
    std::fstream file(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(0);
    const char first = static_cast<char>(file.get());
    file.seekp(0);
    file.put(static_cast<char>(first ^ 0x5a));
  }
}

std::int64_t newestCheckpoint(const fs::path& storage) {
  std::int64_t newest = 0;
  for (const auto& entry : fs::directory_iterator(storage)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("chk-")) newest = std::max<std::int64_t>(newest, std::stoll(name.substr(4)));
  }
  return newest;
}

TEST(FileSinkTest, ARestoreThatFallsBackPastCommittedCheckpointsTakesTheirPartsBack) {
  // BY_SIZE: parts committed at checkpoints and parts in progress across them.
  for (const Rolling rolling : {Rolling::ON_CHECKPOINT, Rolling::BY_SIZE}) {
    SCOPED_TRACE(static_cast<int>(rolling));
    ScratchDirectory dir(fmt::format("file-sink-fallback-{}", static_cast<int>(rolling)));
    const fs::path out = dir.path() / "out";
    const std::string storage = (dir.path() / "checkpoints").string();
    EXPECT_THROW(runSinkJob({.output = out,
                             .rolling = rolling,
                             .storage = storage,
                             .strategy = RestartStrategies::noRestart(),
                             .failures = {FailureInjection::atTime("window-sum", 1, 220)}}),
                 std::exception);
    const std::size_t committed_before = readParts(out).files.size();
    ASSERT_EQ(newestCheckpoint(storage), 4);  // 50, 100, 150 and 200 ms; 2 to 4 retained
    corrupt(fs::path(storage) / "chk-4");
    corrupt(fs::path(storage) / "chk-3");

    // A new process: restores chk-2, so what chk-3 and chk-4 committed must
    // go. It takes no checkpoint, so it writes fewer parts than the first
    // did after chk-2, and none of those is replaced by one of the same name.
    runSinkJob({.output = out, .rolling = rolling, .checkpoint_interval = 10'000, .storage = storage,
                .restore = storage});
    const Committed committed = readParts(out);
    if (rolling == Rolling::ON_CHECKPOINT) {
      EXPECT_LT(committed.files.size(), committed_before);
    }
    EXPECT_THAT(committed.hidden, testing::IsEmpty());
    EXPECT_EQ(committed.perWriter(), failureFree(2, rolling).perWriter());
  }
}

TEST(FileSinkTest, ARestoreAtAnotherParallelismCommitsEveryRecordOnce) {
  for (const auto& [before, after] : {std::pair{2, 1}, std::pair{1, 2}}) {
    SCOPED_TRACE(fmt::format("{} -> {}", before, after));
    ScratchDirectory dir(fmt::format("file-sink-rescale-{}-{}", before, after));
    const fs::path out = dir.path() / "out";
    const std::string storage = (dir.path() / "checkpoints").string();
    EXPECT_THROW(runSinkJob({.output = out,
                             .parallelism = before,
                             .rolling = Rolling::DEFAULT,
                             .storage = storage,
                             .strategy = RestartStrategies::noRestart(),
                             .failures = {FailureInjection::atTime("window-sum", before - 1, 130)}}),
                 std::exception);
    runSinkJob({.output = out, .parallelism = after, .rolling = Rolling::DEFAULT, .storage = storage,
                .restore = storage});
    const Committed committed = readParts(out);
    EXPECT_THAT(committed.hidden, testing::IsEmpty());
    EXPECT_EQ(committed.lines(), failureFree(2, Rolling::ON_CHECKPOINT).lines());
  }
}

TEST(FileSinkTest, AFreshStartNumbersItsPartsAboveThoseInTheDirectoryAndLeavesThemAlone) {
  ScratchDirectory dir("file-sink-existing");
  const fs::path out = dir.path() / "out";
  fs::create_directories(out);
  std::ofstream(out / "part-0-6") << "from before\n";
  std::ofstream(out / "notes.txt") << "not a part\n";
  // A failure before the first checkpoint: the restart takes back what the
  // first attempt committed (nothing yet) and wrote, and nothing older.
  runSinkJob({.output = out, .failures = {FailureInjection::atTime("window-sum", 0, 30)}});
  const Committed committed = readParts(out);
  EXPECT_EQ(committed.files.at("part-0-6"), "from before\n");
  EXPECT_EQ(committed.files.at("notes.txt"), "not a part\n");
  EXPECT_EQ(committed.files.count("part-0-7"), 1u);
  EXPECT_EQ(committed.files.count("part-1-7"), 1u);
  EXPECT_EQ(committed.files.count("part-0-0"), 0u);
  std::vector<std::string> lines = committed.lines();
  lines.erase(std::remove(lines.begin(), lines.end(), "from before"), lines.end());
  lines.erase(std::remove(lines.begin(), lines.end(), "not a part"), lines.end());
  EXPECT_EQ(lines, failureFree(2, Rolling::ON_CHECKPOINT).lines());
}

TEST(FileSinkTest, DateTimeBucketsNameADirectoryPerPeriodOfProcessingTime) {
  ScratchDirectory dir("file-sink-buckets");
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  env.fromElements<std::string>({"a", "b", "c"})
      .sinkTo(FileSink<std::string>::forRowFormat(dir.path().string(), SimpleStringEncoder<std::string>())
                  .withBucketAssigner(DateTimeBucketAssigner<std::string>("yyyy-MM-dd--HH-mm"))
                  .withOutputFileConfig(OutputFileConfig::builder().withPartPrefix("rows").withPartSuffix(".txt").build())
                  .build());
  env.execute();
  const Committed committed = readParts(dir.path());
  EXPECT_EQ(committed.files, (std::map<std::string, std::string>{{"1970-01-01--00-00/rows-0-0.txt", "a\nb\nc\n"}}));
}

TEST(FileSinkTest, InactivePartsRollAtTheBucketCheck) {
  ScratchDirectory dir("file-sink-inactive");
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  // Records at 0, 1, 2 ms of processing time, then 100 ms of silence, then 3 more;
  // the check at 40 ms finds the part idle for 38 ms.
  using Step = ScriptedSource<std::string>::Step;
  env.addSource(ScriptedSource<std::string>::single({Step{0, "a"}, Step{1, "b"}, Step{2, "c"}, Step{103, "d"},
                                                     Step{104, "e"}, Step{105, "f"}}),
                "lines")
      .sinkTo(FileSink<std::string>::forRowFormat(dir.path().string(), SimpleStringEncoder<std::string>())
                  .withRollingPolicy(DefaultRollingPolicy::builder().withInactivityInterval(30).build())
                  .withBucketCheckInterval(10)
                  .build());
  env.execute();
  const Committed committed = readParts(dir.path());
  EXPECT_EQ(committed.files, (std::map<std::string, std::string>{{"part-0-0", "a\nb\nc\n"}, {"part-0-1", "d\ne\nf\n"}}));
}

TEST(FileSinkTest, BadSettingsAreRefusedWithTheReason) {
  auto builder = [](std::string path) {
    return FileSink<std::string>::forRowFormat(std::move(path), SimpleStringEncoder<std::string>());
  };
  auto message = [](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { builder("").build(); }), "FileSink: the base path is empty");
  EXPECT_EQ(message([&] { builder("/x").withBucketCheckInterval(0).build(); }),
            "FileSink: the bucket check interval must be positive, not 0 ms");
  EXPECT_EQ(message([] { DefaultRollingPolicy::builder().withRolloverInterval(-1); }),
            "DefaultRollingPolicy: the rollover interval must be positive, not -1 ms");
  EXPECT_EQ(message([] { OutputFileConfig::builder().withPartPrefix("a/b").build(); }),
            "OutputFileConfig: a part prefix or suffix may not hold '/' (prefix 'a/b', suffix '')");
  EXPECT_EQ(message([] { DateTimeBucketAssigner<std::string>("yyyy-MM-dd HH:mm:ss z"); }),
            "DateTimeBucketAssigner: pattern 'yyyy-MM-dd HH:mm:ss z' has 'z' at 20; only yyyy, MM, dd, HH, mm and "
            "ss are known");
}

TEST(FileSinkTest, APartThatCannotBeCreatedFailsTheJobNamingTheFile) {
  ScratchDirectory dir("file-sink-unwritable");
  std::ofstream(dir.path() / "taken") << "a file where the sink wants a directory\n";
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  env.fromElements<std::string>({"a"}).sinkTo(
      FileSink<std::string>::forRowFormat((dir.path() / "taken").string(), SimpleStringEncoder<std::string>())
          .build());
  try {
    env.execute();
    FAIL() << "the job should fail";
  } catch (const std::exception& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("FileSink 'Sink' (subtask 1/1) at " + (dir.path() / "taken").string() +
                                             ": the base path " + (dir.path() / "taken").string() +
                                             " is not a directory"));
  }
}

TEST(FileSinkTest, ARestoreWhosePartInProgressIsGoneFailsNamingIt) {
  ScratchDirectory dir("file-sink-missing");
  const fs::path out = dir.path() / "out";
  const std::string storage = (dir.path() / "checkpoints").string();
  EXPECT_THROW(runSinkJob({.output = out,
                           .rolling = Rolling::DEFAULT,
                           .storage = storage,
                           .strategy = RestartStrategies::noRestart(),
                           .failures = {FailureInjection::atTime("window-sum", 0, 120)}}),
               std::exception);
  for (const std::string& hidden : readParts(out).hidden) fs::remove(out / hidden);
  try {
    runSinkJob({.output = out, .rolling = Rolling::DEFAULT, .storage = storage, .restore = storage,
                .strategy = RestartStrategies::noRestart()});
    FAIL() << "the restore should fail";
  } catch (const std::exception& e) {
    // Whichever subtask restores first names its part.
    EXPECT_THAT(e.what(), testing::HasSubstr("cannot restore part file " + (out / ".part-").string()));
    EXPECT_THAT(e.what(), testing::HasSubstr(".inprogress, which the checkpoint was writing: neither it nor " +
                                             (out / "part-").string()));
  }
}

}  // namespace
}  // namespace tidemark
