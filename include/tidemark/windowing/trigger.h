// Trigger<T, W>: decides when a window emits its result and when its contents
// are dropped (docs/semantics.md 4.7). Each subtask of a window operator has its
// own copy, shared by all keys and windows of that subtask, so a trigger
// keeps whatever it must remember per window in partitioned state
// (TriggerContext::getPartitionedState), never in members.
//
// Contract:
// - onElement runs after the element was added to the window; onEventTime /
//   onProcessingTime run when a timer the trigger registered for this window
//   fires. Each returns what the operator does next (TriggerResult).
// - clear() runs when the window is cleaned up (and for windows merged away):
//   it must delete the trigger's timers and state for the window.
// - A trigger used with merging windows (sessions) returns canMerge() = true
//   and implements onMerge(), which must re-register timers for the merged
//   window and merge its state.
// - Each subtask runs its own copy (made with the copy constructor).
//
// The built-in triggers (EventTimeTrigger, CountTrigger, ...) do not depend
// on the element type: their factories return a specification that
// WindowedStream::trigger() turns into a Trigger<T, W> for the stream's T and
// W (see TriggerSpec below). A user trigger derives from Trigger<T, W>.
//
// Example:
//   class EveryTen : public tidemark::Trigger<Order, tidemark::GlobalWindow> {
//    public:
//     TriggerResult onElement(const Order&, Timestamp, const GlobalWindow&, TriggerContext<GlobalWindow>& ctx) override {
//       auto& count = ctx.getPartitionedState(tidemark::ValueStateDescriptor<int64_t>("n", 0));
//       count.update(*count.value() + 1);
//       if (*count.value() < 10) return TriggerResult::CONTINUE;
//       count.clear();
//       return TriggerResult::FIRE_AND_PURGE;
//     }
//     ...
//   };
#pragma once

#include <concepts>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "tidemark/core/time.h"
#include "tidemark/windowing/trigger_context.h"
#include "tidemark/windowing/trigger_result.h"

namespace tidemark {

template <class T, class W>
class Trigger {
 public:
  using ElementType = T;
  using WindowType = W;

  virtual ~Trigger() = default;

  virtual TriggerResult onElement(const T& element, Timestamp timestamp, const W& window, TriggerContext<W>& ctx) = 0;
  virtual TriggerResult onEventTime(Timestamp time, const W& window, TriggerContext<W>& ctx) = 0;
  virtual TriggerResult onProcessingTime(Timestamp time, const W& window, TriggerContext<W>& ctx) = 0;
  /// Delete every timer and piece of state this trigger keeps for `window`.
  virtual void clear(const W& window, TriggerContext<W>& ctx) = 0;

  virtual bool canMerge() const { return false; }
  virtual void onMerge(const W& window, OnMergeContext<W>& ctx) {
    (void)window;
    (void)ctx;
    throw std::logic_error("trigger " + toString() + " does not support merging windows");
  }

  virtual std::string toString() const { return "Trigger"; }
};

/// A built-in trigger's specification: it builds the Trigger<T, W> for a
/// stream's element and window types.
template <class Spec, class T, class W>
concept TriggerSpec = requires(const Spec& spec) {
  { spec.template build<T, W>() } -> std::convertible_to<std::unique_ptr<Trigger<T, W>>>;
};

namespace internal {

/// Implemented by the built-in triggers that register one timer per window,
/// at its end, from onElement. For a window that already holds elements,
/// onElement then only registers that timer again and CONTINUEs, as long as
/// repeatsOnElement(window, ctx) says so; the window operator skips the
/// call, which would cost a lookup in the timer set per element. A user
/// trigger sees every element. clear() deletes exactly that timer, so when
/// it is also the window's cleanup timer (same time domain, no allowed
/// lateness) the operator does not delete it a second time.
template <class W>
class WindowEndTimerTrigger {
 public:
  /// Whether onElement for a window that already holds elements (so that
  /// its first element registered the timer) would only register that timer
  /// again and CONTINUE, at ctx's current times.
  virtual bool repeatsOnElement(const W& window, const TriggerContext<W>& ctx) const = 0;
  /// The time domain of the timer at the window's end.
  virtual bool timerIsEventTime() const = 0;

 protected:
  ~WindowEndTimerTrigger() = default;
};

/// Turn a user trigger or a built-in specification into the trigger a window operator runs.
template <class T, class W, class X>
std::unique_ptr<Trigger<T, W>> makeTrigger(const X& trigger) {
  if constexpr (std::is_base_of_v<Trigger<T, W>, X>) {
    return std::make_unique<X>(trigger);
  } else {
    static_assert(TriggerSpec<X, T, W>, "not a Trigger<T, W> for this stream's element and window types");
    return trigger.template build<T, W>();
  }
}

}  // namespace internal
}  // namespace tidemark
