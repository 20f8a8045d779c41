// RestartPolicy: a restart strategy applied to one job's failures, in the
// order they happen (see tidemark/core/restart_strategy.h for the rules).
#pragma once

#include <cstdint>
#include <deque>

#include "tidemark/core/restart_strategy.h"

namespace tidemark::internal {

/// Applies a strategy to one job's failures, in the order they happen.
class RestartPolicy {
 public:
  explicit RestartPolicy(RestartStrategyConfiguration strategy) : strategy_(strategy) {}
  /// The job failed at `now`: true if it restarts (after delay()).
  bool restartAfterFailureAt(Timestamp now);
  Duration delay() const { return strategy_.delay(); }
  const RestartStrategyConfiguration& strategy() const { return strategy_; }

 private:
  RestartStrategyConfiguration strategy_;
  std::int64_t restarts_ = 0;
  std::deque<Timestamp> recent_failures_;  // FAILURE_RATE: the newest attempts() failures
};

}  // namespace tidemark::internal
