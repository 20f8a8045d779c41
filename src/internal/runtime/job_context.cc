#include "tidemark/internal/runtime/job_context.h"

namespace tidemark::internal {

void JobContext::fail(const std::string& message) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_) failure_ = message;
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
