#include "tidemark/internal/runtime/checkpoint_barrier_handler.h"

#include <algorithm>

namespace tidemark::internal {

std::size_t CheckpointBarrierHandler::addChannels(std::size_t count) {
  const std::size_t first = arrived_.size();
  arrived_.resize(first + count, false);
  blocked_.resize(first + count, false);
  ended_.resize(first + count, false);
  live_channels_ += count;
  return first;
}

bool CheckpointBarrierHandler::onBarrier(std::size_t channel, std::int64_t checkpoint_id) {
  // A barrier of a checkpoint already taken (or dropped for a newer one) is
  // stale: the channel goes on.
  if (checkpoint_id <= last_completed_ || checkpoint_id < pending_) return false;
  if (checkpoint_id > pending_) startAlignment(checkpoint_id);
  if (!arrived_[channel]) {
    arrived_[channel] = true;
    ++arrived_count_;
  }
  if (mode_ == CheckpointingMode::EXACTLY_ONCE) blocked_[channel] = true;
  completeIfAligned();
  return blocked_[channel];
}

void CheckpointBarrierHandler::onEndOfChannel(std::size_t channel) {
  if (ended_[channel]) return;
  ended_[channel] = true;
  --live_channels_;
  if (arrived_[channel]) {
    arrived_[channel] = false;
    --arrived_count_;
  }
  blocked_[channel] = false;
  if (pending_ != 0) completeIfAligned();
}

void CheckpointBarrierHandler::startAlignment(std::int64_t checkpoint_id) {
  releaseAll();
  pending_ = checkpoint_id;
}

void CheckpointBarrierHandler::completeIfAligned() {
  if (arrived_count_ < live_channels_) return;
  const std::int64_t id = pending_;
  last_completed_ = id;
  pending_ = 0;
  // Snapshot before the release: records behind the barriers must not reach
  // the state first.
  target_.onAligned(id);
  releaseAll();
}

void CheckpointBarrierHandler::releaseAll() {
  std::fill(arrived_.begin(), arrived_.end(), false);
  std::fill(blocked_.begin(), blocked_.end(), false);
  arrived_count_ = 0;
}

}  // namespace tidemark::internal
