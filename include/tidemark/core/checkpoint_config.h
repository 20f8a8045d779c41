// CheckpointConfig: how often a job takes checkpoints, what a checkpoint may
// cost, and where they go (Flink's CheckpointConfig, with the same defaults).
//
// Contract:
// - Checkpointing is off until an interval is set (enableCheckpointing on the
//   environment, or setCheckpointInterval here).
// - A setter given a value it cannot honour throws std::invalid_argument
//   naming the setter and the value, so a wrong configuration never starts.
// - Without a storage directory completed checkpoints are kept in memory
//   only, for as long as the job runs.
#pragma once

#include <cstdint>
#include <string>

#include "tidemark/core/time.h"

namespace tidemark {

/// EXACTLY_ONCE aligns barriers (a channel whose barrier arrived waits for
/// the others); AT_LEAST_ONCE does not, so a restore may replay records that
/// are already in the state.
enum class CheckpointingMode { EXACTLY_ONCE, AT_LEAST_ONCE };

/// What happens to the retained checkpoints when the job is cancelled; a job
/// that finishes deletes them either way, one that fails keeps them.
enum class ExternalizedCheckpointRetention { DELETE_ON_CANCELLATION, RETAIN_ON_CANCELLATION };

class CheckpointConfig {
 public:
  static constexpr Duration kDefaultTimeout = 10 * 60 * 1000;

  bool isCheckpointingEnabled() const { return interval_ > 0; }
  /// Time between the triggers of two checkpoints, ms (> 0).
  CheckpointConfig& setCheckpointInterval(Duration millis);
  Duration getCheckpointInterval() const { return interval_; }

  CheckpointConfig& setCheckpointingMode(CheckpointingMode mode);
  CheckpointingMode getCheckpointingMode() const { return mode_; }

  /// A checkpoint not complete this long after its trigger is aborted (default 10 min).
  CheckpointConfig& setCheckpointTimeout(Duration millis);
  Duration getCheckpointTimeout() const { return timeout_; }

  /// The least time from the end of one checkpoint to the trigger of the next (default 0).
  CheckpointConfig& setMinPauseBetweenCheckpoints(Duration millis);
  Duration getMinPauseBetweenCheckpoints() const { return min_pause_; }

  /// Only 1 is supported: a trigger while a checkpoint runs is skipped.
  CheckpointConfig& setMaxConcurrentCheckpoints(int max);
  int getMaxConcurrentCheckpoints() const { return 1; }

  /// How many checkpoints in a row may fail before the job fails (default 0).
  CheckpointConfig& setTolerableCheckpointFailureNumber(int number);
  int getTolerableCheckpointFailureNumber() const { return tolerable_failures_; }

  CheckpointConfig& setExternalizedCheckpointRetention(ExternalizedCheckpointRetention retention);
  ExternalizedCheckpointRetention getExternalizedCheckpointRetention() const { return retention_; }

  /// How many completed checkpoints the storage keeps (default 1).
  CheckpointConfig& setMaxRetainedCheckpoints(int number);
  int getMaxRetainedCheckpoints() const { return retained_; }

  /// A directory of a local or shared file system; created when missing.
  CheckpointConfig& setCheckpointStorage(std::string directory);
  const std::string& getCheckpointStorage() const { return storage_; }

 private:
  Duration interval_ = 0;
  CheckpointingMode mode_ = CheckpointingMode::EXACTLY_ONCE;
  Duration timeout_ = kDefaultTimeout;
  Duration min_pause_ = 0;
  int tolerable_failures_ = 0;
  ExternalizedCheckpointRetention retention_ = ExternalizedCheckpointRetention::DELETE_ON_CANCELLATION;
  int retained_ = 1;
  std::string storage_;
};

}  // namespace tidemark
