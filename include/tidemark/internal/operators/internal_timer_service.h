// Event-time and processing-time timers of one keyed operator (docs/semantics.md 3).
//
// Event time is driven by the operator: advanceWatermark(w) makes w the current
// watermark before firing anything, so onEventTime already sees w, and it
// re-polls after every firing so a timer registered inside onEventTime at
// t <= w fires within the same advance. A timer registered at t <= the current
// watermark otherwise waits for the next advance; nothing fires on
// registration.
//
// Processing time is driven by the ProcessingTimeService, which cannot cancel
// a request. So the service keeps the times of wake-ups it has requested and
// not yet seen, and requests a new one only when a timer would otherwise be
// late: the queue's head must always have a pending wake-up at or before it.
// Requests are only made below every pending one, so the pending times form a
// strictly decreasing stack whose top is the next to arrive. A wake-up whose
// timers were deleted fires nothing and just re-arms for the current head.
//
// Keys are explicit: every timer carries its key, and the target sets its own
// current key from the entry before running user code.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "tidemark/core/time.h"
#include "tidemark/internal/operators/timer_queue.h"
#include "tidemark/internal/time/processing_time_service.h"

namespace tidemark::internal {

/// Receives fired timers; implemented by the operator that owns the service.
/// The entry lives only for the duration of the call.
template <class K, class N>
class TimerTarget {
 public:
  virtual ~TimerTarget() = default;
  virtual void onEventTime(const TimerEntry<K, N>& timer) = 0;
  virtual void onProcessingTime(const TimerEntry<K, N>& timer) = 0;
};

template <class K, class N>
class InternalTimerService {
 public:
  InternalTimerService(ProcessingTimeService& time_service, TimerTarget<K, N>& target)
      : time_service_(time_service),
        target_(target),
        self_(std::make_shared<InternalTimerService*>(this)) {}

  // Pending wake-ups refer to this object, so it must stay where it is.
  InternalTimerService(const InternalTimerService&) = delete;
  InternalTimerService& operator=(const InternalTimerService&) = delete;
  ~InternalTimerService() = default;

  void registerEventTimeTimer(const K& key, const N& ns, Timestamp t) {
    event_time_timers_.add(key, ns, t);
  }
  void deleteEventTimeTimer(const K& key, const N& ns, Timestamp t) {
    event_time_timers_.remove(key, ns, t);
  }

  void registerProcessingTimeTimer(const K& key, const N& ns, Timestamp t) {
    const std::optional<Timestamp> old_head = processing_time_timers_.peekTimestamp();
    if (!processing_time_timers_.add(key, ns, t)) return;
    if (old_head && *old_head <= t) return;
    requestWakeUp(t);
  }
  // The wake-up requested for a deleted timer stays; it will fire nothing.
  void deleteProcessingTimeTimer(const K& key, const N& ns, Timestamp t) {
    processing_time_timers_.remove(key, ns, t);
  }

  Timestamp currentWatermark() const { return current_watermark_; }
  Timestamp currentProcessingTime() const { return time_service_.currentProcessingTime(); }

  /// A restore: event time starts at `w`; nothing fires.
  void restoreWatermark(Timestamp w) { current_watermark_ = w; }

  /// Set the watermark to `w`, then fire every event-time timer at or before it.
  void advanceWatermark(Timestamp w) {
    current_watermark_ = w;
    while (std::optional<TimerEntry<K, N>> timer = event_time_timers_.pollAtOrBefore(w)) {
      target_.onEventTime(*timer);
    }
  }

  std::size_t numEventTimeTimers() const { return event_time_timers_.size(); }
  std::size_t numProcessingTimeTimers() const { return processing_time_timers_.size(); }

  /// Call `f(const K&, const N&, Timestamp)` per timer, in firing order.
  template <class F>
  void forEachEventTimeTimer(F&& f) const {
    event_time_timers_.forEach(std::forward<F>(f));
  }
  template <class F>
  void forEachProcessingTimeTimer(F&& f) const {
    processing_time_timers_.forEach(std::forward<F>(f));
  }

 private:
  // Makes sure a wake-up is pending at or before `t`, the queue's new head.
  void requestWakeUp(Timestamp t) {
    // Inside a firing loop, a timer at or before the loop's time fires in that
    // loop anyway.
    if (firing_processing_time_ && t <= firing_time_) return;
    if (!pending_wake_ups_.empty() && pending_wake_ups_.back() <= t) return;
    pending_wake_ups_.push_back(t);
    // The callback may outlive this object when the owner drops it before the
    // task ends; a weak reference makes that harmless.
    std::weak_ptr<InternalTimerService*> self = self_;
    time_service_.registerTimer(t, [self = std::move(self)](Timestamp time) {
      if (std::shared_ptr<InternalTimerService*> alive = self.lock()) (*alive)->onWakeUp(time);
    });
  }

  void onWakeUp(Timestamp time) {
    auto it = std::find(pending_wake_ups_.rbegin(), pending_wake_ups_.rend(), time);
    if (it != pending_wake_ups_.rend()) pending_wake_ups_.erase(std::next(it).base());
    {
      FiringScope scope(*this, time);
      while (std::optional<TimerEntry<K, N>> timer = processing_time_timers_.pollAtOrBefore(time)) {
        target_.onProcessingTime(*timer);
      }
    }
    if (std::optional<Timestamp> head = processing_time_timers_.peekTimestamp()) requestWakeUp(*head);
  }

  // Restores the flag even when a target throws.
  class FiringScope {
   public:
    FiringScope(InternalTimerService& service, Timestamp time)
        : service_(service),
          was_firing_(service.firing_processing_time_),
          old_time_(service.firing_time_) {
      service_.firing_processing_time_ = true;
      service_.firing_time_ = time;
    }
    FiringScope(const FiringScope&) = delete;
    FiringScope& operator=(const FiringScope&) = delete;
    ~FiringScope() {
      service_.firing_processing_time_ = was_firing_;
      service_.firing_time_ = old_time_;
    }

   private:
    InternalTimerService& service_;
    bool was_firing_;
    Timestamp old_time_;
  };

  ProcessingTimeService& time_service_;
  TimerTarget<K, N>& target_;
  TimerQueue<K, N> event_time_timers_;
  TimerQueue<K, N> processing_time_timers_;
  Timestamp current_watermark_ = kMinWatermark;
  // Times of requested wake-ups not yet received, strictly decreasing.
  std::vector<Timestamp> pending_wake_ups_;
  bool firing_processing_time_ = false;
  Timestamp firing_time_ = kMinWatermark;
  std::shared_ptr<InternalTimerService*> self_;
};

}  // namespace tidemark::internal
