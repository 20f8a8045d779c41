// TumblingWindows<Traits>: what TumblingEventTimeWindows and
// TumblingProcessingTimeWindows share: the specification (of(), validation,
// getters, toString()) and the assigner that puts an element into the one
// window of the grid that contains its time. The two are this template with
// different traits (a clock from window_clock.h plus the name), so that they
// can only differ in the clock and in their messages; their contracts are in
// tumbling_event_time_windows.h and tumbling_processing_time_windows.h.
//
// Traits: a clock and `static constexpr std::string_view kName`, the name
// messages and toString() start with.
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/time.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/window_assigner.h"
#include "tidemark/windowing/window_clock.h"

namespace tidemark {

/// Use it as TumblingEventTimeWindows or TumblingProcessingTimeWindows.
template <class Traits>
class TumblingWindows {
 public:
  using WindowType = TimeWindow;

  /// Throws std::invalid_argument unless size > 0 and |offset| < size (milliseconds).
  static TumblingWindows of(Duration size, Duration offset = 0) {
    if (size <= 0) {
      throw std::invalid_argument(fmt::format("{}: size must be > 0, got {} ms", Traits::kName, size));
    }
    if (offset >= size || offset <= -size) {
      throw std::invalid_argument(fmt::format(
          "{}: offset must satisfy |offset| < size, got offset {} ms for size {} ms", Traits::kName, offset, size));
    }
    return TumblingWindows(size, offset);
  }
  template <class Rep, class Period>
  static TumblingWindows of(std::chrono::duration<Rep, Period> size) {
    return of(toMillis(size));
  }
  template <class Rep1, class Period1, class Rep2, class Period2>
  static TumblingWindows of(std::chrono::duration<Rep1, Period1> size, std::chrono::duration<Rep2, Period2> offset) {
    return of(toMillis(size), toMillis(offset));
  }

  Duration getSize() const { return size_; }
  Duration getOffset() const { return offset_; }
  bool isEventTime() const { return Traits::kIsEventTime; }
  std::string toString() const { return fmt::format("{}({})", Traits::kName, size_); }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

  friend bool operator==(const TumblingWindows&, const TumblingWindows&) = default;

 private:
  TumblingWindows(Duration size, Duration offset) : size_(size), offset_(offset) {}

  Duration size_;
  Duration offset_;
};

namespace internal {

template <class Traits, class T>
class TumblingWindowsAssigner final : public WindowAssigner<T, TimeWindow> {
 public:
  explicit TumblingWindowsAssigner(const TumblingWindows<Traits>& spec) : spec_(spec) {}

  void assignWindows(const T&, Timestamp timestamp, const WindowAssignerContext& ctx,
                     std::vector<TimeWindow>& windows) override {
    Traits::requireElementTime(timestamp, *this);
    const Timestamp time = Traits::elementTime(timestamp, ctx);
    const Timestamp start = TimeWindow::getWindowStartWithOffset(time, spec_.getOffset(), spec_.getSize());
    windows.push_back(TimeWindow{start, start + spec_.getSize()});
  }

  std::unique_ptr<Trigger<T, TimeWindow>> getDefaultTrigger() const override {
    return Traits::template defaultTrigger<T>();
  }
  bool isEventTime() const override { return Traits::kIsEventTime; }
  std::string toString() const override { return spec_.toString(); }

  const TumblingWindows<Traits>& getSpec() const { return spec_; }

 private:
  TumblingWindows<Traits> spec_;
};

}  // namespace internal

template <class Traits>
template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> TumblingWindows<Traits>::build() const {
  return std::make_unique<internal::TumblingWindowsAssigner<Traits, T>>(*this);
}

}  // namespace tidemark
