// What execute() returns, and what it throws when the job fails.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tidemark {

/// Records one operator received, summed over its subtasks.
struct OperatorMetrics {
  std::string name;
  int parallelism = 1;
  std::uint64_t records_in = 0;
  /// The operator's own counters (e.g. numLateRecordsDropped), summed over subtasks.
  std::vector<std::pair<std::string, std::uint64_t>> counters;
};

/// What the job's checkpoints did; the comments give Flink's metric names.
struct CheckpointStatistics {
  std::uint64_t number_of_completed_checkpoints = 0;  // numberOfCompletedCheckpoints
  std::uint64_t number_of_failed_checkpoints = 0;     // numberOfFailedCheckpoints
  std::int64_t last_checkpoint_duration = -1;         // lastCheckpointDuration, ms on the job's clock; -1: none
  std::uint64_t last_checkpoint_size = 0;             // lastCheckpointSize, bytes
  std::int64_t last_checkpoint_restore_timestamp = -1;  // lastCheckpointRestoreTimestamp; -1: not restored
  std::uint64_t num_restarts = 0;                     // numRestarts
  std::string last_checkpoint_path;                   // lastCheckpointExternalPath; empty: in memory
  std::string restored_checkpoint_path;               // the checkpoint the job was restored from; empty: none
  std::string last_failure_reason;                    // why the last failed checkpoint failed
};

/// A failure the job restarted after: when (on the job's clock) and why.
struct JobFailure {
  std::int64_t timestamp = 0;
  std::string cause;
};

class JobExecutionResult {
 public:
  JobExecutionResult(std::string job_name, std::chrono::nanoseconds net_runtime,
                     std::vector<OperatorMetrics> operators, CheckpointStatistics checkpoints = {},
                     std::vector<JobFailure> failures = {})
      : job_name_(std::move(job_name)),
        net_runtime_(net_runtime),
        operators_(std::move(operators)),
        checkpoints_(std::move(checkpoints)),
        failures_(std::move(failures)) {}

  const std::string& getJobName() const { return job_name_; }
  /// Wall time from the start of the first task to the end of the last.
  std::chrono::nanoseconds getNetRuntime() const { return net_runtime_; }
  std::int64_t getNetRuntimeMillis() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(net_runtime_).count();
  }
  const std::vector<OperatorMetrics>& getOperatorMetrics() const { return operators_; }
  const CheckpointStatistics& getCheckpointStatistics() const { return checkpoints_; }
  /// How often the job restarted (numRestarts).
  std::uint64_t getNumRestarts() const { return checkpoints_.num_restarts; }
  /// Every failure the job recovered from, oldest first.
  const std::vector<JobFailure>& getFailures() const { return failures_; }
  /// Records received by the operator named `name` (0 if there is none).
  std::uint64_t recordsIn(const std::string& name) const {
    for (const auto& op : operators_) {
      if (op.name == name) return op.records_in;
    }
    return 0;
  }
  /// The counter `counter` of the operator named `name` (0 if either is unknown).
  std::uint64_t counter(const std::string& name, const std::string& counter) const {
    for (const auto& op : operators_) {
      if (op.name != name) continue;
      for (const auto& [counter_name, value] : op.counters) {
        if (counter_name == counter) return value;
      }
    }
    return 0;
  }

 private:
  std::string job_name_;
  std::chrono::nanoseconds net_runtime_;
  std::vector<OperatorMetrics> operators_;
  CheckpointStatistics checkpoints_;
  std::vector<JobFailure> failures_;
};

/// The job failed: the message names the operator, the subtask and the
/// element (or event) being processed, then the original error.
class JobExecutionException : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The job was cancelled before it finished: by SIGINT or SIGTERM while it
/// ran (see StreamExecutionEnvironment::setCancelOnSignals). Its sources were
/// stopped and its operators and sinks closed, so everything it emitted before
/// the signal was written; signal() says which signal (0 if none).
class JobCancellationException : public JobExecutionException {
 public:
  JobCancellationException(const std::string& message, int signal) : JobExecutionException(message), signal_(signal) {}
  int signal() const { return signal_; }

 private:
  int signal_;
};

/// The program built an invalid job graph; the message lists every problem.
class InvalidProgramException : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Restored state does not fit the job: another kind or type of a state, or
/// another max parallelism. The message names the state and both sides.
class StateMigrationException : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace tidemark
