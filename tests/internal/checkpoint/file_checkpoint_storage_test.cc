// Checkpoints on disk: a completed checkpoint reads back byte for byte; one
// without _metadata is no checkpoint; retain() keeps the newest and clears
// what a crash or an abort left; every damaged file is named in the error.
#include "tidemark/internal/checkpoint/file_checkpoint_storage.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "support/scratch_directory.h"
#include "tidemark/serialization/serialization_error.h"

namespace tidemark::internal {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;
using testing_support::ScratchDirectory;

using States = std::map<std::string, std::map<int, std::string>>;

constexpr int kMaxParallelism = 8;

class FileCheckpointStorageTest : public ::testing::Test {
 protected:
  /// Checkpoint `id` with one state per (operator, subtask) of `states`, each
  /// operator at the parallelism of its number of subtasks, completed.
  fs::path completeCheckpoint(std::int64_t id, const States& states) {
    FileCheckpointStorage::PendingCheckpoint pending = storage_.begin(id, 100 * id, kMaxParallelism);
    for (const auto& [operator_id, subtasks] : states) {
      const int parallelism = static_cast<int>(subtasks.size());
      for (const auto& [subtask, bytes] : subtasks) pending.writeState(operator_id, subtask, parallelism, bytes);
    }
    return pending.complete();
  }

  /// Expects latest() without fallback and readCheckpoint(`directory`) both to throw `Error` with `message`.
  template <class Error>
  void expectDamaged(const fs::path& directory, const std::string& message) {
    EXPECT_THAT([&] { storage_.latest(); }, ThrowsMessage<Error>(message));
    EXPECT_THAT([&] { readCheckpoint(directory); }, ThrowsMessage<Error>(message));
  }

  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const fs::directory_entry& entry : fs::directory_iterator(scratch_.path())) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  static void overwrite(const fs::path& file, const std::string& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << bytes;
  }

  static std::string contents(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }

  ScratchDirectory scratch_{"checkpoint-storage"};
  FileCheckpointStorage storage_{scratch_.path()};
};

const States kTwoOperators{{"Source: numbers", {{0, "position 17"}, {1, std::string("\0\x01\xff", 3)}}},
                           {"Window", {{0, "panes"}, {1, ""}}}};

TEST_F(FileCheckpointStorageTest, ACompletedCheckpointReadsBackEveryStateByteForByte) {
  const fs::path directory = completeCheckpoint(5, kTwoOperators);
  EXPECT_EQ(directory, scratch_.path() / "chk-5");
  const std::optional<CompletedCheckpoint> latest = storage_.latest();
  ASSERT_TRUE(latest.has_value());
  EXPECT_EQ(latest->checkpoint_id, 5);
  EXPECT_EQ(latest->trigger_time, 500);
  EXPECT_EQ(latest->max_parallelism, kMaxParallelism);
  EXPECT_EQ(latest->directory, directory);
  EXPECT_EQ(latest->parallelism, (std::map<std::string, int>{{"Source: numbers", 2}, {"Window", 2}}));
  EXPECT_EQ(latest->states, kTwoOperators);
  EXPECT_EQ(readCheckpoint(directory).states, kTwoOperators);
}

TEST_F(FileCheckpointStorageTest, ACheckpointWithoutMetadataIsNoCheckpoint) {
  FileCheckpointStorage::PendingCheckpoint pending = storage_.begin(1, 0, kMaxParallelism);
  pending.writeState("Window", 0, 1, "panes");
  EXPECT_TRUE(storage_.completedCheckpoints().empty());
  EXPECT_FALSE(storage_.latest().has_value());
  EXPECT_THAT([&] { readCheckpoint(pending.directory()); },
              ThrowsMessage<CheckpointStorageError>(HasSubstr(
                  "chk-1: it has no _metadata file (an unfinished or aborted checkpoint, or another directory)")));
}

TEST_F(FileCheckpointStorageTest, TheLatestIsTheNewestCompletedNotTheNewestBegun) {
  completeCheckpoint(1, {{"op", {{0, "one"}}}});
  completeCheckpoint(2, {{"op", {{0, "two"}}}});
  FileCheckpointStorage::PendingCheckpoint third = storage_.begin(3, 300, kMaxParallelism);
  third.writeState("op", 0, 1, "three");
  EXPECT_THAT(storage_.completedCheckpoints(), ElementsAre(1, 2));
  EXPECT_EQ(storage_.latest()->states, (States{{"op", {{0, "two"}}}}));
}

TEST_F(FileCheckpointStorageTest, RetainKeepsTheNewestAndRemovesWhatACrashLeftBehindThem) {
  completeCheckpoint(1, {{"op", {{0, "one"}}}});
  storage_.begin(2, 200, kMaxParallelism).writeState("op", 0, 1, "two, never completed");
  completeCheckpoint(3, {{"op", {{0, "three"}}}});
  completeCheckpoint(4, {{"op", {{0, "four"}}}});
  FileCheckpointStorage::PendingCheckpoint fifth = storage_.begin(5, 500, kMaxParallelism);  // still being written
  storage_.retain(2);
  EXPECT_THAT(entries(), ElementsAre("chk-3", "chk-4", "chk-5"));
  storage_.retain(1);
  EXPECT_THAT(entries(), ElementsAre("chk-4", "chk-5"));
  fifth.complete();
  storage_.retain(1);
  EXPECT_THAT(entries(), ElementsAre("chk-5"));
}

TEST_F(FileCheckpointStorageTest, RetainLeavesOtherFilesAlone) {
  overwrite(scratch_.path() / "chk-notes.txt", "mine");
  fs::create_directory(scratch_.path() / "chk-x");
  completeCheckpoint(1, {});
  completeCheckpoint(2, {});
  storage_.retain(1);
  EXPECT_THAT(entries(), ElementsAre("chk-2", "chk-notes.txt", "chk-x"));
}

TEST_F(FileCheckpointStorageTest, RetainingNoneIsAnInvalidArgument) {
  EXPECT_THAT([&] { storage_.retain(0); },
              ThrowsMessage<std::invalid_argument>("at least one checkpoint must be retained, not 0"));
}

TEST_F(FileCheckpointStorageTest, ADiscardedCheckpointLeavesNothing) {
  FileCheckpointStorage::PendingCheckpoint pending = storage_.begin(1, 0, kMaxParallelism);
  pending.writeState("op", 0, 2, "bytes");
  pending.discard();
  EXPECT_TRUE(entries().empty());
  EXPECT_THAT([&] { pending.writeState("op", 1, 2, "more"); },
              ThrowsMessage<std::logic_error>("checkpoint 1: writeState() after it was completed or discarded"));
}

TEST_F(FileCheckpointStorageTest, OneSubtaskWrittenTwiceIsALogicError) {
  FileCheckpointStorage::PendingCheckpoint pending = storage_.begin(1, 0, kMaxParallelism);
  pending.writeState("op", 0, 1, "first");
  EXPECT_THAT([&] { pending.writeState("op", 0, 1, "second"); },
              ThrowsMessage<std::logic_error>("checkpoint 1: the state of operator 'op' subtask 0 was written twice"));
}

TEST_F(FileCheckpointStorageTest, AnIdUsedTwiceIsRefused) {
  completeCheckpoint(1, {});
  EXPECT_THAT([&] { storage_.begin(1, 0, kMaxParallelism); },
              ThrowsMessage<CheckpointStorageError>(fmt::format(
                  "checkpoint directory {0}/chk-1 exists already: checkpoint id 1 was used before in {0}",
                  scratch_.path().string())));
}

TEST_F(FileCheckpointStorageTest, AFlippedByteInAStateFileIsNamedWithItsOperatorAndSubtask) {
  const fs::path directory = completeCheckpoint(3, kTwoOperators);
  const fs::path file = directory / "state-2";  // Window, subtask 0 ("panes")
  std::string bytes = contents(file);
  bytes[1] = 'A';
  overwrite(file, bytes);
  expectDamaged<SerializationError>(
      directory, fmt::format("checkpoint state file {} (operator 'Window', subtask 0): the checksum does not match: "
                             "the file is corrupt",
                             file.string()));
}

TEST_F(FileCheckpointStorageTest, AStateFileCutShortIsNamedWithBothSizes) {
  const fs::path directory = completeCheckpoint(3, kTwoOperators);
  const fs::path file = directory / "state-0";
  overwrite(file, "position 1");
  expectDamaged<SerializationError>(
      directory, fmt::format(
                     "checkpoint state file {} (operator 'Source: numbers', subtask 0): 10 bytes, the metadata says 11",
                     file.string()));
}

TEST_F(FileCheckpointStorageTest, AMissingStateFileIsNamed) {
  const fs::path directory = completeCheckpoint(3, kTwoOperators);
  fs::remove(directory / "state-3");
  expectDamaged<CheckpointStorageError>(
      directory, fmt::format("checkpoint state file {} (operator 'Window', subtask 1) is missing",
                             (directory / "state-3").string()));
}

TEST_F(FileCheckpointStorageTest, WithoutSkippedACorruptNewestCheckpointIsAnErrorNotAFallBackToAnOlderOne) {
  completeCheckpoint(1, {{"op", {{0, "one"}}}});
  const fs::path newest = completeCheckpoint(2, {{"op", {{0, "two"}}}});
  overwrite(newest / "_metadata", "TMCK");
  EXPECT_THAT([&] { storage_.latest(); },
              ThrowsMessage<SerializationError>(fmt::format(
                  "checkpoint metadata {}: 4 bytes, too few for a checkpoint's metadata", (newest / "_metadata").string())));
  EXPECT_EQ(readCheckpoint(scratch_.path() / "chk-1").states, (States{{"op", {{0, "one"}}}}));
}

TEST_F(FileCheckpointStorageTest, TheLatestWithSkippedPassesOverEachDamagedNewerCheckpointNewestFirst) {
  completeCheckpoint(1, {{"op", {{0, "one"}}}});
  completeCheckpoint(2, {{"op", {{0, "two"}}}});
  const fs::path third = completeCheckpoint(3, {{"op", {{0, "three"}}}});
  const fs::path fourth = completeCheckpoint(4, {{"op", {{0, "four"}}}});
  overwrite(third / "state-0", "thre3");
  const std::string metadata = contents(fourth / "_metadata");
  overwrite(fourth / "_metadata", metadata.substr(0, metadata.size() - 1));

  std::vector<std::string> skipped;
  const std::optional<CompletedCheckpoint> latest = storage_.latest(&skipped);
  ASSERT_TRUE(latest.has_value());
  EXPECT_EQ(latest->checkpoint_id, 2);
  EXPECT_EQ(latest->states, (States{{"op", {{0, "two"}}}}));
  EXPECT_THAT(skipped,
              ElementsAre(fmt::format("checkpoint metadata {}: the checksum does not match: the file is corrupt",
                                      (fourth / "_metadata").string()),
                          fmt::format("checkpoint state file {} (operator 'op', subtask 0): the checksum does not "
                                      "match: the file is corrupt",
                                      (third / "state-0").string())));
}

TEST_F(FileCheckpointStorageTest, TheLatestWithSkippedIsNoneWhenNoCheckpointIsIntact) {
  const fs::path only = completeCheckpoint(1, {{"op", {{0, "one"}}}});
  fs::remove(only / "state-0");
  std::vector<std::string> skipped;
  EXPECT_FALSE(storage_.latest(&skipped).has_value());
  EXPECT_THAT(skipped, ElementsAre(fmt::format("checkpoint state file {} (operator 'op', subtask 0) is missing",
                                               (only / "state-0").string())));
}

TEST_F(FileCheckpointStorageTest, ASubtaskOrParallelismTheMaxParallelismDoesNotAllowIsALogicError) {
  FileCheckpointStorage::PendingCheckpoint pending = storage_.begin(1, 0, kMaxParallelism);
  EXPECT_THAT([&] { pending.writeState("op", 2, 2, "x"); },
              ThrowsMessage<std::logic_error>("checkpoint 1: operator 'op' has no subtask 2 at parallelism 2"));
  EXPECT_THAT([&] { pending.writeState("op", -1, 2, "x"); },
              ThrowsMessage<std::logic_error>("checkpoint 1: operator 'op' has no subtask -1 at parallelism 2"));
  EXPECT_THAT([&] { pending.writeState("op", 0, 9, "x"); },
              ThrowsMessage<std::logic_error>("checkpoint 1: operator 'op' at parallelism 9, outside [1, 8]"));
  EXPECT_THAT([&] { pending.writeState("op", 0, 0, "x"); },
              ThrowsMessage<std::logic_error>("checkpoint 1: operator 'op' at parallelism 0, outside [1, 8]"));
}

TEST_F(FileCheckpointStorageTest, OneOperatorAtTwoParallelismsIsALogicError) {
  FileCheckpointStorage::PendingCheckpoint pending = storage_.begin(1, 0, kMaxParallelism);
  pending.writeState("op", 0, 2, "first");
  EXPECT_THAT([&] { pending.writeState("op", 1, 3, "second"); },
              ThrowsMessage<std::logic_error>("checkpoint 1: operator 'op' written at parallelism 2 and 3"));
}

TEST_F(FileCheckpointStorageTest, AMaxParallelismNoJobCanHaveIsRefused) {
  EXPECT_THAT([&] { storage_.begin(1, 0, 0); },
              ThrowsMessage<std::invalid_argument>("checkpoint 1: max parallelism 0 is not in [1, 32768]"));
  EXPECT_TRUE(entries().empty());
}

TEST_F(FileCheckpointStorageTest, MetadataWithAnImpossibleParallelismIsRefusedNamingTheFile) {
  const fs::path directory = completeCheckpoint(1, {{"op", {{0, "one"}}}});
  const fs::path metadata_file = directory / "_metadata";
  const StateFileEntry one{"op", 0, 1, "state-0", 3, crc32Of("one")};
  const auto expectRefused = [&](const CheckpointMetadata& metadata, const std::string& why) {
    overwrite(metadata_file, encodeMetadata(metadata));
    EXPECT_THAT([&] { readCheckpoint(directory); },
                ThrowsMessage<SerializationError>(fmt::format("checkpoint metadata {}: {}", metadata_file.string(), why)));
  };
  expectRefused({1, 100, 0, {one}}, "max parallelism 0 is not in [1, 32768]");
  expectRefused({1, 100, 40000, {one}}, "max parallelism 40000 is not in [1, 32768]");
  expectRefused({1, 100, 4, {{"op", 0, 5, "state-0", 3, crc32Of("one")}}},
                "operator 'op' has parallelism 5, which max parallelism 4 does not allow");
  expectRefused({1, 100, 4, {{"op", 3, 2, "state-0", 3, crc32Of("one")}}}, "operator 'op' has subtask 3 at parallelism 2");
  expectRefused({1, 100, 4, {one, {"op", 1, 2, "state-0", 3, crc32Of("one")}}},
                "operator 'op' is listed at parallelism 1 and 2");
  overwrite(metadata_file, encodeMetadata({1, 100, 4, {one}}));
  EXPECT_EQ(readCheckpoint(directory).max_parallelism, 4);
}

TEST(FileCheckpointStorageSetupTest, ADirectoryThatCannotBeCreatedIsNamed) {
  ScratchDirectory scratch("checkpoint-storage");
  const std::string file = scratch.writeFile("a-file", "not a directory");
  EXPECT_THAT([&] { FileCheckpointStorage storage(fs::path(file) / "checkpoints"); },
              ThrowsMessage<CheckpointStorageError>(
                  ::testing::StartsWith(fmt::format("cannot create checkpoint directory {}/checkpoints: ", file))));
  EXPECT_THAT([&] { FileCheckpointStorage storage(file); },
              ThrowsMessage<CheckpointStorageError>(
                  fmt::format("cannot use {} for checkpoints: it exists and is not a directory", file)));
}

TEST(FileCheckpointStorageSetupTest, AnExistingDirectoryIsUsedAsItIs) {
  ScratchDirectory scratch("checkpoint-storage");
  {
    FileCheckpointStorage first(scratch.path());
    FileCheckpointStorage::PendingCheckpoint pending = first.begin(7, 0, kMaxParallelism);
    pending.writeState("op", 0, 1, "kept");
    pending.complete();
  }
  const FileCheckpointStorage again(scratch.path());
  EXPECT_EQ(again.latest()->states, (States{{"op", {{0, "kept"}}}}));
}

}  // namespace
}  // namespace tidemark::internal
