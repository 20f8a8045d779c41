// A processing-time clock that only moves when told to: tests and the test
// harness set the time and the due callbacks run synchronously inside that
// call, on the caller's thread, which stands in for the task thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "tidemark/core/time.h"
#include "tidemark/internal/time/processing_time_service.h"

namespace tidemark::internal {

class ManualProcessingTimeService : public ProcessingTimeService {
 public:
  explicit ManualProcessingTimeService(Timestamp start = 0) : now_(start) {}

  Timestamp currentProcessingTime() const override { return now_; }

  /// A callback due at or before the current time waits for the next
  /// setCurrentTime() (which may repeat the current time), as nothing runs
  /// outside it.
  void registerTimer(Timestamp t, Callback callback) override {
    pending_.emplace(std::pair{t, next_sequence_++}, std::move(callback));
  }

  /// Move the clock to `t`, then run every callback due at or before `t` in
  /// (time, registration) order, including ones registered while doing so.
  /// Throws std::invalid_argument if `t` is earlier than the current time and
  /// std::logic_error if called from inside a callback.
  void setCurrentTime(Timestamp t) {
    if (t < now_) {
      throw std::invalid_argument("ManualProcessingTimeService: time " + std::to_string(t) +
                                  " is before the current time " + std::to_string(now_));
    }
    if (running_) {
      throw std::logic_error("ManualProcessingTimeService: setCurrentTime called from a callback");
    }
    now_ = t;
    running_ = true;
    // Restores the flag even when a callback throws.
    struct Reset {
      bool& flag;
      ~Reset() { flag = false; }
    } reset{running_};
    while (!pending_.empty() && pending_.begin()->first.first <= t) {
      auto node = pending_.extract(pending_.begin());
      node.mapped()(node.key().first);
    }
  }

  std::size_t numPendingCallbacks() const { return pending_.size(); }

 private:
  Timestamp now_;
  bool running_ = false;
  // Keyed by (due time, registration number) so equal times keep their order.
  std::map<std::pair<Timestamp, std::uint64_t>, Callback> pending_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace tidemark::internal
