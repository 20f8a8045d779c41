// TumblingEventTimeWindows: puts each record into the one window of a fixed
// size that contains its event timestamp; windows do not overlap
// (SEMANTICS.md 4.2).
//
// Contract:
// - Windows are [start, start + size) with start on the grid offset + k * size,
//   floored toward -inf, so negative timestamps land in the window below
//   them: of(10000) puts -1 into [-10000, 0).
// - of(size[, offset]) throws std::invalid_argument unless size > 0 and
//   |offset| < size. Sizes are milliseconds or any std::chrono::duration
//   (cast to milliseconds).
// - A record without a timestamp (kMinWatermark) makes assignWindows() throw
//   std::runtime_error: event-time windows need assignTimestampsAndWatermarks().
// - Default trigger: EventTimeTrigger. toString(): "TumblingEventTimeWindows(<size>)".
// - The factory returns this specification; KeyedStream::window() builds the
//   WindowAssigner<T, TimeWindow> from it, and the window operator may read
//   getSize()/getOffset() to choose a faster implementation.
//
// Example:
//   stream.keyBy(key).window(tidemark::TumblingEventTimeWindows::of(std::chrono::minutes(1)));
//   // hourly windows starting at a quarter past:
//   tidemark::TumblingEventTimeWindows::of(std::chrono::hours(1), std::chrono::minutes(15));
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/time.h"
#include "tidemark/windowing/event_time_trigger.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark {

class TumblingEventTimeWindows {
 public:
  using WindowType = TimeWindow;

  /// Throws std::invalid_argument unless size > 0 and |offset| < size (milliseconds).
  static TumblingEventTimeWindows of(Duration size, Duration offset = 0) {
    if (size <= 0) {
      throw std::invalid_argument(fmt::format("TumblingEventTimeWindows: size must be > 0, got {} ms", size));
    }
    if (offset >= size || offset <= -size) {
      throw std::invalid_argument(fmt::format(
          "TumblingEventTimeWindows: offset must satisfy |offset| < size, got offset {} ms for size {} ms", offset,
          size));
    }
    return TumblingEventTimeWindows(size, offset);
  }
  template <class Rep, class Period>
  static TumblingEventTimeWindows of(std::chrono::duration<Rep, Period> size) {
    return of(toMillis(size));
  }
  template <class Rep1, class Period1, class Rep2, class Period2>
  static TumblingEventTimeWindows of(std::chrono::duration<Rep1, Period1> size,
                                     std::chrono::duration<Rep2, Period2> offset) {
    return of(toMillis(size),
              toMillis(offset));
  }

  Duration getSize() const { return size_; }
  Duration getOffset() const { return offset_; }
  bool isEventTime() const { return true; }
  std::string toString() const { return fmt::format("TumblingEventTimeWindows({})", size_); }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

  friend bool operator==(const TumblingEventTimeWindows&, const TumblingEventTimeWindows&) = default;

 private:
  TumblingEventTimeWindows(Duration size, Duration offset) : size_(size), offset_(offset) {}

  Duration size_;
  Duration offset_;
};

namespace internal {

template <class T>
class TumblingEventTimeWindowsAssigner final : public WindowAssigner<T, TimeWindow> {
 public:
  explicit TumblingEventTimeWindowsAssigner(const TumblingEventTimeWindows& spec) : spec_(spec) {}

  void assignWindows(const T&, Timestamp timestamp, const WindowAssignerContext&,
                     std::vector<TimeWindow>& windows) override {
    requireEventTimestamp(timestamp, *this);
    const Timestamp start =
        TimeWindow::getWindowStartWithOffset(timestamp, spec_.getOffset(), spec_.getSize());
    windows.push_back(TimeWindow{start, start + spec_.getSize()});
  }

  std::unique_ptr<Trigger<T, TimeWindow>> getDefaultTrigger() const override {
    return EventTimeTrigger::create().build<T, TimeWindow>();
  }
  bool isEventTime() const override { return true; }
  std::string toString() const override { return spec_.toString(); }

  const TumblingEventTimeWindows& getSpec() const { return spec_; }

 private:
  TumblingEventTimeWindows spec_;
};

}  // namespace internal

template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> TumblingEventTimeWindows::build() const {
  return std::make_unique<internal::TumblingEventTimeWindowsAssigner<T>>(*this);
}

}  // namespace tidemark
