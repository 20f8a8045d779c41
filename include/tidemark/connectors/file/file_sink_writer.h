// The part of a FileSink that does not depend on the record type: buckets,
// part files, rolling, commits and the clean-up after a restore. The
// FileSink template encodes records and hands their bytes to it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tidemark/connectors/file/file_sink_state.h"
#include "tidemark/connectors/file/output_file_config.h"
#include "tidemark/connectors/file/rolling_policy.h"
#include "tidemark/core/time.h"

namespace tidemark::internal {

struct FileSinkSettings {
  std::string base_path;
  OutputFileConfig names;
  std::shared_ptr<const RollingPolicy> rolling;
  Duration bucket_check_interval = 60'000;
};

class FileSinkWriter {
 public:
  /// `description` names the sink in errors ("FileSink 'x' (subtask 1/2)").
  FileSinkWriter(FileSinkSettings settings, int subtask, int parallelism, std::string description);
  ~FileSinkWriter();
  FileSinkWriter(const FileSinkWriter&) = delete;
  FileSinkWriter& operator=(const FileSinkWriter&) = delete;

  /// The first part counter of a fresh start: one above every part in the
  /// base path, so a job never writes over parts it finds there.
  std::int64_t firstFreeCounter() const;
  /// Start without a checkpoint at part counter `first_counter`. With
  /// `take_back`, first remove this subtask's parts numbered from it on
  /// (left by an earlier attempt of the same run).
  FileSinkContext startAfresh(std::int64_t first_counter, bool take_back);
  /// Start from a checkpoint, given every restored subtask's context: the
  /// parts this subtask's writers were writing are cut back and committed,
  /// and every part of its writers written after the checkpoint (hidden or
  /// committed: a restore may go back past a completed checkpoint) removed.
  FileSinkContext recover(const std::vector<FileSinkContext>& restored);

  /// Append one record's bytes to the bucket's open part, rolling first
  /// when the policy says so; a closed part goes into `open`.
  void write(std::string_view bucket, std::string_view bytes, Timestamp now, FileSinkTransaction& open);
  /// Close the parts the policy rolls at processing time `now`.
  void rollByTime(Timestamp now, FileSinkTransaction& open);
  /// At a checkpoint: close what the policy rolls, make the rest durable,
  /// and record in `context` where this writer stands.
  void preCommit(FileSinkTransaction& open, FileSinkContext& context);
  /// Close every open part (the input ended).
  void closeAll(FileSinkTransaction& open);
  /// Give the transaction's parts their final names (again is fine).
  void commit(const FileSinkTransaction& transaction) const;
  /// Remove the transaction's hidden parts.
  void abort(const FileSinkTransaction& transaction) const;

 private:
  struct Bucket;
  struct Files;
  void closePart(Bucket& bucket, FileSinkTransaction& open);
  void openPart(Bucket& bucket, Timestamp now);
  Bucket& bucketFor(std::string_view id);
  void recordPosition(FileSinkContext& context) const;
  void finishInProgress(const FileSinkInProgressPart& part) const;
  void removePartsFrom(const std::vector<FileSinkWriterRecord>& known, std::int64_t unknown_from) const;

  FileSinkSettings settings_;
  int subtask_;
  int parallelism_;
  std::string description_;
  std::int64_t next_counter_ = 0;
  std::vector<FileSinkWriterRecord> carried_;  // records of other writers this subtask owns
  std::vector<std::unique_ptr<Bucket>> buckets_;
  Bucket* last_bucket_ = nullptr;
};

}  // namespace tidemark::internal
