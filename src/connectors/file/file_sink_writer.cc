#include "tidemark/connectors/file/file_sink_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <system_error>

namespace tidemark::internal {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kInProgressSuffix = ".inprogress";
constexpr std::size_t kPartBufferBytes = 64 * 1024;

/// A part file found in the base path.
struct FoundPart {
  fs::path path;
  std::int32_t writer;
  std::int64_t counter;
};

std::string partName(const OutputFileConfig& names, std::int32_t writer, std::int64_t counter) {
  return names.getPartPrefix() + "-" + std::to_string(writer) + "-" + std::to_string(counter) +
         names.getPartSuffix();
}

std::string hiddenName(const OutputFileConfig& names, std::int32_t writer, std::int64_t counter) {
  return "." + partName(names, writer, counter) + std::string(kInProgressSuffix);
}

template <class N>
std::optional<N> parseNumber(std::string_view text) {
  N value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || value < 0) return std::nullopt;
  return value;
}

/// The writer and counter of a part named `name` (hidden or not), if it is one.
std::optional<std::pair<std::int32_t, std::int64_t>> parsePartName(std::string_view name,
                                                                     const OutputFileConfig& names) {
  if (name.starts_with('.') && name.ends_with(kInProgressSuffix)) {
    name = name.substr(1, name.size() - 1 - kInProgressSuffix.size());
  }
  const std::string& prefix = names.getPartPrefix();
  const std::string& suffix = names.getPartSuffix();
  if (name.size() < prefix.size() + suffix.size() + 4 || !name.starts_with(prefix) || !name.ends_with(suffix) ||
      name[prefix.size()] != '-') {
    return std::nullopt;
  }
  const std::string_view numbers = name.substr(prefix.size() + 1, name.size() - prefix.size() - 1 - suffix.size());
  const std::size_t dash = numbers.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const auto writer = parseNumber<std::int32_t>(numbers.substr(0, dash));
  const auto counter = parseNumber<std::int64_t>(numbers.substr(dash + 1));
  if (!writer || !counter) return std::nullopt;
  return std::make_pair(*writer, *counter);
}

std::vector<FoundPart> findParts(const fs::path& base, const OutputFileConfig& names, const std::string& description) {
  std::vector<FoundPart> found;
  std::error_code error;
  if (!fs::exists(base, error)) return found;
  if (!fs::is_directory(base, error)) {
    throw std::runtime_error(description + ": the base path " + base.native() + " is not a directory");
  }
  fs::recursive_directory_iterator it(base, error);
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    if (const auto parsed = parsePartName(it->path().filename().native(), names)) {
      found.push_back(FoundPart{it->path(), parsed->first, parsed->second});
    }
  }
  if (error) throw std::runtime_error(description + ": cannot list " + base.native() + ": " + error.message());
  return found;
}

void syncDirectory(const fs::path& directory, const std::string& description) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int saved = errno;
    if (fd >= 0) ::close(fd);
    throw std::runtime_error(description + ": cannot sync directory " + directory.native() + ": " +
                             std::strerror(saved));
  }
  ::close(fd);
}

/// Where a part lives: its bucket directory, its hidden and its final name.
struct PartPaths {
  fs::path directory;
  fs::path hidden;
  fs::path final_path;
};

PartPaths pathsOf(const std::string& base_path, const OutputFileConfig& names, const FileSinkPart& part) {
  fs::path directory = fs::path(base_path) / part.bucket;
  fs::path hidden = directory / hiddenName(names, part.writer, part.counter);
  fs::path final_path = directory / partName(names, part.writer, part.counter);
  return PartPaths{std::move(directory), std::move(hidden), std::move(final_path)};
}

const FileSinkWriterRecord* recordOf(const std::vector<FileSinkWriterRecord>& records, std::int32_t writer) {
  for (const auto& record : records) {
    if (record.writer == writer) return &record;
  }
  return nullptr;
}

}  // namespace

struct FileSinkWriter::Bucket {
  std::string id;
  fs::path directory;
  bool directory_made = false;
  std::FILE* file = nullptr;
  FileSinkPart part;
  Timestamp creation_time = 0;
  Timestamp last_update_time = 0;
  std::uint64_t size = 0;
  std::unique_ptr<char[]> buffer;

  PartFileInfo info() const { return PartFileInfo{id, creation_time, last_update_time, size}; }
  fs::path hiddenPath(const OutputFileConfig& names) const {
    return directory / hiddenName(names, part.writer, part.counter);
  }
};

FileSinkWriter::FileSinkWriter(FileSinkSettings settings, int subtask, int parallelism, std::string description)
    : settings_(std::move(settings)), subtask_(subtask), parallelism_(parallelism), description_(std::move(description)) {}

FileSinkWriter::~FileSinkWriter() {
  // A part still open here belongs to a failed or cancelled attempt: it
  // stays hidden, and a restore removes it.
  for (auto& bucket : buckets_) {
    if (bucket->file != nullptr) std::fclose(bucket->file);
  }
}

std::int64_t FileSinkWriter::firstFreeCounter() const {
  std::int64_t next = 0;
  for (const FoundPart& part : findParts(settings_.base_path, settings_.names, description_)) {
    next = std::max(next, part.counter + 1);
  }
  return next;
}

FileSinkContext FileSinkWriter::startAfresh(std::int64_t first_counter, bool take_back) {
  if (take_back) removePartsFrom({}, first_counter);
  next_counter_ = first_counter;
  carried_.clear();
  FileSinkContext context{first_counter, {}};
  recordPosition(context);
  return context;
}

FileSinkContext FileSinkWriter::recover(const std::vector<FileSinkContext>& restored) {
  if (restored.empty()) return startAfresh(firstFreeCounter(), false);
  std::int64_t first_counter = restored.front().first_counter;
  std::vector<FileSinkWriterRecord> owned;
  for (const FileSinkContext& context : restored) {
    first_counter = std::min(first_counter, context.first_counter);
    for (const FileSinkWriterRecord& record : context.writers) {
      if (record.writer % parallelism_ != subtask_) continue;
      for (const FileSinkInProgressPart& part : record.in_progress) finishInProgress(part);
      owned.push_back(FileSinkWriterRecord{record.writer, record.next_counter, {}});
    }
  }
  removePartsFrom(owned, first_counter);
  const FileSinkWriterRecord* own = recordOf(owned, subtask_);
  next_counter_ = own != nullptr ? own->next_counter : first_counter;
  carried_.clear();
  for (const auto& record : owned) {
    if (record.writer != subtask_) carried_.push_back(record);
  }
  FileSinkContext context{first_counter, {}};
  recordPosition(context);
  return context;
}

void FileSinkWriter::write(std::string_view bucket_id, std::string_view bytes, Timestamp now,
                           FileSinkTransaction& open) {
  Bucket& bucket = bucketFor(bucket_id);
  if (bucket.file != nullptr && settings_.rolling->shouldRollOnEvent(bucket.info())) closePart(bucket, open);
  if (bucket.file == nullptr) openPart(bucket, now);
  if (std::fwrite(bytes.data(), 1, bytes.size(), bucket.file) != bytes.size()) {
    throw std::runtime_error(description_ + ": cannot write part file " +
                             bucket.hiddenPath(settings_.names).native() + ": " + std::strerror(errno));
  }
  bucket.size += bytes.size();
  bucket.last_update_time = now;
}

void FileSinkWriter::rollByTime(Timestamp now, FileSinkTransaction& open) {
  for (auto& bucket : buckets_) {
    if (bucket->file != nullptr && settings_.rolling->shouldRollOnProcessingTime(bucket->info(), now)) {
      closePart(*bucket, open);
    }
  }
}

void FileSinkWriter::preCommit(FileSinkTransaction& open, FileSinkContext& context) {
  for (auto& bucket : buckets_) {
    if (bucket->file == nullptr) continue;
    if (settings_.rolling->shouldRollOnCheckpoint(bucket->info())) {
      closePart(*bucket, open);
    } else if (std::fflush(bucket->file) != 0 || ::fsync(::fileno(bucket->file)) != 0) {
      throw std::runtime_error(description_ + ": cannot sync part file " +
                               bucket->hiddenPath(settings_.names).native() + ": " + std::strerror(errno));
    }
  }
  recordPosition(context);
}

void FileSinkWriter::closeAll(FileSinkTransaction& open) {
  for (auto& bucket : buckets_) {
    if (bucket->file != nullptr) closePart(*bucket, open);
  }
}

void FileSinkWriter::commit(const FileSinkTransaction& transaction) const {
  std::set<fs::path> directories;
  for (const FileSinkPart& part : transaction.parts) {
    const auto [directory, hidden, final_path] = pathsOf(settings_.base_path, settings_.names, part);
    std::error_code error;
    if (fs::exists(hidden, error)) {
      fs::rename(hidden, final_path, error);
      if (error) {
        throw std::runtime_error(description_ + ": cannot commit part file " + hidden.native() + " as " +
                                 final_path.native() + ": " + error.message());
      }
      directories.insert(directory);
    } else if (!fs::exists(final_path, error)) {
      throw std::runtime_error(description_ + ": cannot commit part file " + final_path.native() +
                               ": neither it nor " + hidden.native() + " exists");
    }
  }
  for (const fs::path& directory : directories) syncDirectory(directory, description_);
}

void FileSinkWriter::abort(const FileSinkTransaction& transaction) const {
  for (const FileSinkPart& part : transaction.parts) {
    std::error_code ignored;  // an aborted part may never have been made
    fs::remove(pathsOf(settings_.base_path, settings_.names, part).hidden, ignored);
  }
}

void FileSinkWriter::closePart(Bucket& bucket, FileSinkTransaction& open) {
  const bool synced = std::fflush(bucket.file) == 0 && ::fsync(::fileno(bucket.file)) == 0;
  const int saved = errno;
  const bool closed = std::fclose(bucket.file) == 0;
  bucket.file = nullptr;
  if (!synced || !closed) {
    throw std::runtime_error(description_ + ": cannot close part file " + bucket.hiddenPath(settings_.names).native() +
                             ": " + std::strerror(synced ? errno : saved));
  }
  open.parts.push_back(bucket.part);
}

void FileSinkWriter::openPart(Bucket& bucket, Timestamp now) {
  if (!bucket.directory_made) {
    std::error_code error;
    fs::create_directories(bucket.directory, error);
    if (error) {
      throw std::runtime_error(description_ + ": cannot make bucket directory " + bucket.directory.native() + ": " +
                               error.message());
    }
    bucket.directory_made = true;
  }
  bucket.part = FileSinkPart{bucket.id, subtask_, next_counter_++};
  const fs::path path = bucket.hiddenPath(settings_.names);
  bucket.file = std::fopen(path.c_str(), "wb");
  if (bucket.file == nullptr) {
    throw std::runtime_error(description_ + ": cannot create part file " + path.native() + ": " + std::strerror(errno));
  }
  if (!bucket.buffer) bucket.buffer = std::make_unique<char[]>(kPartBufferBytes);
  std::setvbuf(bucket.file, bucket.buffer.get(), _IOFBF, kPartBufferBytes);
  bucket.creation_time = now;
  bucket.last_update_time = now;
  bucket.size = 0;
}

FileSinkWriter::Bucket& FileSinkWriter::bucketFor(std::string_view id) {
  if (last_bucket_ != nullptr && last_bucket_->id == id) return *last_bucket_;
  for (auto& bucket : buckets_) {
    if (bucket->id == id) return *(last_bucket_ = bucket.get());
  }
  auto bucket = std::make_unique<Bucket>();
  bucket->id = std::string(id);
  bucket->directory = fs::path(settings_.base_path) / bucket->id;
  buckets_.push_back(std::move(bucket));
  return *(last_bucket_ = buckets_.back().get());
}

void FileSinkWriter::recordPosition(FileSinkContext& context) const {
  FileSinkWriterRecord own{subtask_, next_counter_, {}};
  for (const auto& bucket : buckets_) {
    if (bucket->file != nullptr) own.in_progress.push_back(FileSinkInProgressPart{bucket->part, bucket->size});
  }
  context.writers = carried_;
  context.writers.push_back(std::move(own));
}

void FileSinkWriter::finishInProgress(const FileSinkInProgressPart& in_progress) const {
  const FileSinkPart& part = in_progress.part;
  const auto [directory, hidden, final_path] = pathsOf(settings_.base_path, settings_.names, part);
  std::error_code error;
  // Committed after the checkpoint already, when a restore goes back past one.
  const fs::path& found = fs::exists(hidden, error) ? hidden : final_path;
  const std::uintmax_t size = fs::file_size(found, error);
  if (error) {
    throw std::runtime_error(description_ + ": cannot restore part file " + hidden.native() +
                             ", which the checkpoint was writing: neither it nor " + final_path.native() +
                             " can be read: " + error.message());
  }
  if (size < in_progress.durable_size) {
    throw std::runtime_error(description_ + ": cannot restore part file " + found.native() + ": it holds " +
                             std::to_string(size) + " bytes, less than the " +
                             std::to_string(in_progress.durable_size) + " the checkpoint made durable");
  }
  fs::resize_file(found, in_progress.durable_size, error);
  if (!error && found == hidden) fs::rename(hidden, final_path, error);
  if (error) {
    throw std::runtime_error(description_ + ": cannot restore part file " + found.native() + ": " + error.message());
  }
  syncDirectory(directory, description_);
}

void FileSinkWriter::removePartsFrom(const std::vector<FileSinkWriterRecord>& known, std::int64_t unknown_from) const {
  for (const FoundPart& part : findParts(settings_.base_path, settings_.names, description_)) {
    if (part.writer % parallelism_ != subtask_) continue;
    const FileSinkWriterRecord* record = recordOf(known, part.writer);
    const std::int64_t from = record != nullptr ? record->next_counter : unknown_from;
    if (part.counter < from) continue;
    std::error_code error;
    fs::remove(part.path, error);
    if (error) {
      throw std::runtime_error(description_ + ": cannot remove part file " + part.path.native() +
                               ", written after the restored checkpoint: " + error.message());
    }
  }
}

}  // namespace tidemark::internal
