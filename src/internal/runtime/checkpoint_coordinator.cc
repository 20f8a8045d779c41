#include "tidemark/internal/runtime/checkpoint_coordinator.h"

#include <exception>
#include <filesystem>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "tidemark/internal/runtime/task.h"

namespace tidemark::internal {

/// The checkpoint being taken: who acknowledged, and what is written so far.
struct CheckpointCoordinator::Pending {
  std::int64_t id = 0;
  Timestamp trigger_time = 0;
  std::vector<bool> acknowledged;
  std::size_t missing = 0;
  std::uint64_t bytes = 0;
  std::optional<FileCheckpointStorage::PendingCheckpoint> files;
  CompletedCheckpoint in_memory;  // without a storage directory
};

namespace {

/// How many trigger rounds' decisions are remembered, for a source that asks late.
constexpr std::int64_t kRememberedRounds = 64;

}  // namespace

CheckpointCoordinator::CheckpointCoordinator(const CheckpointConfig& config, int max_parallelism)
    : config_(config), max_parallelism_(max_parallelism) {
  if (!config_.getCheckpointStorage().empty()) {
    storage_.emplace(config_.getCheckpointStorage());
    // A directory that holds an earlier run's checkpoints: go on after them.
    next_id_ = storage_->highestCheckpointId() + 1;
  }
}

CheckpointCoordinator::~CheckpointCoordinator() = default;

void CheckpointCoordinator::beginAttempt(JobContext& job) {
  std::lock_guard<std::mutex> lock(mutex_);
  job_ = &job;
  tasks_.clear();
  rounds_.clear();
  pending_.reset();  // jobEnded() discarded it
  task_finished_ = false;
}

int CheckpointCoordinator::registerTask(Task& task) {
  tasks_.push_back(&task);
  return static_cast<int>(tasks_.size()) - 1;
}

std::optional<std::int64_t> CheckpointCoordinator::checkpointForRound(std::int64_t round, Timestamp now) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto decided = rounds_.find(round); decided != rounds_.end()) return decided->second;
  while (!rounds_.empty() && rounds_.begin()->first < round - kRememberedRounds) rounds_.erase(rounds_.begin());
  std::optional<std::int64_t>& decision = rounds_[round];
  if (pending_ != nullptr && now - pending_->trigger_time >= config_.getCheckpointTimeout()) {
    abortPending(fmt::format("checkpoint {} expired: not complete {} ms after its trigger", pending_->id,
                             config_.getCheckpointTimeout()),
                 true);
  }
  const bool paused = last_completion_ != kMinWatermark && now - last_completion_ < config_.getMinPauseBetweenCheckpoints();
  if (pending_ != nullptr || paused || task_finished_ || job_->isCancelled()) return decision;
  auto pending = std::make_unique<Pending>();
  pending->id = next_id_++;
  pending->trigger_time = now;
  pending->acknowledged.assign(tasks_.size(), false);
  pending->missing = tasks_.size();
  pending->in_memory.checkpoint_id = pending->id;
  pending->in_memory.trigger_time = now;
  pending->in_memory.max_parallelism = max_parallelism_;
  if (storage_) {
    try {
      pending->files.emplace(storage_->begin(pending->id, now, max_parallelism_));
    } catch (const std::exception& error) {
      pending_ = std::move(pending);
      abortPending(fmt::format("checkpoint {} could not start: {}", pending_->id, error.what()), true);
      return decision;
    }
  }
  decision = pending->id;
  pending_ = std::move(pending);
  return decision;
}

void CheckpointCoordinator::acknowledge(int task, std::int64_t checkpoint_id, std::vector<SubtaskState> states,
                                        Timestamp now) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto t = static_cast<std::size_t>(task);
  if (pending_ == nullptr || pending_->id != checkpoint_id || pending_->acknowledged[t]) return;
  try {
    for (SubtaskState& state : states) {
      pending_->bytes += state.bytes.size();
      if (pending_->files) {
        pending_->files->writeState(state.operator_id, state.subtask, state.parallelism, state.bytes);
      } else {
        pending_->in_memory.parallelism[state.operator_id] = state.parallelism;
        pending_->in_memory.states[state.operator_id][state.subtask] = std::move(state.bytes);
      }
    }
  } catch (const std::exception& error) {
    abortPending(fmt::format("checkpoint {} was declined by {}: {}", checkpoint_id, tasks_[t]->description(),
                             error.what()),
                 true);
    return;
  }
  pending_->acknowledged[t] = true;
  if (--pending_->missing == 0) complete(now);
}

Timestamp CheckpointCoordinator::triggerTimeOf(std::int64_t checkpoint_id, Timestamp otherwise) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_ != nullptr && pending_->id == checkpoint_id ? pending_->trigger_time : otherwise;
}

void CheckpointCoordinator::decline(int task, std::int64_t checkpoint_id, const std::string& reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (pending_ == nullptr || pending_->id != checkpoint_id) return;
  abortPending(fmt::format("checkpoint {} was declined by {}: {}", checkpoint_id,
                           tasks_[static_cast<std::size_t>(task)]->description(), reason),
               true);
}

void CheckpointCoordinator::taskFinished(int task) {
  std::lock_guard<std::mutex> lock(mutex_);
  task_finished_ = true;
  if (pending_ != nullptr && !pending_->acknowledged[static_cast<std::size_t>(task)]) {
    abortPending(fmt::format("checkpoint {} was aborted: {} finished before the checkpoint reached it", pending_->id,
                             tasks_[static_cast<std::size_t>(task)]->description()),
                 false);
  }
}

void CheckpointCoordinator::restoresFrom(const CompletedCheckpoint& restored) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!storage_) return;
  std::error_code error;
  owns_storage_checkpoints_ = std::filesystem::equivalent(restored.directory.parent_path(), storage_->directory(), error);
}

void CheckpointCoordinator::jobEnded(JobEnd end) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (pending_ != nullptr) abortPending(fmt::format("checkpoint {} was aborted: the job ended", pending_->id), false);
  const bool remove = end == JobEnd::FINISHED ||
                      (end == JobEnd::CANCELLED && config_.getExternalizedCheckpointRetention() ==
                                                       ExternalizedCheckpointRetention::DELETE_ON_CANCELLATION);
  if (!remove || !storage_) return;
  if (owns_storage_checkpoints_) {
    storage_->removeAllCheckpoints();
  } else {
    for (const std::int64_t id : completed_ids_) storage_->remove(id);
  }
  completed_ids_.clear();
}

CheckpointStatistics CheckpointCoordinator::statistics() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return statistics_;
}

std::optional<CompletedCheckpoint> CheckpointCoordinator::latestCompleted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (storage_) return storage_->latest();
  return latest_in_memory_;
}

void CheckpointCoordinator::abortPending(const std::string& reason, bool counts_toward_failure) {
  std::unique_ptr<Pending> aborted = std::move(pending_);
  if (aborted->files) {
    try {
      aborted->files->discard();
    } catch (const std::exception&) {
      // What stays behind has no _metadata: it is no checkpoint, and the next retain() removes it.
    }
  }
  ++statistics_.number_of_failed_checkpoints;
  statistics_.last_failure_reason = reason;
  if (!counts_toward_failure) return;
  if (++consecutive_failures_ > config_.getTolerableCheckpointFailureNumber()) {
    job_->fail(fmt::format("{} consecutive checkpoint failure{} exceed the tolerable number {}; the last: {}",
                          consecutive_failures_, consecutive_failures_ > 1 ? "s" : "",
                          config_.getTolerableCheckpointFailureNumber(), reason));
  }
}

void CheckpointCoordinator::complete(Timestamp now) {
  Pending& done = *pending_;
  try {
    if (done.files) {
      statistics_.last_checkpoint_path = done.files->complete().string();
      storage_->retain(config_.getMaxRetainedCheckpoints());
    } else {
      latest_in_memory_ = std::move(done.in_memory);
    }
  } catch (const std::exception& error) {
    abortPending(fmt::format("checkpoint {} could not be stored: {}", done.id, error.what()), true);
    return;
  }
  completed_ids_.push_back(done.id);
  consecutive_failures_ = 0;
  last_completion_ = now;
  ++statistics_.number_of_completed_checkpoints;
  statistics_.last_checkpoint_duration = now - done.trigger_time;
  statistics_.last_checkpoint_size = done.bytes;
  const std::int64_t id = done.id;
  pending_.reset();
  for (Task* task : tasks_) task->notifyCheckpointCompleteLater(id);
}

}  // namespace tidemark::internal
