// What one run of a Nexmark query measured, and the three ways the command
// prints it: a summary, a table row (--all) and a JSON line (--json).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tidemark/core/job_execution_result.h"

namespace tidemark::cli {

struct LatencySummary {
  std::int64_t p50_ns = 0;
  std::int64_t p99_ns = 0;
  std::int64_t max_ns = 0;
  std::int64_t samples = 0;
};

struct RunReport {
  std::string query;           // "q5"
  std::string title;           // "hot items"
  std::string implementation;  // "tidemark" or "reference" (the hand-written program)
  int parallelism = 1;
  std::int64_t events = 0;
  std::int64_t rate = 0;  // events/s the source was held to; 0 = as fast as possible
  double seconds = 0;
  std::int64_t results = 0;
  std::optional<LatencySummary> latency;  // rate-limited runs only
  std::uint64_t peak_rss_bytes = 0;
  std::vector<std::string> sample;
  /// With --metrics: what each operator of the job received, and its counters.
  std::vector<OperatorMetrics> operators;
  std::uint64_t seed = 0;  // the generator's seed: the same seed, the same events
  /// Runs that take checkpoints or restore one: Flink's checkpoint metrics.
  std::optional<CheckpointStatistics> checkpoints;

  double eventsPerSecond() const { return seconds > 0 ? static_cast<double>(events) / seconds : 0; }
};

std::string formatSummary(const RunReport& report);
std::string formatTableHeader();
std::string formatTableRow(const RunReport& report);
/// One line: {"query":"q5","parallelism":1,...}; latencies are null in runs
/// that are not rate-limited. Runs with checkpoints add checkpoints_completed,
/// checkpoints_failed, last_checkpoint_duration_ms, checkpoint_bytes (the
/// last checkpoint's size), num_restarts and restored_from (null: a fresh start).
std::string formatJson(const RunReport& report);

}  // namespace tidemark::cli
