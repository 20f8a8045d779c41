#include "tidemark/internal/runtime/restart_policy.h"

namespace tidemark::internal {

bool RestartPolicy::restartAfterFailureAt(Timestamp now) {
  switch (strategy_.kind()) {
    case RestartStrategyConfiguration::Kind::NO_RESTART:
      return false;
    case RestartStrategyConfiguration::Kind::FIXED_DELAY:
      if (restarts_ >= strategy_.attempts()) return false;
      ++restarts_;
      return true;
    case RestartStrategyConfiguration::Kind::FAILURE_RATE:
      recent_failures_.push_back(now);
      if (recent_failures_.size() > static_cast<std::size_t>(strategy_.attempts())) recent_failures_.pop_front();
      // The job fails when the newest attempts() failures all fall within the interval.
      return recent_failures_.size() < static_cast<std::size_t>(strategy_.attempts()) ||
             now - recent_failures_.front() > strategy_.failureInterval();
  }
  return false;
}


}  // namespace tidemark::internal
