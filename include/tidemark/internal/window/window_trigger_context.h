// The TriggerContext a window operator hands its trigger: timers of the
// current key and the window of the call, trigger state in a backend keyed by
// the same key (type-erased, since a Trigger<T, W> has no key type).
#pragma once

#include <span>
#include <vector>

#include "tidemark/internal/operators/internal_timer_service.h"
#include "tidemark/internal/state/erased_key.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"
#include "tidemark/windowing/trigger.h"

namespace tidemark::internal {

template <class K, class W>
class WindowTriggerContext final : public OnMergeContext<W> {
 public:
  WindowTriggerContext(InternalTimerService<K, W>& timers, HeapKeyedStateBackend<K>& keys, const Timestamp& watermark)
      : timers_(timers),
        keys_(keys),
        watermark_(watermark),
        state_(keys.getKeyGroupRange(), keys.getMaxParallelism(), triggerKeys()) {}

  Timestamp getCurrentProcessingTime() const override { return timers_.currentProcessingTime(); }
  Timestamp getCurrentWatermark() const override { return watermark_; }
  void registerEventTimeTimer(Timestamp time) override {
    timers_.registerEventTimeTimer(keys_.getCurrentKey(), this->window(), time);
  }
  void registerProcessingTimeTimer(Timestamp time) override {
    timers_.registerProcessingTimeTimer(keys_.getCurrentKey(), this->window(), time);
  }
  void deleteEventTimeTimer(Timestamp time) override {
    timers_.deleteEventTimeTimer(keys_.getCurrentKey(), this->window(), time);
  }
  void deleteProcessingTimeTimer(Timestamp time) override {
    timers_.deleteProcessingTimeTimer(keys_.getCurrentKey(), this->window(), time);
  }
  const std::vector<W>& mergedWindows() const override { return *merged_windows_; }

  /// The operator changed its current key; the trigger state follows lazily,
  /// so a trigger without state costs nothing per element.
  void keyChanged() { key_stale_ = true; }
  void setMergedWindows(const std::vector<W>& windows) { merged_windows_ = &windows; }

  std::size_t numStateEntries() const { return state_.numStateEntries(); }

  /// The trigger's state, for the operator's snapshot: keys in K's format.
  KeyedStateSnapshot snapshot() const { return state_.snapshot(); }
  /// Before the trigger asks for any state.
  void restore(std::span<const KeyedStateSnapshot> snapshots) { state_.restore(snapshots); }

 protected:
  KeyedStateBackend<ErasedKey>& stateBackend() override {
    if (key_stale_) {
      state_.setCurrentKey(ErasedKey::borrow(keys_.getCurrentKey()), keys_.getCurrentKeyGroup());
      key_stale_ = false;
    }
    return state_;
  }

 private:
  static CurrentKeyContext<ErasedKey> triggerKeys() {
    CurrentKeyContext<ErasedKey> keys;
    keys.type = &ErasedKey::opsFor<K>();
    return keys;
  }

  InternalTimerService<K, W>& timers_;
  HeapKeyedStateBackend<K>& keys_;
  const Timestamp& watermark_;
  HeapKeyedStateBackend<ErasedKey> state_;
  bool key_stale_ = true;
  const std::vector<W>* merged_windows_ = nullptr;
};

}  // namespace tidemark::internal
