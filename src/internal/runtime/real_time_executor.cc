#include "tidemark/internal/runtime/real_time_executor.h"

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "tidemark/internal/core/operator_failure.h"

namespace tidemark::internal {
namespace {

std::chrono::system_clock::time_point toTimePoint(Timestamp millis) {
  return std::chrono::system_clock::time_point(std::chrono::milliseconds(millis));
}

/// The longest a waiting task sleeps without looking at its timers again;
/// bounds the cost of a wall clock that jumps.
constexpr Duration kMaxWait = 1000;

class RealSourceHooks final : public SourceHooks {
 public:
  RealSourceHooks(Task& task, WallClockTimeService& time, JobContext& job, Duration buffer_timeout)
      : task_(task), time_(time), job_(job), buffer_timeout_(buffer_timeout), last_flush_(wallClockMillis()) {}

  void tick() override {
    if (job_.isCancelled()) throw TaskCancelled();
    const Timestamp now = wallClockMillis();
    if (now >= time_.nextDeadline()) time_.fireDue();
    task_.deliverCheckpointNotifications();
    if (buffer_timeout_ >= 0 && now - last_flush_ >= buffer_timeout_) flush(now);
  }

  void sleep(Duration millis) override {
    const Timestamp deadline = wallClockMillis() + std::max<Duration>(millis, 0);
    while (true) {
      runDueWork();
      const Timestamp now = wallClockMillis();
      if (now >= deadline) return;
      const Timestamp wake = std::min({deadline, time_.nextDeadline(), now + kMaxWait});
      task_.wakeup().waitUntil(toTimePoint(wake));
    }
  }

  bool waitReadable(int fd, Duration max_wait) override {
    const Timestamp deadline = wallClockMillis() + std::max<Duration>(max_wait, 0);
    while (true) {
      runDueWork();
      const Timestamp now = wallClockMillis();
      // Short polls so cancellation is noticed without a second wakeup channel.
      const Timestamp wake = std::min({deadline, time_.nextDeadline(), now + 50});
      pollfd pfd{fd, POLLIN, 0};
      const int ready = ::poll(&pfd, 1, static_cast<int>(std::max<Timestamp>(wake - now, 0)));
      if (ready > 0) return true;
      if (wallClockMillis() >= deadline) {
        runDueWork();
        return false;
      }
    }
  }

  Timestamp currentProcessingTime() const override { return wallClockMillis(); }
  bool isCancelled() const override { return job_.isCancelled(); }

 private:
  void runDueWork() {
    if (job_.isCancelled()) throw TaskCancelled();
    time_.fireDue();
    task_.deliverCheckpointNotifications();
    if (buffer_timeout_ >= 0) flush(wallClockMillis());
  }

  void flush(Timestamp now) {
    task_.flushOutputs();
    last_flush_ = now;
  }

  Task& task_;
  WallClockTimeService& time_;
  JobContext& job_;
  Duration buffer_timeout_;
  Timestamp last_flush_;
};

}  // namespace

std::unique_ptr<ProcessingTimeService> RealTimeExecutor::createTimeService(Task& task) {
  auto service = std::make_unique<WallClockTimeService>();
  services_.emplace_back(&task, service.get());
  return service;
}

void RealTimeExecutor::run(const std::vector<Task*>& tasks, JobContext& job) {
  for (Task* task : tasks) {
    job.onCancel([task] { task->wakeup().notify(); });
    if (task->isSource()) {
      job.onCancel([task] { task->sourceOperator().cancelSource(); });
    }
  }
  std::vector<std::thread> threads;
  threads.reserve(tasks.size());
  for (auto& [task, time] : services_) {
    threads.emplace_back([this, task = task, time = time, &job] { runTask(*task, *time, job); });
  }
  for (auto& thread : threads) thread.join();
}

void RealTimeExecutor::runTask(Task& task, WallClockTimeService& time, JobContext& job) {
  try {
    task.open();
    if (task.isSource()) {
      RealSourceHooks hooks(task, time, job, buffer_timeout_);
      task.sourceOperator().runSource(hooks);
    } else {
      runInputLoop(task, time, job);
    }
    task.finish();
  } catch (const TaskCancelled&) {
  } catch (const InvalidProgramFailure& failure) {
    job.fail(failure.what(), JobContext::Recovery::kNotRestartable);
  } catch (const OperatorFailure& failure) {
    job.fail(failure.what());
  } catch (const std::exception& error) {
    job.fail(task.description() + " failed: " + error.what());
  } catch (...) {
    job.fail(task.description() + " failed with an unknown exception");
  }
  time.clear();
  task.close();
}

void RealTimeExecutor::runInputLoop(Task& task, WallClockTimeService& time, JobContext& job) {
  Timestamp last_flush = wallClockMillis();
  while (true) {
    if (job.isCancelled()) throw TaskCancelled();
    // One clock reading per batch, for the timers due, the batch's records
    // (see wall_clock_time_service.h) and the flush deadline.
    const Timestamp now = wallClockMillis();
    time.pin(now);
    time.fireDue();
    task.deliverCheckpointNotifications();
    if (buffer_timeout_ >= 0 && now - last_flush >= buffer_timeout_) {
      task.flushOutputs();
      last_flush = now;
    }
    const auto result = task.processInput();
    if (result == InputProcessor::Result::ENDED) return;
    if (result == InputProcessor::Result::NOTHING_AVAILABLE) {
      if (buffer_timeout_ >= 0) task.flushOutputs();
      last_flush = now;
      task.wakeup().waitUntil(toTimePoint(std::min(time.nextDeadline(), now + kMaxWait)));
    }
  }
}

}  // namespace tidemark::internal
