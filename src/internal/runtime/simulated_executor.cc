#include "tidemark/internal/runtime/simulated_executor.h"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "tidemark/internal/core/operator_failure.h"

namespace tidemark::internal {

namespace {

class SimulatedTimeService final : public ProcessingTimeService {
 public:
  SimulatedTimeService(SimulatedExecutor& executor, Task& task) : executor_(executor), task_(task) {}
  Timestamp currentProcessingTime() const override { return executor_.now(); }
  void registerTimer(Timestamp t, Callback callback) override { executor_.schedule(t, &task_, std::move(callback)); }

 private:
  SimulatedExecutor& executor_;
  Task& task_;
};

}  // namespace

/// A source task's own thread, run only while it holds the baton.
class SimulatedSourceRunner final : public SourceHooks, public BackpressureListener {
 public:
  enum class State { RUNNABLE, SLEEPING, BLOCKED_ON_OUTPUT, DONE, FAILED, CANCELLED };

  SimulatedSourceRunner(SimulatedExecutor& executor, Task& task) : executor_(executor), task_(task) {}

  ~SimulatedSourceRunner() override { stop(); }

  Task& task() { return task_; }
  State state() const { return state_; }
  const std::string& error() const { return error_; }

  void start() {
    thread_ = std::thread([this] { threadMain(); });
  }

  /// Scheduler side: hand the baton to the source until it gives it back.
  void resume() {
    state_ = State::RUNNABLE;
    std::unique_lock<std::mutex> lock(mutex_);
    source_turn_ = true;
    cv_.notify_all();
    cv_.wait(lock, [this] { return !source_turn_; });
  }

  /// Scheduler side: make a parked source unwind, and wait for its thread.
  void stop() {
    if (!thread_.joinable()) return;
    cancelled_ = true;
    if (state_ != State::DONE && state_ != State::FAILED && state_ != State::CANCELLED) resume();
    thread_.join();
  }

  // ---- SourceHooks, called on the source thread ----
  void tick() override {
    if (cancelled_) throw TaskCancelled();
    task_.deliverCheckpointNotifications();
  }

  void sleep(Duration millis) override {
    task_.flushOutputs();
    state_ = State::SLEEPING;
    executor_.schedule(executor_.now() + std::max<Duration>(millis, 0), &task_, [this](Timestamp) { resume(); });
    yieldToScheduler();
    task_.deliverCheckpointNotifications();
  }

  bool waitReadable(int, Duration) override {
    throw std::runtime_error(
        "this source waits for I/O, which simulated time cannot schedule; use a scripted source in simulated runs");
  }

  Timestamp currentProcessingTime() const override { return executor_.now(); }
  bool isCancelled() const override { return cancelled_; }

  // ---- BackpressureListener ----
  void onChannelFull() override {
    // Only the source's own emissions yield; a timer callback on the scheduler
    // thread may overfill the channel by one batch instead.
    if (std::this_thread::get_id() != thread_.get_id()) return;
    state_ = State::BLOCKED_ON_OUTPUT;
    yieldToScheduler();
  }

 private:
  void yieldToScheduler() {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      source_turn_ = false;
      cv_.notify_all();
      cv_.wait(lock, [this] { return source_turn_; });
    }
    if (cancelled_) throw TaskCancelled();
  }

  void threadMain() {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [this] { return source_turn_; });
    }
    State final_state = State::DONE;
    try {
      if (cancelled_) throw TaskCancelled();
      task_.sourceOperator().runSource(*this);
      task_.flushOutputs();
    } catch (const TaskCancelled&) {
      final_state = State::CANCELLED;
    } catch (const OperatorFailure& failure) {
      error_ = failure.what();
      final_state = State::FAILED;
    } catch (const std::exception& e) {
      error_ = task_.description() + " failed: " + e.what();
      final_state = State::FAILED;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    state_ = final_state;
    source_turn_ = false;
    cv_.notify_all();
  }

  SimulatedExecutor& executor_;
  Task& task_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool source_turn_ = false;
  State state_ = State::RUNNABLE;
  bool cancelled_ = false;
  std::string error_;
};

SimulatedExecutor::SimulatedExecutor(Timestamp start_time) : now_(start_time) {}

SimulatedExecutor::~SimulatedExecutor() = default;

std::unique_ptr<ProcessingTimeService> SimulatedExecutor::createTimeService(Task& task) {
  return std::make_unique<SimulatedTimeService>(*this, task);
}

BackpressureListener* SimulatedExecutor::backpressureListenerFor(Task& task) { return runnerFor(task); }

SimulatedSourceRunner* SimulatedExecutor::runnerFor(Task& task) {
  for (auto& runner : runners_) {
    if (&runner->task() == &task) return runner.get();
  }
  if (!task.isSource()) return nullptr;
  runners_.push_back(std::make_unique<SimulatedSourceRunner>(*this, task));
  return runners_.back().get();
}

void SimulatedExecutor::schedule(Timestamp time, Task* task, ProcessingTimeService::Callback callback) {
  events_.push(Event{time, next_seq_++, task, std::move(callback)});
}

void SimulatedExecutor::failFrom(Task& task, JobContext& job) {
  try {
    throw;
  } catch (const TaskCancelled&) {
  } catch (const InvalidProgramFailure& failure) {
    job.fail(failure.what(), JobContext::Recovery::kNotRestartable);
  } catch (const OperatorFailure& failure) {
    job.fail(failure.what());
  } catch (const std::exception& error) {
    job.fail(task.description() + " failed: " + error.what());
  }
}

void SimulatedExecutor::run(const std::vector<Task*>& tasks, JobContext& job) {
  for (Task* task : tasks) {
    try {
      task->open();
    } catch (...) {
      failFrom(*task, job);
    }
  }
  for (Task* task : tasks) {
    if (!task->isSource()) continue;
    SimulatedSourceRunner* runner = runnerFor(*task);
    runner->start();
    schedule(now_, task, [runner](Timestamp) { runner->resume(); });
  }
  while (!job.isCancelled()) {
    runUntilQuiescent(tasks, job);
    if (job.isCancelled() || events_.empty()) break;
    Event event = std::move(const_cast<Event&>(events_.top()));
    events_.pop();
    if (event.task->finished()) continue;
    now_ = std::max(now_, event.time);
    try {
      event.callback(now_);
      event.task->flushOutputs();
    } catch (...) {
      failFrom(*event.task, job);
    }
  }
  if (!job.isCancelled()) {
    for (Task* task : tasks) {
      if (!task->finished()) {
        job.fail(task->description() + " never finished: the simulated job has no more events to run");
        break;
      }
    }
  }
  for (auto& runner : runners_) runner->stop();
  for (Task* task : tasks) task->close();
}

void SimulatedExecutor::runUntilQuiescent(const std::vector<Task*>& tasks, JobContext& job) {
  bool progress = true;
  while (progress && !job.isCancelled()) {
    progress = false;
    for (Task* task : tasks) {
      if (task->finished()) continue;
      try {
        progress = stepTask(*task, job) || progress;
      } catch (...) {
        failFrom(*task, job);
        return;
      }
    }
  }
}

bool SimulatedExecutor::stepTask(Task& task, JobContext& job) {
  if (task.isSource()) {
    SimulatedSourceRunner& runner = *runnerFor(task);
    if (runner.state() == SimulatedSourceRunner::State::BLOCKED_ON_OUTPUT && task.outputsHaveSpace()) {
      runner.resume();
      return true;
    }
    if (runner.state() == SimulatedSourceRunner::State::FAILED) {
      job.fail(runner.error());
      return false;
    }
    if (runner.state() == SimulatedSourceRunner::State::DONE) {
      task.finish();
      return true;
    }
    return false;
  }
  if (!task.outputsHaveSpace()) return false;
  if (task.deliverCheckpointNotifications()) return true;
  const auto result = task.processInput();
  if (result == InputProcessor::Result::PROCESSED) {
    task.flushOutputs();
    return true;
  }
  if (result == InputProcessor::Result::ENDED) {
    task.finish();
    return true;
  }
  return false;
}

}  // namespace tidemark::internal
