#include "tidemark/core/restart_strategy.h"

#include <climits>
#include <stdexcept>

#include <fmt/format.h>

namespace tidemark {

std::string RestartStrategyConfiguration::describe() const {
  switch (kind_) {
    case Kind::NO_RESTART:
      return "no restart";
    case Kind::FIXED_DELAY:
      if (attempts_ == INT_MAX) return fmt::format("fixed delay (unlimited restarts, {} ms apart)", delay_);
      return fmt::format("fixed delay ({} restart{}, {} ms apart)", attempts_, attempts_ == 1 ? "" : "s", delay_);
    case Kind::FAILURE_RATE:
      return fmt::format("failure rate (fails at {} failure{} within {} ms; restarts {} ms after a failure)",
                         attempts_, attempts_ == 1 ? "" : "s", interval_, delay_);
  }
  return "unknown";
}

RestartStrategyConfiguration RestartStrategies::noRestart() {
  return RestartStrategyConfiguration(RestartStrategyConfiguration::Kind::NO_RESTART, 0, 0, 0);
}

RestartStrategyConfiguration RestartStrategies::fixedDelayRestart(int restart_attempts, Duration delay_between_attempts) {
  if (restart_attempts < 0) {
    throw std::invalid_argument(fmt::format("fixedDelayRestart({}, ...): the number of restarts must be at least 0",
                                            restart_attempts));
  }
  if (delay_between_attempts < 0) {
    throw std::invalid_argument(fmt::format("fixedDelayRestart(..., {}): the delay must be at least 0 ms",
                                            delay_between_attempts));
  }
  return RestartStrategyConfiguration(RestartStrategyConfiguration::Kind::FIXED_DELAY, restart_attempts, 0,
                                      delay_between_attempts);
}

RestartStrategyConfiguration RestartStrategies::failureRateRestart(int max_failures_per_interval,
                                                                   Duration failure_interval, Duration delay) {
  if (max_failures_per_interval < 1) {
    throw std::invalid_argument(fmt::format(
        "failureRateRestart({}, ...): the number of failures per interval must be at least 1", max_failures_per_interval));
  }
  if (failure_interval < 1) {
    throw std::invalid_argument(
        fmt::format("failureRateRestart(..., {}, ...): the failure interval must be at least 1 ms", failure_interval));
  }
  if (delay < 0) {
    throw std::invalid_argument(fmt::format("failureRateRestart(..., {}): the delay must be at least 0 ms", delay));
  }
  return RestartStrategyConfiguration(RestartStrategyConfiguration::Kind::FAILURE_RATE, max_failures_per_interval,
                                      failure_interval, delay);
}

}  // namespace tidemark
