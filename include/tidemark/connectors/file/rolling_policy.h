// When a file sink closes a part file and starts the next (Flink's rolling
// policies). A closed part becomes visible when the next checkpoint
// completes, so a policy decides how large the files are, not when they show.
//
//   DefaultRollingPolicy::builder().withMaxPartSize(64 << 20).withRolloverInterval(60'000).build()
//   OnCheckpointRollingPolicy::build()   // one part per checkpoint period
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "tidemark/core/time.h"

namespace tidemark {

/// What a rolling policy knows of the part file being written.
struct PartFileInfo {
  std::string_view bucket_id;
  Timestamp creation_time = 0;     // processing time of its first record
  Timestamp last_update_time = 0;  // processing time of its last record
  std::uint64_t size = 0;          // bytes written to it
};

class RollingPolicy {
 public:
  virtual ~RollingPolicy() = default;
  /// At a checkpoint: close the part now (else it goes on, and a restore
  /// cuts it back to what it held at the checkpoint).
  virtual bool shouldRollOnCheckpoint(const PartFileInfo& part) const = 0;
  /// Before a record is written into the part.
  virtual bool shouldRollOnEvent(const PartFileInfo& part) const = 0;
  /// At each bucket check (FileSink's withBucketCheckInterval).
  virtual bool shouldRollOnProcessingTime(const PartFileInfo& part, Timestamp now) const = 0;
};

/// Rolls when a part is larger than the maximum part size, older than the
/// rollover interval, or has had no record for the inactivity interval.
/// Flink's defaults: 128 MiB, 60 s and 60 s.
class DefaultRollingPolicy final : public RollingPolicy {
 public:
  class Builder {
   public:
    Builder& withMaxPartSize(std::uint64_t bytes);
    Builder& withRolloverInterval(Duration interval);
    Builder& withInactivityInterval(Duration interval);
    std::shared_ptr<const RollingPolicy> build() const;

   private:
    std::uint64_t max_part_size_ = std::uint64_t{128} << 20;
    Duration rollover_interval_ = 60'000;
    Duration inactivity_interval_ = 60'000;
  };
  static Builder builder() { return Builder(); }

  DefaultRollingPolicy(std::uint64_t max_part_size, Duration rollover_interval, Duration inactivity_interval);
  bool shouldRollOnCheckpoint(const PartFileInfo& part) const override;
  bool shouldRollOnEvent(const PartFileInfo& part) const override;
  bool shouldRollOnProcessingTime(const PartFileInfo& part, Timestamp now) const override;

 private:
  std::uint64_t max_part_size_;
  Duration rollover_interval_;
  Duration inactivity_interval_;
};

/// Rolls at every checkpoint and at no other time: each checkpoint period
/// gives one part per bucket and subtask.
class OnCheckpointRollingPolicy final : public RollingPolicy {
 public:
  static std::shared_ptr<const RollingPolicy> build();
  bool shouldRollOnCheckpoint(const PartFileInfo&) const override { return true; }
  bool shouldRollOnEvent(const PartFileInfo&) const override { return false; }
  bool shouldRollOnProcessingTime(const PartFileInfo&, Timestamp) const override { return false; }
};

}  // namespace tidemark
