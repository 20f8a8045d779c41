// SlidingEventTimeWindows: puts each record into every window of a fixed size
// that contains its event timestamp, with a new window starting every
// `slide` (SEMANTICS.md 4.2).
//
// Contract:
// - Window starts lie on the grid offset + k * slide (floored toward -inf,
//   also for negative timestamps); a record gets [st, st + size) for
//   st = last, last - slide, ... while st > ts - size, where last is the
//   grid point at or below ts: ceil(size / slide) windows, latest start
//   first (that order is the order the window operator processes them in).
//   With size < slide some records fall between windows and get none.
// - of(size, slide[, offset]) throws std::invalid_argument unless size > 0,
//   slide > 0 and |offset| < slide. Durations are milliseconds or any
//   std::chrono::duration (cast to milliseconds).
// - A record without a timestamp (kMinWatermark) makes assignWindows() throw
//   std::runtime_error: event-time windows need assignTimestampsAndWatermarks().
// - Default trigger: EventTimeTrigger. toString(): "SlidingEventTimeWindows(<size>, <slide>)".
// - The factory returns this specification; KeyedStream::window() builds the
//   WindowAssigner<T, TimeWindow> from it, and the window operator may read
//   getSize()/getSlide()/getOffset() to choose a faster implementation.
//
// Example:
//   // 10 s windows every 5 s: ts 12000 -> [10000, 20000), [5000, 15000)
//   stream.keyBy(key).window(tidemark::SlidingEventTimeWindows::of(10000, 5000));
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

class SlidingEventTimeWindows {
 public:
  using WindowType = TimeWindow;

  /// Throws std::invalid_argument unless size > 0, slide > 0 and |offset| < slide (milliseconds).
  static SlidingEventTimeWindows of(Duration size, Duration slide, Duration offset = 0) {
    if (size <= 0) {
      throw std::invalid_argument(fmt::format("SlidingEventTimeWindows: size must be > 0, got {} ms", size));
    }
    if (slide <= 0) {
      throw std::invalid_argument(fmt::format("SlidingEventTimeWindows: slide must be > 0, got {} ms", slide));
    }
    if (offset >= slide || offset <= -slide) {
      throw std::invalid_argument(fmt::format(
          "SlidingEventTimeWindows: offset must satisfy |offset| < slide, got offset {} ms for slide {} ms", offset,
          slide));
    }
    return SlidingEventTimeWindows(size, slide, offset);
  }
  template <class Rep1, class Period1, class Rep2, class Period2>
  static SlidingEventTimeWindows of(std::chrono::duration<Rep1, Period1> size,
                                    std::chrono::duration<Rep2, Period2> slide) {
    return of(toMillis(size),
              toMillis(slide));
  }
  template <class Rep1, class Period1, class Rep2, class Period2, class Rep3, class Period3>
  static SlidingEventTimeWindows of(std::chrono::duration<Rep1, Period1> size,
                                    std::chrono::duration<Rep2, Period2> slide,
                                    std::chrono::duration<Rep3, Period3> offset) {
    return of(toMillis(size),
              toMillis(slide),
              toMillis(offset));
  }

  Duration getSize() const { return size_; }
  Duration getSlide() const { return slide_; }
  Duration getOffset() const { return offset_; }
  bool isEventTime() const { return true; }
  std::string toString() const { return fmt::format("SlidingEventTimeWindows({}, {})", size_, slide_); }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

  friend bool operator==(const SlidingEventTimeWindows&, const SlidingEventTimeWindows&) = default;

 private:
  SlidingEventTimeWindows(Duration size, Duration slide, Duration offset)
      : size_(size), slide_(slide), offset_(offset) {}

  Duration size_;
  Duration slide_;
  Duration offset_;
};

namespace internal {

/// Append the sliding windows containing `timestamp`, latest start first.
/// Shared with SlidingProcessingTimeWindows, which feeds it processing time.
inline void assignSlidingWindows(Timestamp timestamp, Duration size, Duration slide, Duration offset,
                                 std::vector<TimeWindow>& windows) {
  Timestamp start = TimeWindow::getWindowStartWithOffset(timestamp, offset, slide);
  // `timestamp - start < size` is Flink's `start > timestamp - size` without
  // the overflow of `timestamp - size` near kMinWatermark.
  while (timestamp - start < size) {
    windows.push_back(TimeWindow{start, start + size});
    if (__builtin_sub_overflow(start, slide, &start)) break;
  }
}

template <class T>
class SlidingEventTimeWindowsAssigner final : public WindowAssigner<T, TimeWindow> {
 public:
  explicit SlidingEventTimeWindowsAssigner(const SlidingEventTimeWindows& spec) : spec_(spec) {}

  void assignWindows(const T&, Timestamp timestamp, const WindowAssignerContext&,
                     std::vector<TimeWindow>& windows) override {
    requireEventTimestamp(timestamp, *this);
    assignSlidingWindows(timestamp, spec_.getSize(), spec_.getSlide(), spec_.getOffset(), windows);
  }

  std::unique_ptr<Trigger<T, TimeWindow>> getDefaultTrigger() const override {
    return EventTimeTrigger::create().build<T, TimeWindow>();
  }
  bool isEventTime() const override { return true; }
  std::string toString() const override { return spec_.toString(); }

  const SlidingEventTimeWindows& getSpec() const { return spec_; }

 private:
  SlidingEventTimeWindows spec_;
};

}  // namespace internal

template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> SlidingEventTimeWindows::build() const {
  return std::make_unique<internal::SlidingEventTimeWindowsAssigner<T>>(*this);
}

}  // namespace tidemark
