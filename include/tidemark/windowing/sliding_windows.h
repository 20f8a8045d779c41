// SlidingWindows<Traits>: what SlidingEventTimeWindows and
// SlidingProcessingTimeWindows share: the specification (of(), validation,
// getters, toString()) and the assigner that puts an element into every
// window of the grid that contains its time, latest start first. The two are
// this template with different traits (a clock from window_clock.h plus the
// name), so that they can only differ in the clock and in their messages;
// their contracts are in sliding_event_time_windows.h and
// sliding_processing_time_windows.h.
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

/// Use it as SlidingEventTimeWindows or SlidingProcessingTimeWindows.
template <class Traits>
class SlidingWindows {
 public:
  using WindowType = TimeWindow;

  /// Throws std::invalid_argument unless size > 0, slide > 0 and |offset| < slide (milliseconds).
  static SlidingWindows of(Duration size, Duration slide, Duration offset = 0) {
    if (size <= 0) {
      throw std::invalid_argument(fmt::format("{}: size must be > 0, got {} ms", Traits::kName, size));
    }
    if (slide <= 0) {
      throw std::invalid_argument(fmt::format("{}: slide must be > 0, got {} ms", Traits::kName, slide));
    }
    if (offset >= slide || offset <= -slide) {
      throw std::invalid_argument(fmt::format(
          "{}: offset must satisfy |offset| < slide, got offset {} ms for slide {} ms", Traits::kName, offset, slide));
    }
    return SlidingWindows(size, slide, offset);
  }
  template <class Rep1, class Period1, class Rep2, class Period2>
  static SlidingWindows of(std::chrono::duration<Rep1, Period1> size, std::chrono::duration<Rep2, Period2> slide) {
    return of(toMillis(size), toMillis(slide));
  }
  template <class Rep1, class Period1, class Rep2, class Period2, class Rep3, class Period3>
  static SlidingWindows of(std::chrono::duration<Rep1, Period1> size, std::chrono::duration<Rep2, Period2> slide,
                           std::chrono::duration<Rep3, Period3> offset) {
    return of(toMillis(size), toMillis(slide), toMillis(offset));
  }

  Duration getSize() const { return size_; }
  Duration getSlide() const { return slide_; }
  Duration getOffset() const { return offset_; }
  bool isEventTime() const { return Traits::kIsEventTime; }
  std::string toString() const { return fmt::format("{}({}, {})", Traits::kName, size_, slide_); }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

  friend bool operator==(const SlidingWindows&, const SlidingWindows&) = default;

 private:
  SlidingWindows(Duration size, Duration slide, Duration offset) : size_(size), slide_(slide), offset_(offset) {}

  Duration size_;
  Duration slide_;
  Duration offset_;
};

namespace internal {

/// Append the sliding windows containing `time`, latest start first.
inline void assignSlidingWindows(Timestamp time, Duration size, Duration slide, Duration offset,
                                 std::vector<TimeWindow>& windows) {
  Timestamp start = TimeWindow::getWindowStartWithOffset(time, offset, slide);
  // `time - start < size` is Flink's `start > timestamp - size` without the
  // overflow of `timestamp - size` near kMinWatermark.
  while (time - start < size) {
    windows.push_back(TimeWindow{start, start + size});
    if (__builtin_sub_overflow(start, slide, &start)) break;
  }
}

template <class Traits, class T>
class SlidingWindowsAssigner final : public WindowAssigner<T, TimeWindow> {
 public:
  explicit SlidingWindowsAssigner(const SlidingWindows<Traits>& spec) : spec_(spec) {}

  void assignWindows(const T&, Timestamp timestamp, const WindowAssignerContext& ctx,
                     std::vector<TimeWindow>& windows) override {
    Traits::requireElementTime(timestamp, *this);
    assignSlidingWindows(Traits::elementTime(timestamp, ctx), spec_.getSize(), spec_.getSlide(), spec_.getOffset(),
                         windows);
  }

  std::unique_ptr<Trigger<T, TimeWindow>> getDefaultTrigger() const override {
    return Traits::template defaultTrigger<T>();
  }
  bool isEventTime() const override { return Traits::kIsEventTime; }
  std::string toString() const override { return spec_.toString(); }

  const SlidingWindows<Traits>& getSpec() const { return spec_; }

 private:
  SlidingWindows<Traits> spec_;
};

}  // namespace internal

template <class Traits>
template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> SlidingWindows<Traits>::build() const {
  return std::make_unique<internal::SlidingWindowsAssigner<Traits, T>>(*this);
}

}  // namespace tidemark
