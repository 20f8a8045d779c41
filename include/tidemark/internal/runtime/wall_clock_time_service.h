// Processing time from the wall clock, for real-thread execution. The owning
// task's loop asks for the next deadline and calls fireDue(); nothing here
// runs on another thread.
//
// An input task's loop reads the clock once per input batch and pins that
// reading (pin()): operators then see the time the batch was taken, and
// timers fire against the same reading. A clock read costs about 30 ns, as
// much as a keyed window update, and processing-time window assigners and
// triggers ask for the time on every element. A batch holds at most 1024
// records, so at ~100 ns a record the reading is a tenth of a millisecond
// old at most; a user function that takes longer per record makes it older
// in proportion, as if the batch's records had all arrived when it was taken.
// Source tasks, which have no batches to read from, pin nothing and read the
// clock on every call.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <queue>
#include <vector>

#include "tidemark/internal/time/processing_time_service.h"

namespace tidemark::internal {

/// Milliseconds since the Unix epoch.
Timestamp wallClockMillis();

class WallClockTimeService final : public ProcessingTimeService {
 public:
  /// The pinned reading, else the wall clock.
  Timestamp currentProcessingTime() const override { return pinned_ ? *pinned_ : wallClockMillis(); }
  void registerTimer(Timestamp t, Callback callback) override;

  /// Answer currentProcessingTime() with `now` until the next pin(). Kept
  /// monotonic: a reading earlier than the pinned one (the wall clock was
  /// set back) leaves the pinned one.
  void pin(Timestamp now) { pinned_ = pinned_ ? std::max(*pinned_, now) : now; }

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
  std::optional<Timestamp> pinned_;
};

}  // namespace tidemark::internal
