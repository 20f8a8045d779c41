// Source watermark alignment for parallel generators: where each subtask of
// a source is in event time, so that one that runs ahead can pause until the
// slowest catches up (as Flink's source watermark alignment does).
//
// Without it, parallel source subtasks drift apart in event time whenever
// one is descheduled; the drift is a random walk, and every millisecond of
// it is state (window panes, timers) downstream that cannot be released yet.
// A source publishes its position when it enters a new millisecond of event
// time, not per record, and pauses with SourceContext::sleep (which flushes
// its output and keeps cancellation working).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>

#include "tidemark/core/time.h"

namespace tidemark {

class EventTimeAlignment {
 public:
  EventTimeAlignment(int subtasks, Duration max_drift)
      : positions_(std::make_unique<Position[]>(static_cast<std::size_t>(subtasks))),
        subtasks_(subtasks),
        max_drift_(max_drift) {}

  int subtasks() const { return subtasks_; }

  void publish(int subtask, Timestamp timestamp) {
    positions_[static_cast<std::size_t>(subtask)].timestamp.store(timestamp, std::memory_order_relaxed);
  }

  /// A finished subtask must not hold the others back.
  void finish(int subtask) { publish(subtask, kMaxWatermark); }

  /// Whether a subtask at `timestamp` must wait for the slowest one. Every
  /// published position is >= 0, so the difference cannot overflow.
  bool tooFarAhead(Timestamp timestamp) const {
    Timestamp slowest = kMaxWatermark;
    for (std::size_t s = 0; s < static_cast<std::size_t>(subtasks_); ++s) {
      slowest = std::min(slowest, positions_[s].timestamp.load(std::memory_order_relaxed));
    }
    return timestamp - slowest > max_drift_;
  }

 private:
  // One cache line each, so publishing does not invalidate the others' lines.
  struct alignas(64) Position {
    std::atomic<Timestamp> timestamp{0};
  };

  std::unique_ptr<Position[]> positions_;
  int subtasks_;
  Duration max_drift_;
};

}  // namespace tidemark
