// CheckpointBarrierHandler: one task's view of the barriers arriving on all
// its input channels (of every input, so a two-input task aligns both).
//
// Exactly-once: when the first barrier of a checkpoint arrives, its channel
// is blocked: the input processor keeps the rest of that batch and takes
// nothing more from the channel. When every live channel has delivered the
// barrier, the task snapshots (AlignedCheckpointTarget::onAligned) and every
// channel is released, so no record after a barrier reaches the state
// before the snapshot. At-least-once: nothing is blocked; the snapshot is
// taken when the last barrier arrives.
//
// A channel that ended counts as having delivered every later barrier. A
// barrier of a newer checkpoint while one is being aligned (the older one
// was aborted, for instance by a timeout) drops the older one.
//
// Costs nothing per record: it is called for barriers and ends of channels only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tidemark/core/checkpoint_config.h"

namespace tidemark::internal {

/// What a handler calls when a checkpoint's barriers have all arrived.
class AlignedCheckpointTarget {
 public:
  virtual void onAligned(std::int64_t checkpoint_id) = 0;

 protected:
  ~AlignedCheckpointTarget() = default;
};

class CheckpointBarrierHandler {
 public:
  CheckpointBarrierHandler(CheckpointingMode mode, AlignedCheckpointTarget& target) : mode_(mode), target_(target) {}

  void setMode(CheckpointingMode mode) { mode_ = mode; }

  /// Adds `count` channels (one input's); returns the index of the first.
  std::size_t addChannels(std::size_t count);

  /// A barrier of `checkpoint_id` arrived on `channel`. True when the channel
  /// must now be blocked (exactly-once, others still to come).
  bool onBarrier(std::size_t channel, std::int64_t checkpoint_id);
  /// `channel` delivered its end of input.
  void onEndOfChannel(std::size_t channel);

  bool isBlocked(std::size_t channel) const { return blocked_[channel]; }
  /// The checkpoint being aligned, 0 when none.
  std::int64_t pendingCheckpoint() const { return pending_; }

 private:
  void startAlignment(std::int64_t checkpoint_id);
  void completeIfAligned();
  void releaseAll();

  CheckpointingMode mode_;
  AlignedCheckpointTarget& target_;
  std::vector<bool> arrived_;
  std::vector<bool> blocked_;
  std::vector<bool> ended_;
  std::size_t live_channels_ = 0;
  std::size_t arrived_count_ = 0;
  std::int64_t pending_ = 0;
  std::int64_t last_completed_ = 0;
};

}  // namespace tidemark::internal
