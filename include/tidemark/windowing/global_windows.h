// GlobalWindows: puts every record of a key into the one GlobalWindow of that
// key (docs/semantics.md 4.2). The window never ends, so it emits only when a
// trigger says so and is never cleaned up by time.
//
// Contract:
// - assignWindows() appends GlobalWindow for every record, with or without
//   a timestamp.
// - The default trigger is NeverTrigger: without .trigger(...) the window
//   never fires. countWindow(n) is GlobalWindows with
//   PurgingTrigger::of(CountTrigger::of(n)).
// - isEventTime() is false, as in Flink: a GlobalWindow is never late.
// - toString(): "GlobalWindows()".
//
// Example:
//   stream.keyBy(key).window(tidemark::GlobalWindows::create())
//       .trigger(tidemark::CountTrigger::of(100));
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tidemark/core/time.h"
#include "tidemark/windowing/global_window.h"
#include "tidemark/windowing/never_trigger.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark {

namespace internal {

template <class T>
class GlobalWindowsAssigner final : public WindowAssigner<T, GlobalWindow> {
 public:
  void assignWindows(const T&, Timestamp, const WindowAssignerContext&, std::vector<GlobalWindow>& windows) override {
    windows.push_back(GlobalWindow::get());
  }

  std::unique_ptr<Trigger<T, GlobalWindow>> getDefaultTrigger() const override {
    return NeverTrigger::create().build<T, GlobalWindow>();
  }
  bool isEventTime() const override { return false; }
  std::string toString() const override { return "GlobalWindows()"; }
};

}  // namespace internal

class GlobalWindows {
 public:
  using WindowType = GlobalWindow;

  static GlobalWindows create() { return GlobalWindows(); }

  bool isEventTime() const { return false; }
  std::string toString() const { return "GlobalWindows()"; }

  template <class T>
  std::unique_ptr<WindowAssigner<T, GlobalWindow>> build() const {
    return std::make_unique<internal::GlobalWindowsAssigner<T>>();
  }

  friend bool operator==(const GlobalWindows&, const GlobalWindows&) = default;

 private:
  GlobalWindows() = default;
};

}  // namespace tidemark
