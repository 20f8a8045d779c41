// Processing time from the wall clock, for real-thread execution. The owning
// task's loop asks for the next deadline and calls fireDue(); nothing here
// runs on another thread.
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "tidemark/runtime/processing_time_service.h"

namespace tidemark::internal {

/// Milliseconds since the Unix epoch.
Timestamp wallClockMillis();

class WallClockTimeService final : public ProcessingTimeService {
 public:
  Timestamp currentProcessingTime() const override { return wallClockMillis(); }
  void registerTimer(Timestamp t, Callback callback) override;

  /// Run every callback due at the current time, in (time, registration) order.
  void fireDue();
  /// The earliest pending callback time, or kMaxWatermark.
  Timestamp nextDeadline() const { return queue_.empty() ? kMaxWatermark : queue_.top().time; }
  void clear() { queue_ = {}; }

 private:
  struct Pending {
    Timestamp time;
    std::uint64_t seq;
    Callback callback;
    bool operator>(const Pending& other) const {
      return time != other.time ? time > other.time : seq > other.seq;
    }
  };
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> queue_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace tidemark::internal
