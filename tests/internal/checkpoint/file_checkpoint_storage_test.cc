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

class FileCheckpointStorageTest : public ::testing::Test {
 protected:
  /// Checkpoint `id` with one state per (operator, subtask) of `states`, completed.
  fs::path completeCheckpoint(std::int64_t id, const States& states) {
    FileCheckpointStorage::PendingCheckpoint pending = storage_.begin(id, 100 * id);
    for (const auto& [operator_id, subtasks] : states) {
      for (const auto& [subtask, bytes] : subtasks) pending.writeState(operator_id, subtask, bytes);
    }
    return pending.complete();
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
  EXPECT_EQ(latest->directory, directory);
  EXPECT_EQ(latest->states, kTwoOperators);
  EXPECT_EQ(readCheckpoint(directory).states, kTwoOperators);
}

TEST_F(FileCheckpointStorageTest, ACheckpointWithoutMetadataIsNoCheckpoint) {
  FileCheckpointStorage::PendingCheckpoint pending = storage_.begin(1, 0);
  pending.writeState("Window", 0, "panes");
  EXPECT_TRUE(storage_.completedCheckpoints().empty());
  EXPECT_FALSE(storage_.latest().has_value());
  EXPECT_THAT([&] { readCheckpoint(pending.directory()); },
              ThrowsMessage<CheckpointStorageError>(HasSubstr(
                  "chk-1: it has no _metadata file (an unfinished or aborted checkpoint, or another directory)")));
}

TEST_F(FileCheckpointStorageTest, TheLatestIsTheNewestCompletedNotTheNewestBegun) {
  completeCheckpoint(1, {{"op", {{0, "one"}}}});
  completeCheckpoint(2, {{"op", {{0, "two"}}}});
  FileCheckpointStorage::PendingCheckpoint third = storage_.begin(3, 300);
  third.writeState("op", 0, "three");
  EXPECT_THAT(storage_.completedCheckpoints(), ElementsAre(1, 2));
  EXPECT_EQ(storage_.latest()->states, (States{{"op", {{0, "two"}}}}));
}

TEST_F(FileCheckpointStorageTest, RetainKeepsTheNewestAndRemovesWhatACrashLeftBehindThem) {
  completeCheckpoint(1, {{"op", {{0, "one"}}}});
  storage_.begin(2, 200).writeState("op", 0, "two, never completed");
  completeCheckpoint(3, {{"op", {{0, "three"}}}});
  completeCheckpoint(4, {{"op", {{0, "four"}}}});
  FileCheckpointStorage::PendingCheckpoint fifth = storage_.begin(5, 500);  // still being written
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
  FileCheckpointStorage::PendingCheckpoint pending = storage_.begin(1, 0);
  pending.writeState("op", 0, "bytes");
  pending.discard();
  EXPECT_TRUE(entries().empty());
  EXPECT_THAT([&] { pending.writeState("op", 1, "more"); },
              ThrowsMessage<std::logic_error>("checkpoint 1: writeState() after it was completed or discarded"));
}

TEST_F(FileCheckpointStorageTest, OneSubtaskWrittenTwiceIsALogicError) {
  FileCheckpointStorage::PendingCheckpoint pending = storage_.begin(1, 0);
  pending.writeState("op", 0, "first");
  EXPECT_THAT([&] { pending.writeState("op", 0, "second"); },
              ThrowsMessage<std::logic_error>("checkpoint 1: the state of operator 'op' subtask 0 was written twice"));
}

TEST_F(FileCheckpointStorageTest, AnIdUsedTwiceIsRefused) {
  completeCheckpoint(1, {});
  EXPECT_THAT([&] { storage_.begin(1, 0); },
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
  EXPECT_THAT([&] { storage_.latest(); },
              ThrowsMessage<SerializationError>(fmt::format(
                  "checkpoint state file {} (operator 'Window', subtask 0): the checksum does not match: the file "
                  "is corrupt",
                  file.string())));
}

TEST_F(FileCheckpointStorageTest, AStateFileCutShortIsNamedWithBothSizes) {
  const fs::path directory = completeCheckpoint(3, kTwoOperators);
  const fs::path file = directory / "state-0";
  overwrite(file, "position 1");
  EXPECT_THAT([&] { storage_.latest(); },
              ThrowsMessage<SerializationError>(fmt::format(
                  "checkpoint state file {} (operator 'Source: numbers', subtask 0): 10 bytes, the metadata says 11",
                  file.string())));
}

TEST_F(FileCheckpointStorageTest, AMissingStateFileIsNamed) {
  const fs::path directory = completeCheckpoint(3, kTwoOperators);
  fs::remove(directory / "state-3");
  EXPECT_THAT([&] { storage_.latest(); },
              ThrowsMessage<CheckpointStorageError>(fmt::format(
                  "checkpoint state file {} (operator 'Window', subtask 1) is missing", (directory / "state-3").string())));
}

TEST_F(FileCheckpointStorageTest, ACorruptNewestCheckpointIsAnErrorNotAFallBackToAnOlderOne) {
  completeCheckpoint(1, {{"op", {{0, "one"}}}});
  const fs::path newest = completeCheckpoint(2, {{"op", {{0, "two"}}}});
  overwrite(newest / "_metadata", "TMCK");
  EXPECT_THAT([&] { storage_.latest(); },
              ThrowsMessage<SerializationError>(fmt::format(
                  "checkpoint metadata {}: 4 bytes, too few for a checkpoint's metadata", (newest / "_metadata").string())));
  EXPECT_EQ(readCheckpoint(scratch_.path() / "chk-1").states, (States{{"op", {{0, "one"}}}}));
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
    FileCheckpointStorage::PendingCheckpoint pending = first.begin(7, 0);
    pending.writeState("op", 0, "kept");
    pending.complete();
  }
  const FileCheckpointStorage again(scratch.path());
  EXPECT_EQ(again.latest()->states, (States{{"op", {{0, "kept"}}}}));
}

}  // namespace
}  // namespace tidemark::internal
