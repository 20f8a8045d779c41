// ProcessingTimeTrigger: fires a TimeWindow when processing time reaches its
// end; the default trigger of the processing-time assigners (docs/semantics.md
// 4.7, 4.10).
//
// Contract:
// - onElement registers a processing-time timer at window.maxTimestamp()
//   (registering the same time again is a no-op) and CONTINUEs.
// - onProcessingTime FIREs: the only processing-time timer it registers for
//   a window is the one at maxTimestamp(), which is also the window's cleanup
//   time, so no other processing-time callback reaches it.
// - clear() deletes that timer. It can merge: onMerge() registers the merged
//   window's timer only when maxTimestamp() > current processing time, as
//   in Flink; otherwise the onElement that follows the merge registers it.
// - TimeWindow only, as in Flink.
//
// Example:
//   stream.keyBy(key).window(tidemark::TumblingProcessingTimeWindows::of(std::chrono::seconds(5)))
//       .trigger(tidemark::ProcessingTimeTrigger::create());   // same as the default
#pragma once

#include <memory>
#include <string>
#include <type_traits>

#include "tidemark/core/time.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/trigger.h"

namespace tidemark {

namespace internal {

template <class T, class W>
class ProcessingTimeTriggerImpl final : public Trigger<T, W>, public WindowEndTimerTrigger<W> {
  static_assert(std::is_same_v<W, TimeWindow>,
                "ProcessingTimeTrigger works with TimeWindow only (for GlobalWindow use "
                "ContinuousProcessingTimeTrigger or a custom trigger)");

 public:
  TriggerResult onElement(const T&, Timestamp, const W& window, TriggerContext<W>& ctx) override {
    ctx.registerProcessingTimeTimer(window.maxTimestamp());
    return TriggerResult::CONTINUE;
  }

  bool timerIsEventTime() const override { return false; }

  /// Before processing time reaches the window's end, the timer the window's
  /// first element registered has not fired. After, an element registers a
  /// timer that fires at once: a processing-time window is cleared by then,
  /// but an event-time window this trigger was set on fires again.
  bool repeatsOnElement(const W& window, const TriggerContext<W>& ctx) const override {
    return window.maxTimestamp() > ctx.getCurrentProcessingTime();
  }

  TriggerResult onEventTime(Timestamp, const W&, TriggerContext<W>&) override { return TriggerResult::CONTINUE; }

  TriggerResult onProcessingTime(Timestamp, const W&, TriggerContext<W>&) override { return TriggerResult::FIRE; }

  void clear(const W& window, TriggerContext<W>& ctx) override {
    ctx.deleteProcessingTimeTimer(window.maxTimestamp());
  }

  bool canMerge() const override { return true; }

  void onMerge(const W& window, OnMergeContext<W>& ctx) override {
    if (window.maxTimestamp() > ctx.getCurrentProcessingTime()) {
      ctx.registerProcessingTimeTimer(window.maxTimestamp());
    }
  }

  std::string toString() const override { return "ProcessingTimeTrigger()"; }
};

}  // namespace internal

class ProcessingTimeTrigger {
 public:
  static ProcessingTimeTrigger create() { return ProcessingTimeTrigger(); }

  template <class T, class W>
  std::unique_ptr<Trigger<T, W>> build() const {
    return std::make_unique<internal::ProcessingTimeTriggerImpl<T, W>>();
  }
  std::string toString() const { return "ProcessingTimeTrigger()"; }

  friend bool operator==(const ProcessingTimeTrigger&, const ProcessingTimeTrigger&) = default;

 private:
  ProcessingTimeTrigger() = default;
};

}  // namespace tidemark
