// Runs a job's tasks on real threads against the wall clock: one thread per
// task, each a mailbox loop that takes input batches and due timers one at a
// time, so user functions never need locks.
#pragma once

#include <memory>
#include <vector>

#include "tidemark/internal/runtime/job_context.h"
#include "tidemark/internal/runtime/task.h"
#include "tidemark/internal/runtime/wall_clock_time_service.h"

namespace tidemark::internal {

class RealTimeExecutor {
 public:
  /// `buffer_timeout`: flush partly filled batches at least this often (ms);
  /// 0 flushes every record (configured in the writers), -1 only full batches.
  explicit RealTimeExecutor(Duration buffer_timeout) : buffer_timeout_(buffer_timeout) {}

  std::unique_ptr<ProcessingTimeService> createTimeService(Task& task);

  /// Run every task to completion or until the job fails. Returns when every
  /// thread has stopped.
  void run(const std::vector<Task*>& tasks, JobContext& job);

 private:
  void runTask(Task& task, WallClockTimeService& time, JobContext& job);
  void runInputLoop(Task& task, WallClockTimeService& time, JobContext& job);

  Duration buffer_timeout_;
  std::vector<std::pair<Task*, WallClockTimeService*>> services_;
};

}  // namespace tidemark::internal
