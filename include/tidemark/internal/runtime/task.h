// A task: one parallel subtask of an operator chain.
//
// A task owns its chain's operator instances, the outputs that connect them,
// the record writers at the chain's tail, and the input processors at its head
// (none for a source task). It is driven from outside by an executor — one
// thread per task in real time, the deterministic scheduler in simulated time —
// which calls open(), then processInput() / the source, then finish(), then
// close(). A task is never used from two threads at once.
//
// Checkpoints: a source task starts them from processing-time timers (one
// per trigger round, see checkpoint_coordinator.h); any other task when its
// barrier handler has every barrier. Either way the task snapshots its
// operators head to tail, sends the barrier on every output channel and
// acknowledges. A completed checkpoint is announced from another thread and
// delivered on the task's own, between two batches.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tidemark/internal/operators/output.h"
#include "tidemark/internal/operators/source_operator.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/functions/checkpoint_lock.h"
#include "tidemark/internal/runtime/checkpoint_barrier_handler.h"
#include "tidemark/internal/runtime/input_processor.h"
#include "tidemark/internal/time/processing_time_service.h"
#include "tidemark/internal/runtime/record_writer.h"
#include "tidemark/internal/runtime/task_wakeup.h"

namespace tidemark::internal {

class CheckpointCoordinator;

class Task final : private AlignedCheckpointTarget, private CheckpointLock::Waiter {
 public:
  Task(std::string name, int subtask_index, int parallelism);
  ~Task();
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  /// "chain name (subtask 1/2)".
  std::string description() const;
  int subtaskIndex() const { return subtask_index_; }

  // ---- built by the planner ----
  /// Append an operator; operators are kept in chain (topological) order.
  /// `operator_id` names its state in checkpoints.
  OperatorBase& addOperator(std::unique_ptr<OperatorBase> op, std::string operator_id = {});
  /// Keep an output (chaining, broadcasting, writer) alive for the task's life.
  template <class O>
  O& own(std::unique_ptr<O> output) {
    O& ref = *output;
    owned_.push_back(std::unique_ptr<void, void (*)(void*)>(output.release(), [](void* p) { delete static_cast<O*>(p); }));
    return ref;
  }
  void addWriter(ChannelWriter& writer) { writers_.push_back(&writer); }
  void addInput(std::unique_ptr<InputProcessor> input) {
    input->attachBarrierHandler(barriers_);
    inputs_.push_back(std::move(input));
  }
  /// Take part in `coordinator`'s checkpoints as task number `index`.
  void enableCheckpointing(CheckpointCoordinator& coordinator, int index);
  /// A source task: start the trigger timers, the first due at `start` + interval.
  void scheduleCheckpointTriggers(Timestamp start);
  void setTimeService(std::unique_ptr<ProcessingTimeService> service) { time_service_ = std::move(service); }
  ProcessingTimeService& timeService() { return *time_service_; }
  TaskWakeup& wakeup() { return wakeup_; }

  // ---- driven by an executor ----
  /// open() every operator in chain order; in a checkpointed job, then check
  /// that each can be snapshotted (InvalidProgramFailure if not), so that a
  /// state type without a serializer fails the job before its first record
  /// rather than at its first checkpoint.
  void open();
  bool isSource() const { return inputs_.empty(); }
  SourceOperatorBase& sourceOperator();
  /// Process at most one batch from the inputs (round robin over inputs).
  InputProcessor::Result processInput();
  /// finish() every operator in chain order, then end every output channel.
  void finish();
  /// close() every opened operator; errors are swallowed (the job's first
  /// failure is what gets reported).
  void close() noexcept;
  void flushOutputs();
  bool outputsHaveSpace() const;
  bool finished() const { return finished_; }

  /// Any thread: checkpoint `checkpoint_id` is complete; the task tells its
  /// operators at its next deliverCheckpointNotifications().
  void notifyCheckpointCompleteLater(std::int64_t checkpoint_id);
  /// On the task's thread: notifyCheckpointComplete() on every operator for
  /// the newest completed checkpoint not yet delivered. True if there was one.
  bool deliverCheckpointNotifications();

 private:
  static void requireSnapshottable(const OperatorBase& op);
  void onAligned(std::int64_t checkpoint_id) override { performCheckpoint(checkpoint_id); }
  void onReleased() noexcept override;
  void triggerRound(std::int64_t round, Timestamp start);
  /// Snapshot every operator, send the barrier, acknowledge.
  void performCheckpoint(std::int64_t checkpoint_id);

  std::string name_;
  int subtask_index_;
  int parallelism_;
  std::vector<std::unique_ptr<OperatorBase>> operators_;
  std::vector<std::string> operator_ids_;
  std::vector<std::unique_ptr<void, void (*)(void*)>> owned_;
  std::vector<ChannelWriter*> writers_;
  std::vector<std::unique_ptr<InputProcessor>> inputs_;
  std::unique_ptr<ProcessingTimeService> time_service_;
  TaskWakeup wakeup_;
  std::size_t next_input_ = 0;
  std::size_t opened_ = 0;
  bool finished_ = false;
  CheckpointBarrierHandler barriers_{CheckpointingMode::EXACTLY_ONCE, *this};
  CheckpointCoordinator* coordinator_ = nullptr;
  int checkpoint_index_ = -1;
  std::int64_t deferred_checkpoint_ = 0;  // waits for the source's checkpoint lock
  std::atomic<std::int64_t> completed_checkpoint_{0};
  std::int64_t notified_checkpoint_ = 0;
};

}  // namespace tidemark::internal
