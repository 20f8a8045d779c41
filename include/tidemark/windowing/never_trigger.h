// NeverTrigger: a trigger that never fires; the default trigger of
// GlobalWindows (docs/semantics.md 4.2), whose one window only emits when the user
// sets a trigger that does (countWindow() sets CountTrigger).
//
// Contract:
// - Every callback returns CONTINUE; it registers no timer and keeps no
//   state, so clear() and onMerge() have nothing to do.
// - NeverTrigger::create() is a specification (see trigger.h) that builds a
//   Trigger<T, W> for any element and window type.
//
// Example:
//   stream.keyBy(key).window(tidemark::GlobalWindows::create())   // never emits on its own
//       .trigger(tidemark::NeverTrigger::create());                 // same as the default
#pragma once

#include <memory>
#include <string>

#include "tidemark/core/time.h"
#include "tidemark/windowing/trigger.h"

namespace tidemark {

namespace internal {

template <class T, class W>
class NeverTriggerImpl final : public Trigger<T, W> {
 public:
  TriggerResult onElement(const T&, Timestamp, const W&, TriggerContext<W>&) override {
    return TriggerResult::CONTINUE;
  }
  TriggerResult onEventTime(Timestamp, const W&, TriggerContext<W>&) override { return TriggerResult::CONTINUE; }
  TriggerResult onProcessingTime(Timestamp, const W&, TriggerContext<W>&) override {
    return TriggerResult::CONTINUE;
  }
  void clear(const W&, TriggerContext<W>&) override {}
  // As in Flink: onMerge is harmless, but canMerge() stays false because
  // GlobalWindows never merges.
  void onMerge(const W&, OnMergeContext<W>&) override {}
  std::string toString() const override { return "NeverTrigger()"; }
};

}  // namespace internal

class NeverTrigger {
 public:
  static NeverTrigger create() { return NeverTrigger(); }

  template <class T, class W>
  std::unique_ptr<Trigger<T, W>> build() const {
    return std::make_unique<internal::NeverTriggerImpl<T, W>>();
  }
  std::string toString() const { return "NeverTrigger()"; }

  friend bool operator==(const NeverTrigger&, const NeverTrigger&) = default;

 private:
  NeverTrigger() = default;
};

}  // namespace tidemark
