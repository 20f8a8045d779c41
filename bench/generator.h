// The input every benchmark workload reads: a deterministic in-memory
// sequence, and the small pure functions that define it and the checksums.
//
// Record i (0 <= i < N) is Event{keyOf(i), i} (keys in [0, kNumKeys), or withKeys(n)) with event timestamp
// i / records_per_milli. Parallel subtask s of P emits i = s, s + P, s + 2P, ...
// Striding (rather than contiguous ranges) keeps every subtask at the same
// event time, so the minimum watermark downstream advances as fast as the
// sequence does and the number of pending timers stays what the workload says.
//
// Striding alone does not keep them there: a consumer takes whatever input
// is available, so while one source thread is descheduled the others run on,
// and nothing ever pulls them back together. The drift is a random walk, and
// every millisecond of it is a millisecond of timers that cannot fire
// (keyed-timers at parallelism 2 on a loaded machine: peak RSS 150-250 MB
// without alignment, 38 MB with it).
// Workloads that depend on event time therefore give the generator an
// EventTimeAlignment, which pauses a subtask that gets too far ahead of the
// slowest one, as Flink's source watermark alignment does.
//
// Checksums are wrapping sums of checksumTerm() over the results, so they do
// not depend on which subtask produced a result or in which order.
//
// Nothing here allocates per record: the source builds each Event on the
// stack and the generator state is a few integers.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <utility>

#include "tidemark/connectors/event_time_alignment.h"
#include "tidemark/tidemark.h"

namespace tidemark::bench {

inline constexpr std::int64_t kNumKeys = 10'000;
inline constexpr std::int64_t kDefaultRecordsPerMilli = 1'000;

struct Event {
  std::int64_t key = 0;
  std::int64_t value = 0;

  friend bool operator==(const Event&, const Event&) = default;
  // Lets a failing job name the element instead of "<Event>".
  friend std::ostream& operator<<(std::ostream& os, const Event& e) {
    return os << "Event{key=" << e.key << ", value=" << e.value << '}';
  }
};

/// Spreads every input bit over the output (the same mix the key groups use).
constexpr std::uint64_t mix(std::uint64_t x) { return tidemark::internal::mix64(x); }

constexpr std::int64_t keyOf(std::int64_t i, std::int64_t num_keys = kNumKeys) {
  return static_cast<std::int64_t>(mix(static_cast<std::uint64_t>(i)) % static_cast<std::uint64_t>(num_keys));
}

constexpr Timestamp timestampOf(std::int64_t i, std::int64_t records_per_milli) { return i / records_per_milli; }

/// The map step of map-keyby-reduce.
constexpr std::int64_t mapValue(std::int64_t v) { return 3 * v + 1; }

/// One result's contribution to a checksum. Asymmetric in (a, b) so that
/// swapped fields do not cancel out.
constexpr std::uint64_t checksumTerm(std::int64_t a, std::int64_t b) {
  return mix(mix(static_cast<std::uint64_t>(a)) + static_cast<std::uint64_t>(b));
}

/// Called by subtask 0 of the source when it has emitted a quarter of its
/// share and when it has emitted all of it: the window over which the
/// benchmark measures steady-state allocations (after channels, state tables
/// and timer buckets reached their working size). Never called per record.
struct SteadyStateHooks {
  std::function<void()> begin;
  std::function<void()> end;
};

class GeneratorSource final : public ParallelSourceFunction<Event> {
 public:
  GeneratorSource(std::int64_t records, std::int64_t records_per_milli, bool emit_watermarks,
                  std::shared_ptr<const SteadyStateHooks> hooks,
                  std::shared_ptr<EventTimeAlignment> alignment = nullptr)
      : records_(records),
        records_per_milli_(records_per_milli),
        emit_watermarks_(emit_watermarks),
        hooks_(std::move(hooks)),
        alignment_(std::move(alignment)) {}

  /// Draw keys from [0, num_keys) instead of [0, kNumKeys).
  GeneratorSource& withKeys(std::int64_t num_keys) {
    num_keys_ = num_keys;
    return *this;
  }
  /// Stamp record i with (i / records_per_milli) * stride: event time runs
  /// `stride` times faster and every timestamp is a multiple of it.
  GeneratorSource& withTimestampStride(std::int64_t stride) {
    stride_ = stride;
    return *this;
  }

  void run(SourceContext<Event>& ctx) override {
    subtask_ = ctx.getIndexOfThisSubtask();
    if (alignment_ != nullptr && alignment_->subtasks() != ctx.getNumberOfParallelSubtasks()) {
      throw std::logic_error("EventTimeAlignment sized for another parallelism than the source's");
    }
    const std::int64_t step = ctx.getNumberOfParallelSubtasks();
    const std::int64_t first = subtask_;
    const bool reports = subtask_ == 0 && hooks_ != nullptr;
    // The quarter mark is the first index of this subtask at or past N / 4.
    std::int64_t quarter = records_ / 4;
    quarter = first + (quarter > first ? (quarter - first + step - 1) / step * step : 0);
    emitRange(ctx, first, quarter, step);
    if (reports && hooks_->begin) hooks_->begin();
    emitRange(ctx, quarter, records_, step);
    if (alignment_ != nullptr) alignment_->finish(subtask_);
    if (reports && hooks_->end) hooks_->end();
  }

 private:
  void emitRange(SourceContext<Event>& ctx, std::int64_t begin, std::int64_t end, std::int64_t step) {
    for (std::int64_t i = begin; i < end; i += step) {
      // A compare per record instead of a 64-bit division, the slowest
      // instruction the generator would otherwise run.
      if (i >= next_millisecond_) enterMillisecond(ctx, i);
      ctx.collectWithTimestamp(Event{keyOf(i, num_keys_), i}, current_timestamp_);
    }
  }

  void enterMillisecond(SourceContext<Event>& ctx, std::int64_t i) {
    const Timestamp timestamp = timestampOf(i, records_per_milli_) * stride_;
    // Timestamps never decrease, so entering a new millisecond closes the
    // previous one: the watermark a monotonous strategy would compute, without
    // its per-record generator call and periodic timer.
    if (emit_watermarks_ && current_timestamp_ != kMinWatermark) ctx.emitWatermark(timestamp - 1);
    current_timestamp_ = timestamp;
    next_millisecond_ = (timestampOf(i, records_per_milli_) + 1) * records_per_milli_;
    if (alignment_ != nullptr) {
      alignment_->publish(subtask_, timestamp);
      // Sleeping through the context flushes this subtask's partly filled
      // batches and keeps cancellation working while it waits.
      while (alignment_->tooFarAhead(timestamp)) ctx.sleep(1);
    }
  }

  std::int64_t records_;
  std::int64_t records_per_milli_;
  bool emit_watermarks_;
  std::shared_ptr<const SteadyStateHooks> hooks_;
  std::shared_ptr<EventTimeAlignment> alignment_;
  std::int64_t num_keys_ = kNumKeys;
  std::int64_t stride_ = 1;
  int subtask_ = 0;
  Timestamp current_timestamp_ = kMinWatermark;
  std::int64_t next_millisecond_ = 0;
};

}  // namespace tidemark::bench
