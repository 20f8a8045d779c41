#include "tidemark/internal/runtime/job_context.h"

namespace tidemark::internal {

void JobContext::fail(const std::string& message, Recovery recovery) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_) {
      failure_ = message;
      recovery_ = recovery;
    }
  }
  cancel();
}

void JobContext::cancel() {
  std::vector<std::function<void()>> hooks;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cancelled_.exchange(true)) return;
    hooks = cancel_hooks_;
  }
  for (auto& hook : hooks) hook();
}

std::optional<std::string> JobContext::failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

bool JobContext::failureIsRestartable() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_.has_value() && recovery_ == Recovery::kRestartable;
}

void JobContext::onCancel(std::function<void()> hook) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!cancelled_) {
      cancel_hooks_.push_back(std::move(hook));
      return;
    }
  }
  hook();
}

}  // namespace tidemark::internal
