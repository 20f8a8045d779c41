#include "tidemark/internal/runtime/wall_clock_time_service.h"

#include <chrono>
#include <utility>

namespace tidemark::internal {

Timestamp wallClockMillis() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

void WallClockTimeService::registerTimer(Timestamp t, Callback callback) {
  queue_.push(Pending{t, next_seq_++, std::move(callback)});
}

void WallClockTimeService::fireDue() {
  if (queue_.empty()) return;
  const Timestamp now = currentProcessingTime();
  while (!queue_.empty() && queue_.top().time <= now) {
    Pending next = std::move(const_cast<Pending&>(queue_.top()));
    queue_.pop();
    next.callback(now);
  }
}

}  // namespace tidemark::internal
