#include "tidemark/internal/runtime/task.h"

#include <exception>
#include <stdexcept>

#include <fmt/format.h>

#include "tidemark/core/job_execution_result.h"
#include "tidemark/internal/core/operator_failure.h"
#include "tidemark/internal/runtime/checkpoint_coordinator.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {

Task::Task(std::string name, int subtask_index, int parallelism)
    : name_(std::move(name)), subtask_index_(subtask_index), parallelism_(parallelism) {}

Task::~Task() = default;

std::string Task::description() const {
  return fmt::format("{} (subtask {}/{})", name_, subtask_index_ + 1, parallelism_);
}

OperatorBase& Task::addOperator(std::unique_ptr<OperatorBase> op, std::string operator_id) {
  operator_ids_.push_back(std::move(operator_id));
  operators_.push_back(std::move(op));
  return *operators_.back();
}

void Task::open() {
  for (; opened_ < operators_.size(); ++opened_) {
    OperatorBase& op = *operators_[opened_];
    callNamingFailures([&op] { return op.context().description(); }, [] { return std::string("open()"); }, [&] { op.open(); });
  }
  for (const auto& op : operators_) requireSnapshottable(*op);
}

void Task::requireSnapshottable(const OperatorBase& op) {
  // A restored operator read its state with the same serializers; snapshotting
  // it again here would only cost a checkpoint's work at every restart.
  if (!op.context().checkpointing_enabled || op.isRestored()) return;
  try {
    // Freshly opened, the operator holds only the states it registered (each
    // empty), so this snapshot is small; its serializers are what it checks.
    (void)op.snapshotState(0);
  } catch (const InvalidProgramException& error) {
    throw InvalidProgramFailure(
        fmt::format("{} cannot be checkpointed, so the job does not start: {}", op.context().description(), error.what()));
  }
}

SourceOperatorBase& Task::sourceOperator() {
  auto* source = dynamic_cast<SourceOperatorBase*>(operators_.front().get());
  if (source == nullptr) throw std::logic_error(description() + " is not a source task");
  return *source;
}

InputProcessor::Result Task::processInput() {
  bool all_ended = true;
  for (std::size_t k = 0; k < inputs_.size(); ++k) {
    const std::size_t i = (next_input_ + k) % inputs_.size();
    const auto result = inputs_[i]->processOneBatch();
    if (result == InputProcessor::Result::PROCESSED) {
      next_input_ = (i + 1) % inputs_.size();
      return result;
    }
    if (result != InputProcessor::Result::ENDED) all_ended = false;
  }
  return all_ended ? InputProcessor::Result::ENDED : InputProcessor::Result::NOTHING_AVAILABLE;
}

void Task::finish() {
  for (auto& op : operators_) {
    callNamingFailures(
        [&op] { return op->context().description(); }, [] { return std::string("the end of its input"); }, [&] { op->finish(); });
  }
  for (auto* writer : writers_) writer->sendEndOfInput();
  finished_ = true;
  if (coordinator_ != nullptr) coordinator_->taskFinished(checkpoint_index_);
}

void Task::close() noexcept {
  for (std::size_t i = 0; i < opened_; ++i) {
    try {
      operators_[i]->close();
    } catch (...) {
    }
  }
  opened_ = 0;
  finished_ = true;
}

void Task::flushOutputs() {
  for (auto* writer : writers_) writer->flush();
}

bool Task::outputsHaveSpace() const {
  for (auto* writer : writers_) {
    if (!writer->hasSpace()) return false;
  }
  return true;
}

void Task::enableCheckpointing(CheckpointCoordinator& coordinator, int index) {
  coordinator_ = &coordinator;
  checkpoint_index_ = index;
  barriers_.setMode(coordinator.mode());
}

void Task::scheduleCheckpointTriggers(Timestamp start) {
  time_service_->registerTimer(start + coordinator_->interval(), [this, start](Timestamp) { triggerRound(0, start); });
}

void Task::triggerRound(std::int64_t round, Timestamp start) {
  const Timestamp now = time_service_->currentProcessingTime();
  // The next round first: the rounds keep their instants whatever this one costs.
  const Timestamp next = start + (round + 2) * coordinator_->interval();
  time_service_->registerTimer(next, [this, round, start](Timestamp) { triggerRound(round + 1, start); });
  const std::optional<std::int64_t> checkpoint = coordinator_->checkpointForRound(round, now);
  if (!checkpoint) return;
  CheckpointLock* lock = sourceOperator().runningCheckpointLock();
  if (lock != nullptr && lock->held()) {
    // The source is between emitting a record and recording that it did.
    deferred_checkpoint_ = *checkpoint;
    lock->notifyWhenReleased(this);
    return;
  }
  performCheckpoint(*checkpoint);
}

void Task::onReleased() noexcept {
  try {
    performCheckpoint(std::exchange(deferred_checkpoint_, 0));
  } catch (...) {
    // Only sending the barrier can throw here, and only TaskCancelled: the
    // job is stopping, and the source notices at its next call.
  }
}

void Task::performCheckpoint(std::int64_t checkpoint_id) {
  std::vector<SubtaskState> states;
  std::string declined;
  const Timestamp triggered = coordinator_->triggerTimeOf(checkpoint_id, time_service_->currentProcessingTime());
  for (std::size_t i = 0; i < operators_.size() && declined.empty(); ++i) {
    OperatorBase& op = *operators_[i];
    try {
      OperatorSnapshot snapshot = op.snapshot(checkpoint_id, triggered);
      if (i == 0) {
        for (auto& input : inputs_) snapshot.input_valves.push_back(input->valve().snapshot());
      }
      states.push_back(SubtaskState{operator_ids_[i], subtask_index_, parallelism_, serializeToBytes(snapshot)});
    } catch (const std::exception& error) {
      declined = fmt::format("the snapshot of {} failed: {}", op.context().description(), error.what());
    }
  }
  // The barrier goes on even for a declined checkpoint, so that no task
  // downstream stays blocked waiting for it.
  for (auto* writer : writers_) writer->emitBarrier(checkpoint_id);
  if (!declined.empty()) {
    coordinator_->decline(checkpoint_index_, checkpoint_id, declined);
  } else {
    coordinator_->acknowledge(checkpoint_index_, checkpoint_id, std::move(states), time_service_->currentProcessingTime());
  }
}

void Task::notifyCheckpointCompleteLater(std::int64_t checkpoint_id) {
  std::int64_t known = completed_checkpoint_.load(std::memory_order_relaxed);
  while (known < checkpoint_id &&
         !completed_checkpoint_.compare_exchange_weak(known, checkpoint_id, std::memory_order_release)) {
  }
  wakeup_.notify();
}

bool Task::deliverCheckpointNotifications() {
  const std::int64_t completed = completed_checkpoint_.load(std::memory_order_acquire);
  if (completed <= notified_checkpoint_) return false;
  notified_checkpoint_ = completed;
  for (auto& op : operators_) {
    callNamingFailures([&op] { return op->context().description(); },
                       [completed] { return fmt::format("the completion of checkpoint {}", completed); },
                       [&] { op->notifyCheckpointComplete(completed); });
  }
  return true;
}

}  // namespace tidemark::internal
