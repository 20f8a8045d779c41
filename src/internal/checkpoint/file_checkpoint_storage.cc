#include "tidemark/internal/checkpoint/file_checkpoint_storage.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

#include "tidemark/core/key_group.h"
#include "tidemark/serialization/serialization_error.h"

namespace tidemark::internal {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMetadataFile = "_metadata";
constexpr std::string_view kMetadataInProgress = "_metadata.inprogress";
constexpr std::string_view kDirectoryPrefix = "chk-";

[[noreturn]] void failWith(std::string_view action, const fs::path& path, int error) {
  throw CheckpointStorageError(fmt::format("{} {}: {}", action, path.string(), std::strerror(error)));
}

[[noreturn]] void failWith(std::string_view action, const fs::path& path, const std::error_code& error) {
  throw CheckpointStorageError(fmt::format("{} {}: {}", action, path.string(), error.message()));
}

/// Closes a file descriptor however the scope ends.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  /// Closes now, reporting what close() says (a write the kernel deferred can fail here).
  int close() { return ::close(std::exchange(fd_, -1)); }

 private:
  int fd_;
};

/// Creates `path` (it must not exist), writes `bytes` and flushes them to disk.
void writeDurably(const fs::path& path, std::string_view bytes) {
  FileDescriptor file(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (file.get() < 0) failWith("cannot create checkpoint file", path, errno);
  while (!bytes.empty()) {
    const ssize_t written = ::write(file.get(), bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      failWith("cannot write checkpoint file", path, errno);
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
  if (::fsync(file.get()) != 0) failWith("cannot flush checkpoint file", path, errno);
  if (file.close() != 0) failWith("cannot close checkpoint file", path, errno);
}

/// Flushes a directory's entries to disk, so the files created in it survive a crash.
void syncDirectory(const fs::path& directory) {
  FileDescriptor dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) failWith("cannot open checkpoint directory", directory, errno);
  if (::fsync(dir.get()) != 0) failWith("cannot flush checkpoint directory", directory, errno);
}

std::string readWholeFile(const fs::path& path, std::string_view what) {
  std::ifstream in(path, std::ios::in | std::ios::binary);
  if (!in) failWith(fmt::format("cannot open {}", what), path, errno);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) failWith(fmt::format("cannot read {}", what), path, errno);
  return bytes;
}

void removeAll(const fs::path& path) {
  std::error_code error;
  fs::remove_all(path, error);
  if (error) failWith("cannot remove checkpoint", path, error);
}

fs::path checkpointDirectory(const fs::path& root, std::int64_t checkpoint_id) {
  return root / fmt::format("{}{}", kDirectoryPrefix, checkpoint_id);
}

/// The id in a directory name "chk-<id>"; none for any other name.
std::optional<std::int64_t> checkpointIdOf(const std::string& name) {
  if (!name.starts_with(kDirectoryPrefix) || name.size() == kDirectoryPrefix.size()) return std::nullopt;
  std::int64_t id = 0;
  const char* first = name.data() + kDirectoryPrefix.size();
  const char* last = name.data() + name.size();
  const auto [end, error] = std::from_chars(first, last, id);
  if (error != std::errc() || end != last || id < 0) return std::nullopt;
  return id;
}

struct CheckpointDirectories {
  std::vector<std::int64_t> completed;   // with _metadata, oldest first
  std::vector<std::int64_t> unfinished;  // without
};

CheckpointDirectories listCheckpoints(const fs::path& root) {
  CheckpointDirectories found;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(root, error)) {
    const std::optional<std::int64_t> id = checkpointIdOf(entry.path().filename().string());
    std::error_code unreadable;  // an entry that vanished or cannot be read is no checkpoint
    if (!id || !entry.is_directory(unreadable)) continue;
    const bool complete = fs::is_regular_file(entry.path() / kMetadataFile, unreadable);
    (complete ? found.completed : found.unfinished).push_back(*id);
  }
  if (error) failWith("cannot list checkpoint directory", root, error);
  std::sort(found.completed.begin(), found.completed.end());
  std::sort(found.unfinished.begin(), found.unfinished.end());
  return found;
}

/// The bytes of one state file, checked against what the metadata says of it.
std::string readStateFile(const fs::path& directory, const StateFileEntry& entry) {
  const fs::path path = directory / entry.file;
  const std::string where = fmt::format("checkpoint state file {} (operator '{}', subtask {})", path.string(),
                                        entry.operator_id, entry.subtask);
  if (!fs::exists(path)) throw CheckpointStorageError(where + " is missing");
  std::string bytes = readWholeFile(path, "checkpoint state file");
  if (bytes.size() != entry.size) {
    throw SerializationError(fmt::format("{}: {} bytes, the metadata says {}", where, bytes.size(), entry.size));
  }
  if (crc32Of(bytes) != entry.crc32) throw SerializationError(where + ": the checksum does not match: the file is corrupt");
  return bytes;
}

/// A state file's name must be a plain name inside the checkpoint's directory.
void requirePlainName(const StateFileEntry& entry, const fs::path& metadata_file) {
  const fs::path name(entry.file);
  if (entry.file.empty() || name.has_parent_path() || name.is_absolute() || entry.file == "." || entry.file == "..") {
    throw SerializationError(fmt::format("checkpoint metadata {}: the state file name \"{}\" is not a file in its directory",
                                         metadata_file.string(), entry.file));
  }
}

/// The max parallelism must be one a job can have, and each state's
/// parallelism and subtask ones that max parallelism allows: a restore
/// redistributes key groups by them.
void requireValidParallelism(const CheckpointMetadata& metadata, const fs::path& metadata_file) {
  if (metadata.max_parallelism < 1 || metadata.max_parallelism > kUpperBoundMaxParallelism) {
    throw SerializationError(fmt::format("checkpoint metadata {}: max parallelism {} is not in [1, {}]",
                                         metadata_file.string(), metadata.max_parallelism, kUpperBoundMaxParallelism));
  }
  for (const StateFileEntry& entry : metadata.states) {
    if (entry.parallelism < 1 || entry.parallelism > metadata.max_parallelism) {
      throw SerializationError(fmt::format(
          "checkpoint metadata {}: operator '{}' has parallelism {}, which max parallelism {} does not allow",
          metadata_file.string(), entry.operator_id, entry.parallelism, metadata.max_parallelism));
    }
    if (entry.subtask < 0 || entry.subtask >= entry.parallelism) {
      throw SerializationError(fmt::format("checkpoint metadata {}: operator '{}' has subtask {} at parallelism {}",
                                           metadata_file.string(), entry.operator_id, entry.subtask,
                                           entry.parallelism));
    }
  }
}

/// Records the parallelism of `entry`'s operator, which every entry of it must share.
void requireOneParallelism(std::map<std::string, int>& parallelism, const StateFileEntry& entry,
                           const fs::path& metadata_file) {
  const auto [known, inserted] = parallelism.emplace(entry.operator_id, entry.parallelism);
  if (!inserted && known->second != entry.parallelism) {
    throw SerializationError(fmt::format("checkpoint metadata {}: operator '{}' is listed at parallelism {} and {}",
                                         metadata_file.string(), entry.operator_id, known->second,
                                         entry.parallelism));
  }
}

}  // namespace

CompletedCheckpoint readCheckpoint(const fs::path& directory) {
  const fs::path metadata_file = directory / kMetadataFile;
  if (!fs::is_regular_file(metadata_file)) {
    throw CheckpointStorageError(fmt::format(
        "no checkpoint in {}: it has no {} file (an unfinished or aborted checkpoint, or another directory)",
        directory.string(), kMetadataFile));
  }
  const CheckpointMetadata metadata =
      decodeMetadata(readWholeFile(metadata_file, "checkpoint metadata"), metadata_file);
  requireValidParallelism(metadata, metadata_file);
  CompletedCheckpoint checkpoint{metadata.checkpoint_id, metadata.trigger_time, metadata.max_parallelism, directory,
                                 {}, {}};
  for (const StateFileEntry& entry : metadata.states) {
    requirePlainName(entry, metadata_file);
    requireOneParallelism(checkpoint.parallelism, entry, metadata_file);
    if (!checkpoint.states[entry.operator_id].emplace(entry.subtask, readStateFile(directory, entry)).second) {
      throw SerializationError(fmt::format("checkpoint metadata {}: operator '{}' subtask {} is listed twice",
                                           metadata_file.string(), entry.operator_id, entry.subtask));
    }
  }
  return checkpoint;
}

// --- PendingCheckpoint ------------------------------------------------------

FileCheckpointStorage::PendingCheckpoint::PendingCheckpoint(fs::path directory, std::int64_t checkpoint_id,
                                                            Timestamp trigger_time, int max_parallelism)
    : directory_(std::move(directory)), metadata_{checkpoint_id, trigger_time, max_parallelism, {}} {}

void FileCheckpointStorage::PendingCheckpoint::requireOpen(std::string_view what) const {
  if (ended_) {
    throw std::logic_error(fmt::format("checkpoint {}: {} after it was completed or discarded",
                                       metadata_.checkpoint_id, what));
  }
}

void FileCheckpointStorage::PendingCheckpoint::requireNewState(std::string_view operator_id, int subtask,
                                                               int parallelism) const {
  const std::int64_t id = metadata_.checkpoint_id;
  if (parallelism < 1 || parallelism > metadata_.max_parallelism) {
    throw std::logic_error(fmt::format("checkpoint {}: operator '{}' at parallelism {}, outside [1, {}]", id,
                                       operator_id, parallelism, metadata_.max_parallelism));
  }
  if (subtask < 0 || subtask >= parallelism) {
    throw std::logic_error(fmt::format("checkpoint {}: operator '{}' has no subtask {} at parallelism {}", id,
                                       operator_id, subtask, parallelism));
  }
  for (const StateFileEntry& entry : metadata_.states) {
    if (entry.operator_id != operator_id) continue;
    if (entry.subtask == subtask) {
      throw std::logic_error(fmt::format("checkpoint {}: the state of operator '{}' subtask {} was written twice", id,
                                         operator_id, subtask));
    }
    if (entry.parallelism != parallelism) {
      throw std::logic_error(fmt::format("checkpoint {}: operator '{}' written at parallelism {} and {}", id,
                                         operator_id, entry.parallelism, parallelism));
    }
  }
}

void FileCheckpointStorage::PendingCheckpoint::writeState(std::string_view operator_id, int subtask, int parallelism,
                                                          std::string_view bytes) {
  requireOpen("writeState()");
  requireNewState(operator_id, subtask, parallelism);
  StateFileEntry entry{std::string(operator_id), subtask, parallelism,
                       fmt::format("state-{}", metadata_.states.size()), bytes.size(), crc32Of(bytes)};
  writeDurably(directory_ / entry.file, bytes);
  metadata_.states.push_back(std::move(entry));
}

fs::path FileCheckpointStorage::PendingCheckpoint::complete() {
  requireOpen("complete()");
  syncDirectory(directory_);  // the state files' entries are on disk before _metadata names them
  const fs::path in_progress = directory_ / kMetadataInProgress;
  const fs::path metadata_file = directory_ / kMetadataFile;
  writeDurably(in_progress, encodeMetadata(metadata_));
  if (std::rename(in_progress.c_str(), metadata_file.c_str()) != 0) {
    failWith("cannot rename the checkpoint metadata to", metadata_file, errno);
  }
  syncDirectory(directory_);
  ended_ = true;
  return directory_;
}

void FileCheckpointStorage::PendingCheckpoint::discard() {
  requireOpen("discard()");
  ended_ = true;
  removeAll(directory_);
}

// --- FileCheckpointStorage --------------------------------------------------

FileCheckpointStorage::FileCheckpointStorage(fs::path directory) : directory_(std::move(directory)) {
  std::error_code error;
  if (fs::exists(directory_, error) && !fs::is_directory(directory_, error)) {
    throw CheckpointStorageError(
        fmt::format("cannot use {} for checkpoints: it exists and is not a directory", directory_.string()));
  }
  fs::create_directories(directory_, error);
  if (error) failWith("cannot create checkpoint directory", directory_, error);
}

FileCheckpointStorage::PendingCheckpoint FileCheckpointStorage::begin(std::int64_t checkpoint_id,
                                                                      Timestamp trigger_time, int max_parallelism) {
  if (checkpoint_id < 0) throw std::invalid_argument(fmt::format("checkpoint id {} is negative", checkpoint_id));
  if (max_parallelism < 1 || max_parallelism > kUpperBoundMaxParallelism) {
    throw std::invalid_argument(fmt::format("checkpoint {}: max parallelism {} is not in [1, {}]", checkpoint_id,
                                            max_parallelism, kUpperBoundMaxParallelism));
  }
  const fs::path directory = checkpointDirectory(directory_, checkpoint_id);
  std::error_code error;
  if (!fs::create_directory(directory, error)) {
    if (error) failWith("cannot create checkpoint directory", directory, error);
    throw CheckpointStorageError(
        fmt::format("checkpoint directory {} exists already: checkpoint id {} was used before in {}",
                    directory.string(), checkpoint_id, directory_.string()));
  }
  syncDirectory(directory_);
  return PendingCheckpoint(directory, checkpoint_id, trigger_time, max_parallelism);
}

std::vector<std::int64_t> FileCheckpointStorage::completedCheckpoints() const {
  return listCheckpoints(directory_).completed;
}

std::int64_t FileCheckpointStorage::highestCheckpointId() const {
  const CheckpointDirectories found = listCheckpoints(directory_);
  std::int64_t highest = found.completed.empty() ? 0 : found.completed.back();
  for (const std::int64_t id : found.unfinished) highest = std::max(highest, id);
  return highest;
}

void FileCheckpointStorage::remove(std::int64_t checkpoint_id) {
  const fs::path directory = checkpointDirectory(directory_, checkpoint_id);
  if (fs::exists(directory)) removeAll(directory);
}

void FileCheckpointStorage::removeAllCheckpoints() {
  const CheckpointDirectories found = listCheckpoints(directory_);
  for (const std::int64_t id : found.completed) removeAll(checkpointDirectory(directory_, id));
  for (const std::int64_t id : found.unfinished) removeAll(checkpointDirectory(directory_, id));
}

std::optional<CompletedCheckpoint> FileCheckpointStorage::latest(std::vector<std::string>* skipped) const {
  const std::vector<std::int64_t> completed = completedCheckpoints();
  if (completed.empty()) return std::nullopt;
  // Without `skipped`, the newest or an error: an older checkpoint is never
  // taken silently instead of a corrupt newer one.
  if (skipped == nullptr) return readCheckpoint(checkpointDirectory(directory_, completed.back()));
  for (auto id = completed.rbegin(); id != completed.rend(); ++id) {
    try {
      return readCheckpoint(checkpointDirectory(directory_, *id));
    } catch (const SerializationError& error) {  // cut or flipped bytes, impossible values
      skipped->emplace_back(error.what());
    } catch (const CheckpointStorageError& error) {  // a missing or unreadable file
      skipped->emplace_back(error.what());
    }
  }
  return std::nullopt;
}

void FileCheckpointStorage::retain(int retained) {
  if (retained < 1) {
    throw std::invalid_argument(fmt::format("at least one checkpoint must be retained, not {}", retained));
  }
  const CheckpointDirectories found = listCheckpoints(directory_);
  if (found.completed.empty()) return;
  const std::size_t keep = static_cast<std::size_t>(retained);
  for (std::size_t i = 0; i + keep < found.completed.size(); ++i) {
    removeAll(checkpointDirectory(directory_, found.completed[i]));
  }
  for (const std::int64_t id : found.unfinished) {
    if (id < found.completed.back()) removeAll(checkpointDirectory(directory_, id));
  }
}

}  // namespace tidemark::internal
