// What every workload takes and returns, and how its parallel subtasks hand
// their results back to the thread that called execute().
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

#include "generator.h"

namespace tidemark::bench {

enum class WatermarkMode {
  /// The generator emits a watermark each time it enters a new millisecond.
  kSource,
  /// assignTimestampsAndWatermarks(forMonotonousTimestamps()) after the source,
  /// emitting every auto-watermark interval (200 ms of wall time).
  kStrategy,
};

struct WorkloadOptions {
  std::int64_t records = 20'000'000;
  int parallelism = 1;
  std::int64_t records_per_milli = kDefaultRecordsPerMilli;
  WatermarkMode watermarks = WatermarkMode::kSource;
  /// Optional; see SteadyStateHooks.
  std::shared_ptr<const SteadyStateHooks> steady_hooks;
  /// Optional; run on the calling thread right before and after execute(),
  /// so a caller can bracket exactly the job (e.g. count its allocations).
  std::function<void()> before_execute;
  std::function<void()> after_execute;
};

struct WorkloadResult {
  /// Wrapping sum of checksumTerm() over the results; independent of parallelism.
  std::uint64_t checksum = 0;
  /// What the workload produces: records seen, keys reduced or timers fired.
  std::int64_t results = 0;
  /// Records that reached the end of the pipeline (the sink or the timer operator).
  std::int64_t output_records = 0;
  /// Wall time of execute().
  double seconds = 0;
  /// Window workloads: the most bytes the window operators' state held at
  /// once, and the (key, slice) entries it held then (0 elsewhere).
  std::uint64_t window_state_bytes_peak = 0;
  std::uint64_t window_state_entries_at_peak = 0;
  /// CEP workloads: the CEP operators' partial matches and events held (shared
  /// buffers and element buffers) at their peak and at the end, summed over
  /// subtasks (0 elsewhere).
  std::uint64_t peak_partial_matches = 0;
  std::uint64_t peak_buffered_events = 0;
  std::uint64_t partial_matches_at_end = 0;
  std::uint64_t buffered_events_at_end = 0;
};

/// Where the parallel subtasks of a job leave their share of the results;
/// each subtask adds once, at its end, so the lock is off the record path.
struct Tally {
  std::mutex mutex;
  std::uint64_t checksum = 0;
  std::int64_t results = 0;
  std::int64_t records = 0;

  void add(std::uint64_t checksum_part, std::int64_t results_part, std::int64_t records_part) {
    std::lock_guard<std::mutex> lock(mutex);
    checksum += checksum_part;
    results += results_part;
    records += records_part;
  }
};

/// Run the job built in `env` and collect what the subtasks left in `tally`.
inline WorkloadResult executeJob(StreamExecutionEnvironment& env, const char* job_name,
                                 const WorkloadOptions& options, Tally& tally) {
  if (options.before_execute) options.before_execute();
  const auto start = std::chrono::steady_clock::now();
  const JobExecutionResult job = env.execute(job_name);
  const auto stop = std::chrono::steady_clock::now();
  if (options.after_execute) options.after_execute();
  WorkloadResult result{tally.checksum, tally.results, tally.records,
                        std::chrono::duration<double>(stop - start).count()};
  for (const OperatorMetrics& op : job.getOperatorMetrics()) {
    result.window_state_bytes_peak += job.counter(op.name, "windowStateBytesPeak");
    result.window_state_entries_at_peak += job.counter(op.name, "windowStateEntriesAtPeak");
    result.peak_partial_matches += job.counter(op.name, "peakPartialMatches");
    result.peak_buffered_events += job.counter(op.name, "peakBufferedEvents");
    result.partial_matches_at_end += job.counter(op.name, "numPartialMatches");
    result.buffered_events_at_end += job.counter(op.name, "numBufferedEvents");
  }
  std::lock_guard<std::mutex> lock(tally.mutex);
  result.checksum = tally.checksum;
  result.results = tally.results;
  result.output_records = tally.records;
  return result;
}

}  // namespace tidemark::bench
