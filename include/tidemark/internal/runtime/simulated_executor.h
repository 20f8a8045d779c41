// Runs a job in simulated time: a virtual processing-time clock and a
// deterministic discrete-event scheduler that drives every task on the
// caller's thread.
//
// The rules (they make runs byte-identical, at any parallelism):
// - The clock starts at the configured instant and moves only when no task
//   can make progress at the current instant; it then jumps to the earliest
//   pending event: a source waking from a sleep, a processing-time callback
//   (periodic watermark emission, processing-time timers, ...).
// - Events run in (time, scheduling order). After each event, tasks run until
//   quiescent: tasks are visited in plan order (sources first, then
//   downstream in topological order), each taking one input batch per visit,
//   until a full pass makes no progress. Outputs are flushed at the end of
//   every step, so nothing waits in a buffer while the clock moves.
// - A source runs on its own thread but only while it holds the baton: it
//   gets it when its wake-up event runs and gives it back when it sleeps,
//   blocks on a full channel, or ends. Everything a source emits between two
//   sleeps happens at one instant, with no timer or periodic emission inside.
// - When a task finishes, its pending processing-time callbacks are dropped.
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <vector>

#include "tidemark/internal/runtime/job_context.h"
#include "tidemark/internal/time/processing_time_service.h"
#include "tidemark/internal/runtime/record_writer.h"
#include "tidemark/internal/runtime/task.h"

namespace tidemark::internal {

class SimulatedSourceRunner;

class SimulatedExecutor {
 public:
  explicit SimulatedExecutor(Timestamp start_time);
  ~SimulatedExecutor();

  std::unique_ptr<ProcessingTimeService> createTimeService(Task& task);
  /// The listener a source task's writers report full channels to.
  BackpressureListener* backpressureListenerFor(Task& task);

  void schedule(Timestamp time, Task* task, ProcessingTimeService::Callback callback);
  Timestamp now() const { return now_; }

  /// Run the job to completion, or until it fails.
  void run(const std::vector<Task*>& tasks, JobContext& job);

 private:
  struct Event {
    Timestamp time;
    std::uint64_t seq;
    Task* task;
    ProcessingTimeService::Callback callback;
    bool operator>(const Event& other) const {
      return time != other.time ? time > other.time : seq > other.seq;
    }
  };

  void runUntilQuiescent(const std::vector<Task*>& tasks, JobContext& job);
  bool stepTask(Task& task, JobContext& job);
  SimulatedSourceRunner* runnerFor(Task& task);
  void failFrom(Task& task, JobContext& job);

  Timestamp now_;
  std::uint64_t next_seq_ = 0;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::vector<std::unique_ptr<SimulatedSourceRunner>> runners_;
};

}  // namespace tidemark::internal
