// Checkpoints in a directory of a local or shared file system, laid out as
// Flink lays them out:
//
//   <directory>/chk-<id>/state-<n>    one subtask state of one operator
//   <directory>/chk-<id>/_metadata    written last: its presence makes the checkpoint complete
//
// Every file is written, flushed to disk (fsync) and then the directory too,
// before `_metadata` is written under a temporary name and renamed into
// place; so a crash at any instant leaves either a complete checkpoint or a
// chk- directory without `_metadata`, which is no checkpoint and is removed
// by the next retain(). The storage holds bytes: what they mean (operator
// snapshots) is the layers above's business.
//
// Errors name the file: CheckpointStorageError for what the file system
// refuses, SerializationError for a file whose bytes cannot be trusted.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tidemark/internal/checkpoint/checkpoint_metadata.h"

namespace tidemark::internal {

class CheckpointStorageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A checkpoint read back and checked: every state file's size and checksum
/// matched, and every subtask and parallelism is one the max parallelism allows.
struct CompletedCheckpoint {
  std::int64_t checkpoint_id = 0;
  Timestamp trigger_time = 0;
  int max_parallelism = 0;
  std::filesystem::path directory;
  /// operator id -> the parallelism it ran at
  std::map<std::string, int> parallelism;
  /// operator id -> subtask -> the bytes its snapshot wrote
  std::map<std::string, std::map<int, std::string>> states;
};

/// Reads and checks the checkpoint in `directory` (a chk-<id> directory, or
/// any directory with a `_metadata` file).
CompletedCheckpoint readCheckpoint(const std::filesystem::path& directory);

class FileCheckpointStorage {
 public:
  /// One checkpoint being written: its state files go in as subtasks
  /// acknowledge, complete() writes `_metadata`.
  class PendingCheckpoint {
   public:
    PendingCheckpoint(PendingCheckpoint&&) = default;
    PendingCheckpoint& operator=(PendingCheckpoint&&) = default;

    std::int64_t checkpointId() const { return metadata_.checkpoint_id; }
    const std::filesystem::path& directory() const { return directory_; }

    /// Writes the state of `subtask` of operator `operator_id`, which runs at
    /// `parallelism`, to its own file. The same operator and subtask twice, a
    /// subtask outside [0, parallelism), a parallelism outside [1, max
    /// parallelism] and two parallelisms for one operator are logic errors.
    void writeState(std::string_view operator_id, int subtask, int parallelism, std::string_view bytes);

    /// Writes `_metadata`: from then on the checkpoint is complete. Returns its directory.
    std::filesystem::path complete();

    /// Removes what was written (an aborted or timed-out checkpoint).
    void discard();

   private:
    friend class FileCheckpointStorage;
    PendingCheckpoint(std::filesystem::path directory, std::int64_t checkpoint_id, Timestamp trigger_time,
                      int max_parallelism);
    void requireOpen(std::string_view what) const;
    void requireNewState(std::string_view operator_id, int subtask, int parallelism) const;

    std::filesystem::path directory_;
    CheckpointMetadata metadata_;
    bool ended_ = false;
  };

  /// Creates `directory` if it does not exist.
  explicit FileCheckpointStorage(std::filesystem::path directory);

  const std::filesystem::path& directory() const { return directory_; }

  /// Starts checkpoint `checkpoint_id` of a job with `max_parallelism` key
  /// groups in a new chk-<id> directory; one that exists already (an id used
  /// twice) is a CheckpointStorageError.
  PendingCheckpoint begin(std::int64_t checkpoint_id, Timestamp trigger_time, int max_parallelism);

  /// The ids of the complete checkpoints, oldest first.
  std::vector<std::int64_t> completedCheckpoints() const;

  /// The highest id of any chk-<id> directory here, complete or not; 0 when none.
  std::int64_t highestCheckpointId() const;
  /// Removes checkpoint `checkpoint_id`, if it is here.
  void remove(std::int64_t checkpoint_id);
  /// Removes every chk-<id> directory here, complete or not.
  void removeAllCheckpoints();
  /// The newest complete checkpoint, read and checked; none when there is
  /// none. Without `skipped`, one that fails its checks is an error. With
  /// it, the newest intact one: each newer one that fails its checks (a cut,
  /// flipped or missing file) is passed over and its error added to
  /// `skipped`, newest first, so that the caller can say so.
  std::optional<CompletedCheckpoint> latest(std::vector<std::string>* skipped = nullptr) const;

  /// Keeps the `retained` newest complete checkpoints (at least 1) and
  /// removes the older ones, and every unfinished one older than the newest
  /// complete one (left by a crash or an abort). Newer unfinished ones may
  /// still be being written, and stay.
  void retain(int retained);

 private:
  std::filesystem::path directory_;
};

}  // namespace tidemark::internal
