// SlidingProcessingTimeWindows: puts each record into every window of a
// fixed size that contains the operator's current processing time, with a
// new window every `slide`; the record's timestamp is ignored (SEMANTICS.md
// 4.2, 4.10).
//
// Contract:
// - The windows are those SlidingEventTimeWindows would give a record whose
//   timestamp is the current processing time: ceil(size / slide) of them,
//   latest start first.
// - of(size, slide[, offset]) throws std::invalid_argument unless size > 0,
//   slide > 0 and |offset| < slide. Durations are milliseconds or any
//   std::chrono::duration (cast to milliseconds).
// - Processing-time windows are never late; they fire and are cleaned up
//   when processing time reaches maxTimestamp().
// - Default trigger: ProcessingTimeTrigger. toString(): "SlidingProcessingTimeWindows(<size>, <slide>)".
//
// Example:
//   stream.keyBy(key).window(tidemark::SlidingProcessingTimeWindows::of(std::chrono::seconds(10),
//                                                                      std::chrono::seconds(5)));
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/time.h"
#include "tidemark/windowing/processing_time_trigger.h"
#include "tidemark/windowing/sliding_event_time_windows.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark {

class SlidingProcessingTimeWindows {
 public:
  using WindowType = TimeWindow;

  /// Throws std::invalid_argument unless size > 0, slide > 0 and |offset| < slide (milliseconds).
  static SlidingProcessingTimeWindows of(Duration size, Duration slide, Duration offset = 0) {
    if (size <= 0) {
      throw std::invalid_argument(fmt::format("SlidingProcessingTimeWindows: size must be > 0, got {} ms", size));
    }
    if (slide <= 0) {
      throw std::invalid_argument(
          fmt::format("SlidingProcessingTimeWindows: slide must be > 0, got {} ms", slide));
    }
    if (offset >= slide || offset <= -slide) {
      throw std::invalid_argument(fmt::format(
          "SlidingProcessingTimeWindows: offset must satisfy |offset| < slide, got offset {} ms for slide {} ms",
          offset, slide));
    }
    return SlidingProcessingTimeWindows(size, slide, offset);
  }
  template <class Rep1, class Period1, class Rep2, class Period2>
  static SlidingProcessingTimeWindows of(std::chrono::duration<Rep1, Period1> size,
                                         std::chrono::duration<Rep2, Period2> slide) {
    return of(toMillis(size),
              toMillis(slide));
  }
  template <class Rep1, class Period1, class Rep2, class Period2, class Rep3, class Period3>
  static SlidingProcessingTimeWindows of(std::chrono::duration<Rep1, Period1> size,
                                         std::chrono::duration<Rep2, Period2> slide,
                                         std::chrono::duration<Rep3, Period3> offset) {
    return of(toMillis(size),
              toMillis(slide),
              toMillis(offset));
  }

  Duration getSize() const { return size_; }
  Duration getSlide() const { return slide_; }
  Duration getOffset() const { return offset_; }
  bool isEventTime() const { return false; }
  std::string toString() const { return fmt::format("SlidingProcessingTimeWindows({}, {})", size_, slide_); }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

  friend bool operator==(const SlidingProcessingTimeWindows&, const SlidingProcessingTimeWindows&) = default;

 private:
  SlidingProcessingTimeWindows(Duration size, Duration slide, Duration offset)
      : size_(size), slide_(slide), offset_(offset) {}

  Duration size_;
  Duration slide_;
  Duration offset_;
};

namespace internal {

template <class T>
class SlidingProcessingTimeWindowsAssigner final : public WindowAssigner<T, TimeWindow> {
 public:
  explicit SlidingProcessingTimeWindowsAssigner(const SlidingProcessingTimeWindows& spec) : spec_(spec) {}

  void assignWindows(const T&, Timestamp, const WindowAssignerContext& ctx,
                     std::vector<TimeWindow>& windows) override {
    assignSlidingWindows(ctx.getCurrentProcessingTime(), spec_.getSize(), spec_.getSlide(), spec_.getOffset(),
                         windows);
  }

  std::unique_ptr<Trigger<T, TimeWindow>> getDefaultTrigger() const override {
    return ProcessingTimeTrigger::create().build<T, TimeWindow>();
  }
  bool isEventTime() const override { return false; }
  std::string toString() const override { return spec_.toString(); }

  const SlidingProcessingTimeWindows& getSpec() const { return spec_; }

 private:
  SlidingProcessingTimeWindows spec_;
};

}  // namespace internal

template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> SlidingProcessingTimeWindows::build() const {
  return std::make_unique<internal::SlidingProcessingTimeWindowsAssigner<T>>(*this);
}

}  // namespace tidemark
