// PurgingTrigger: wraps another trigger and turns each of its firings into
// FIRE_AND_PURGE, so a window emits only what arrived since its last firing
// (docs/semantics.md 4.7).
//
// Contract:
// - Each callback delegates to the inner trigger; FIRE becomes
//   FIRE_AND_PURGE, and CONTINUE, PURGE and FIRE_AND_PURGE pass through.
// - clear(), canMerge() and onMerge() delegate.
// - The inner trigger is a built-in specification (CountTrigger::of(3)) or a
//   user Trigger<T, W> subclass; it is stored by value and built (or copied)
//   for the stream's T and W by build<T, W>(), like any trigger.
// - toString() is "PurgingTrigger(<inner>)".
//
// Example:
//   stream.keyBy(key).window(tidemark::GlobalWindows::create())
//       .trigger(tidemark::PurgingTrigger::of(tidemark::CountTrigger::of(100)));   // = countWindow(100)
#pragma once

#include <concepts>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "tidemark/core/time.h"
#include "tidemark/windowing/trigger.h"

namespace tidemark {

namespace internal {

template <class T, class W, class Inner>
class PurgingTriggerImpl final : public Trigger<T, W> {
 public:
  explicit PurgingTriggerImpl(const Inner& inner) : inner_(inner), nested_(makeTrigger<T, W>(inner_)) {}
  // A copy is a fresh trigger built from the same inner trigger: triggers keep
  // their per-window data in the context, so nothing else needs copying.
  PurgingTriggerImpl(const PurgingTriggerImpl& other) : PurgingTriggerImpl(other.inner_) {}
  PurgingTriggerImpl& operator=(const PurgingTriggerImpl&) = delete;

  TriggerResult onElement(const T& element, Timestamp timestamp, const W& window, TriggerContext<W>& ctx) override {
    return purgeOnFire(nested_->onElement(element, timestamp, window, ctx));
  }
  TriggerResult onEventTime(Timestamp time, const W& window, TriggerContext<W>& ctx) override {
    return purgeOnFire(nested_->onEventTime(time, window, ctx));
  }
  TriggerResult onProcessingTime(Timestamp time, const W& window, TriggerContext<W>& ctx) override {
    return purgeOnFire(nested_->onProcessingTime(time, window, ctx));
  }
  void clear(const W& window, TriggerContext<W>& ctx) override { nested_->clear(window, ctx); }

  bool canMerge() const override { return nested_->canMerge(); }
  void onMerge(const W& window, OnMergeContext<W>& ctx) override { nested_->onMerge(window, ctx); }

  std::string toString() const override { return "PurgingTrigger(" + nested_->toString() + ")"; }

  const Trigger<T, W>& getNestedTrigger() const { return *nested_; }

 private:
  static TriggerResult purgeOnFire(TriggerResult result) {
    return result == TriggerResult::FIRE ? TriggerResult::FIRE_AND_PURGE : result;
  }

  Inner inner_;
  std::unique_ptr<Trigger<T, W>> nested_;
};

}  // namespace internal

/// What PurgingTrigger::of() returns: the inner trigger, to be built with it.
template <class Inner>
class PurgingTriggerSpec {
 public:
  explicit PurgingTriggerSpec(Inner inner) : inner_(std::move(inner)) {}

  const Inner& getNestedTrigger() const { return inner_; }

  template <class T, class W>
  std::unique_ptr<Trigger<T, W>> build() const {
    return std::make_unique<internal::PurgingTriggerImpl<T, W, Inner>>(inner_);
  }
  /// Available when the inner trigger has toString() (every built-in one and every Trigger<T, W> does).
  std::string toString() const
    requires requires(const Inner& inner) {
      { inner.toString() } -> std::convertible_to<std::string>;
    }
  {
    return "PurgingTrigger(" + inner_.toString() + ")";
  }

 private:
  Inner inner_;
};

class PurgingTrigger {
 public:
  /// `inner`: a built-in trigger specification or a concrete user Trigger<T, W>.
  template <class Inner>
  static PurgingTriggerSpec<std::decay_t<Inner>> of(Inner&& inner) {
    static_assert(!std::is_abstract_v<std::decay_t<Inner>>,
                  "PurgingTrigger::of() needs a concrete trigger (it is stored by value), not a reference to "
                  "the abstract Trigger<T, W>");
    return PurgingTriggerSpec<std::decay_t<Inner>>(std::forward<Inner>(inner));
  }

  PurgingTrigger() = delete;
};

}  // namespace tidemark
