// The doorbell of a task's mailbox: input arrived, a channel freed space, or
// the job was cancelled. Used only in real-thread execution.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace tidemark::internal {

class TaskWakeup {
 public:
  /// Wake the task if it waits, or make its next wait return at once.
  void notify() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      pending_ = true;
    }
    cv_.notify_one();
  }

  /// Wait until notified or until `deadline`, whichever comes first.
  template <class Clock, class Dur>
  void waitUntil(std::chrono::time_point<Clock, Dur> deadline) {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait_until(lock, deadline, [this] { return pending_; });
    pending_ = false;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool pending_ = false;
};

}  // namespace tidemark::internal
