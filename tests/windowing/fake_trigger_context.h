// A TriggerContext for driving one trigger by hand in tests: a heap keyed
// state backend with a settable current key, both clocks as plain values, and
// the registered timers kept as sets of (time, key, window), deduplicated like
// the real timer service's queues.
//
// advanceWatermark()/advanceProcessingTime() play the timer service: they
// remove and fire every due timer in time order, making its key and window
// current first, and re-check the queue after each callback, so a timer a
// trigger registers at or before the new time fires in the same advance
// (docs/semantics.md 3.2).
#pragma once

#include <compare>
#include <cstddef>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/core/key_group.h"
#include "tidemark/core/time.h"
#include "tidemark/internal/state/erased_key.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/trigger_context.h"
#include "tidemark/windowing/trigger_result.h"

namespace tidemark::internal::testing {

/// One registered timer. Ordered by time first, the order timers fire in.
template <class W>
struct FakeTimer {
  Timestamp time = 0;
  std::string key;
  W window;

  friend bool operator==(const FakeTimer&, const FakeTimer&) = default;
  friend auto operator<=>(const FakeTimer&, const FakeTimer&) = default;
  friend std::ostream& operator<<(std::ostream& os, const FakeTimer& t) {
    return os << "{time=" << t.time << ", key=" << t.key << ", window=" << t.window << '}';
  }
};

/// What a fired timer's callback returned.
struct FiredTimer {
  Timestamp time = 0;
  TriggerResult result = TriggerResult::CONTINUE;

  friend bool operator==(const FiredTimer&, const FiredTimer&) = default;
  friend std::ostream& operator<<(std::ostream& os, const FiredTimer& f) {
    return os << '{' << f.time << ", " << triggerResultName(f.result) << '}';
  }
};

template <class W>
class FakeTriggerContext final : public OnMergeContext<W> {
 public:
  using Timers = std::set<FakeTimer<W>>;

  FakeTriggerContext() : backend_(KeyGroupRange{0, 0}, 1) { setCurrentKey("key-a"); }
  // The backend's current key borrows key_.
  FakeTriggerContext(const FakeTriggerContext&) = delete;
  FakeTriggerContext& operator=(const FakeTriggerContext&) = delete;

  /// Make `key` current for state and timers (one key group holds every key).
  void setCurrentKey(std::string key) {
    key_ = std::move(key);
    backend_.setCurrentKey(ErasedKey::borrow(key_), 0);
  }
  const std::string& currentKey() const { return key_; }

  /// The window of the next callback; the context keeps its own copy, as
  /// TriggerContext::setWindow only keeps a pointer.
  void useWindow(const W& window) {
    window_ = window;
    this->setWindow(*window_);
  }

  void setCurrentWatermark(Timestamp watermark) { watermark_ = watermark; }
  void setCurrentProcessingTime(Timestamp time) { processing_time_ = time; }
  void setMergedWindows(std::vector<W> windows) { merged_windows_ = std::move(windows); }

  Timestamp getCurrentProcessingTime() const override { return processing_time_; }
  Timestamp getCurrentWatermark() const override { return watermark_; }
  void registerEventTimeTimer(Timestamp time) override { event_timers_.insert(timer(time)); }
  void registerProcessingTimeTimer(Timestamp time) override { processing_timers_.insert(timer(time)); }
  void deleteEventTimeTimer(Timestamp time) override { event_timers_.erase(timer(time)); }
  void deleteProcessingTimeTimer(Timestamp time) override { processing_timers_.erase(timer(time)); }
  const std::vector<W>& mergedWindows() const override { return merged_windows_; }

  const Timers& eventTimers() const { return event_timers_; }
  const Timers& processingTimers() const { return processing_timers_; }

  /// The times of the current key's and window's timers.
  std::set<Timestamp> eventTimerTimes() const { return timesOfCurrent(event_timers_); }
  std::set<Timestamp> processingTimerTimes() const { return timesOfCurrent(processing_timers_); }

  /// Entries over all trigger states, of every key and window.
  std::size_t numStateEntries() const { return backend_.numStateEntries(); }
  std::size_t numStateEntries(const std::string& state_name) const { return backend_.numStateEntries(state_name); }

  /// Set the watermark, then fire every event-time timer at or before it.
  template <class T>
  std::vector<FiredTimer> advanceWatermark(Trigger<T, W>& trigger, Timestamp watermark) {
    watermark_ = watermark;
    return fireDue(event_timers_, watermark, [&](Timestamp t, const W& w) { return trigger.onEventTime(t, w, *this); });
  }

  /// Set processing time, then fire every processing-time timer at or before it.
  template <class T>
  std::vector<FiredTimer> advanceProcessingTime(Trigger<T, W>& trigger, Timestamp time) {
    processing_time_ = time;
    return fireDue(processing_timers_, time,
                   [&](Timestamp t, const W& w) { return trigger.onProcessingTime(t, w, *this); });
  }

 protected:
  KeyedStateBackend<ErasedKey>& stateBackend() override { return backend_; }

 private:
  FakeTimer<W> timer(Timestamp time) const { return FakeTimer<W>{time, key_, this->window()}; }

  std::set<Timestamp> timesOfCurrent(const Timers& timers) const {
    std::set<Timestamp> times;
    for (const FakeTimer<W>& t : timers) {
      if (t.key == key_ && t.window == this->window()) times.insert(t.time);
    }
    return times;
  }

  template <class Fire>
  std::vector<FiredTimer> fireDue(Timers& timers, Timestamp time, Fire fire) {
    std::vector<FiredTimer> fired;
    // A trigger that keeps re-registering a due timer would loop for ever;
    // fail the test instead of hanging it.
    constexpr int kMaxFirings = 10'000;
    while (!timers.empty() && timers.begin()->time <= time) {
      if (fired.size() >= kMaxFirings) throw std::logic_error("a trigger keeps re-registering a due timer");
      FakeTimer<W> due = *timers.begin();
      timers.erase(timers.begin());
      setCurrentKey(due.key);
      useWindow(due.window);
      fired.push_back(FiredTimer{due.time, fire(due.time, *window_)});
    }
    return fired;
  }

  HeapKeyedStateBackend<ErasedKey> backend_;
  std::string key_;
  std::optional<W> window_;
  Timestamp watermark_ = kMinWatermark;
  Timestamp processing_time_ = 0;
  std::vector<W> merged_windows_;
  Timers event_timers_;
  Timers processing_timers_;
};

}  // namespace tidemark::internal::testing
