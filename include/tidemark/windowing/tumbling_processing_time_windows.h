// TumblingProcessingTimeWindows: puts each record into the one window of a
// fixed size that contains the operator's current processing time; the
// record's timestamp is ignored (SEMANTICS.md 4.2, 4.10).
//
// Contract:
// - Windows are [start, start + size) with start on the grid offset + k * size
//   (floored toward -inf), taken at the processing time of the call.
// - of(size[, offset]) throws std::invalid_argument unless size > 0 and
//   |offset| < size. Sizes are milliseconds or any std::chrono::duration
//   (cast to milliseconds).
// - Processing-time windows are never late; they fire and are cleaned up
//   when processing time reaches maxTimestamp().
// - Default trigger: ProcessingTimeTrigger. toString(): "TumblingProcessingTimeWindows(<size>)".
//
// Example:
//   stream.keyBy(key).window(tidemark::TumblingProcessingTimeWindows::of(std::chrono::seconds(5)));
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/time.h"
#include "tidemark/windowing/processing_time_trigger.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark {

class TumblingProcessingTimeWindows {
 public:
  using WindowType = TimeWindow;

  /// Throws std::invalid_argument unless size > 0 and |offset| < size (milliseconds).
  static TumblingProcessingTimeWindows of(Duration size, Duration offset = 0) {
    if (size <= 0) {
      throw std::invalid_argument(
          fmt::format("TumblingProcessingTimeWindows: size must be > 0, got {} ms", size));
    }
    if (offset >= size || offset <= -size) {
      throw std::invalid_argument(fmt::format(
          "TumblingProcessingTimeWindows: offset must satisfy |offset| < size, got offset {} ms for size {} ms",
          offset, size));
    }
    return TumblingProcessingTimeWindows(size, offset);
  }
  template <class Rep, class Period>
  static TumblingProcessingTimeWindows of(std::chrono::duration<Rep, Period> size) {
    return of(toMillis(size));
  }
  template <class Rep1, class Period1, class Rep2, class Period2>
  static TumblingProcessingTimeWindows of(std::chrono::duration<Rep1, Period1> size,
                                          std::chrono::duration<Rep2, Period2> offset) {
    return of(toMillis(size),
              toMillis(offset));
  }

  Duration getSize() const { return size_; }
  Duration getOffset() const { return offset_; }
  bool isEventTime() const { return false; }
  std::string toString() const { return fmt::format("TumblingProcessingTimeWindows({})", size_); }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

  friend bool operator==(const TumblingProcessingTimeWindows&, const TumblingProcessingTimeWindows&) = default;

 private:
  TumblingProcessingTimeWindows(Duration size, Duration offset) : size_(size), offset_(offset) {}

  Duration size_;
  Duration offset_;
};

namespace internal {

template <class T>
class TumblingProcessingTimeWindowsAssigner final : public WindowAssigner<T, TimeWindow> {
 public:
  explicit TumblingProcessingTimeWindowsAssigner(const TumblingProcessingTimeWindows& spec) : spec_(spec) {}

  void assignWindows(const T&, Timestamp, const WindowAssignerContext& ctx,
                     std::vector<TimeWindow>& windows) override {
    const Timestamp now = ctx.getCurrentProcessingTime();
    const Timestamp start = TimeWindow::getWindowStartWithOffset(now, spec_.getOffset(), spec_.getSize());
    windows.push_back(TimeWindow{start, start + spec_.getSize()});
  }

  std::unique_ptr<Trigger<T, TimeWindow>> getDefaultTrigger() const override {
    return ProcessingTimeTrigger::create().build<T, TimeWindow>();
  }
  bool isEventTime() const override { return false; }
  std::string toString() const override { return spec_.toString(); }

  const TumblingProcessingTimeWindows& getSpec() const { return spec_; }

 private:
  TumblingProcessingTimeWindows spec_;
};

}  // namespace internal

template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> TumblingProcessingTimeWindows::build() const {
  return std::make_unique<internal::TumblingProcessingTimeWindowsAssigner<T>>(*this);
}

}  // namespace tidemark
