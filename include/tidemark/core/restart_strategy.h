// Restart strategies: what a job does when one of its tasks fails (Flink's
// RestartStrategies). A restart cancels every task, restores all of them
// from the latest completed checkpoint (or starts them afresh when there is
// none) and goes on; the sources rewind to their checkpointed positions.
//
// Contract:
// - Without a strategy set, a job that takes checkpoints restarts without
//   limit, 1 s after each failure (fixedDelayRestart(INT_MAX, 1000)), and one
//   that does not never restarts: Flink's defaults.
// - fixedDelayRestart(n, d): at most n restarts, each d ms after its failure;
//   failure n + 1 fails the job.
// - failureRateRestart(n, interval, d): restarts d ms after a failure unless
//   this failure is the n-th within `interval` ms (the newest n failures all
//   lie within it); then the job fails. So at most n - 1 restarts fall into
//   any interval.
// - The delay and the interval are on the job's clock: virtual in simulated
//   time, so a restart there is as reproducible as the rest of the run.
// - A factory given a value it cannot honour throws std::invalid_argument
//   naming it.
#pragma once

#include <cstdint>
#include <string>

#include "tidemark/core/time.h"

namespace tidemark {

class RestartStrategyConfiguration {
 public:
  enum class Kind { NO_RESTART, FIXED_DELAY, FAILURE_RATE };

  Kind kind() const { return kind_; }
  /// FIXED_DELAY: restarts allowed; FAILURE_RATE: failures per interval.
  int attempts() const { return attempts_; }
  Duration failureInterval() const { return interval_; }
  Duration delay() const { return delay_; }
  /// "fixed delay (3 restarts, 1000 ms apart)", for messages.
  std::string describe() const;

 private:
  friend class RestartStrategies;
  RestartStrategyConfiguration(Kind kind, int attempts, Duration interval, Duration delay)
      : kind_(kind), attempts_(attempts), interval_(interval), delay_(delay) {}

  Kind kind_;
  int attempts_;
  Duration interval_;
  Duration delay_;
};

class RestartStrategies {
 public:
  static RestartStrategyConfiguration noRestart();
  /// `restart_attempts` >= 0; `delay_between_attempts` ms >= 0.
  static RestartStrategyConfiguration fixedDelayRestart(int restart_attempts, Duration delay_between_attempts);
  /// `max_failures_per_interval` >= 1; `failure_interval` ms >= 1; `delay` ms >= 0.
  static RestartStrategyConfiguration failureRateRestart(int max_failures_per_interval, Duration failure_interval,
                                                         Duration delay);
};

}  // namespace tidemark
