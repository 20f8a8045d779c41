// What every task of one running job shares: cancellation and the first failure.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tidemark::internal {

class JobContext {
 public:
  /// Whether a restart could get past a failure: an invalid program fails
  /// the same way in every attempt, so the restart strategy is not asked.
  enum class Recovery { kRestartable, kNotRestartable };

  /// Record the job's failure (the first one wins) and cancel every task.
  void fail(const std::string& message, Recovery recovery = Recovery::kRestartable);

  /// Stop every task: wake blocked threads, release blocked producers, cancel sources.
  void cancel();

  bool isCancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  std::optional<std::string> failure() const;
  /// Whether the recorded failure may be restarted (false without one).
  bool failureIsRestartable() const;

  /// Run `hook` when the job is cancelled (at once if it already is).
  void onCancel(std::function<void()> hook);

 private:
  std::atomic<bool> cancelled_{false};
  mutable std::mutex mutex_;
  std::optional<std::string> failure_;
  Recovery recovery_ = Recovery::kRestartable;
  std::vector<std::function<void()>> cancel_hooks_;
};

}  // namespace tidemark::internal
