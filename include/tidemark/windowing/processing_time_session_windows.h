// ProcessingTimeSessionWindows: groups a key's records into sessions
// separated by at least a gap of inactivity in processing time; the record's
// timestamp is ignored (SEMANTICS.md 4.2, 4.10).
//
// Contract:
// - Each record first gets [now, now + gap) with now the operator's current
//   processing time; the window operator merges intersecting (also
//   touching) windows of a key into one session, as for
//   EventTimeSessionWindows.
// - withGap(gap) throws std::invalid_argument unless gap > 0; gaps are
//   milliseconds or any std::chrono::duration (cast to milliseconds).
// - withDynamicGap(extractor): `extractor(const T&)` returns the record's gap
//   (Duration or std::chrono::duration); a gap <= 0 makes assignWindows()
//   throw std::invalid_argument naming the value.
// - Default trigger: ProcessingTimeTrigger. toString():
//   "ProcessingTimeSessionWindows(<gap>)", "DynamicProcessingTimeSessionWindows()".
//
// Example:
//   stream.keyBy(user).window(tidemark::ProcessingTimeSessionWindows::withGap(std::chrono::seconds(30)));
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/time.h"
#include "tidemark/windowing/event_time_session_windows.h"
#include "tidemark/windowing/processing_time_trigger.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark {

/// What ProcessingTimeSessionWindows::withDynamicGap() returns.
template <class E>
class DynamicProcessingTimeSessionWindows {
 public:
  using WindowType = TimeWindow;

  explicit DynamicProcessingTimeSessionWindows(E extractor) : extractor_(std::move(extractor)) {}

  const E& getGapExtractor() const { return extractor_; }
  bool isEventTime() const { return false; }
  std::string toString() const { return "DynamicProcessingTimeSessionWindows()"; }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

 private:
  E extractor_;
};

class ProcessingTimeSessionWindows {
 public:
  using WindowType = TimeWindow;

  /// Throws std::invalid_argument unless gap > 0 (milliseconds).
  static ProcessingTimeSessionWindows withGap(Duration gap) {
    if (gap <= 0) {
      throw std::invalid_argument(fmt::format("ProcessingTimeSessionWindows: gap must be > 0, got {} ms", gap));
    }
    return ProcessingTimeSessionWindows(gap);
  }
  template <class Rep, class Period>
  static ProcessingTimeSessionWindows withGap(std::chrono::duration<Rep, Period> gap) {
    return withGap(toMillis(gap));
  }

  /// `extractor(const T&)` returns the record's gap (Duration or std::chrono::duration).
  template <class E>
  static DynamicProcessingTimeSessionWindows<std::decay_t<E>> withDynamicGap(E&& extractor) {
    return DynamicProcessingTimeSessionWindows<std::decay_t<E>>(std::forward<E>(extractor));
  }

  Duration getGap() const { return gap_; }
  bool isEventTime() const { return false; }
  std::string toString() const { return fmt::format("ProcessingTimeSessionWindows({})", gap_); }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

  friend bool operator==(const ProcessingTimeSessionWindows&, const ProcessingTimeSessionWindows&) = default;

 private:
  explicit ProcessingTimeSessionWindows(Duration gap) : gap_(gap) {}

  Duration gap_;
};

namespace internal {

template <class T>
class ProcessingTimeSessionWindowsAssigner final : public MergingWindowAssigner<T, TimeWindow> {
 public:
  explicit ProcessingTimeSessionWindowsAssigner(const ProcessingTimeSessionWindows& spec) : spec_(spec) {}

  void assignWindows(const T&, Timestamp, const WindowAssignerContext& ctx,
                     std::vector<TimeWindow>& windows) override {
    const Timestamp now = ctx.getCurrentProcessingTime();
    windows.push_back(TimeWindow{now, now + spec_.getGap()});
  }

  void mergeWindows(const std::vector<TimeWindow>& windows, MergeCallback<TimeWindow>& callback) override {
    merger_.merge(windows, callback);
  }

  std::unique_ptr<Trigger<T, TimeWindow>> getDefaultTrigger() const override {
    return ProcessingTimeTrigger::create().build<T, TimeWindow>();
  }
  bool isEventTime() const override { return false; }
  std::string toString() const override { return spec_.toString(); }

  const ProcessingTimeSessionWindows& getSpec() const { return spec_; }

 private:
  ProcessingTimeSessionWindows spec_;
  SessionWindowMerger merger_;
};

template <class T, class E>
class DynamicProcessingTimeSessionWindowsAssigner final : public MergingWindowAssigner<T, TimeWindow> {
 public:
  explicit DynamicProcessingTimeSessionWindowsAssigner(const E& extractor) : extractor_(extractor) {}

  void assignWindows(const T& element, Timestamp, const WindowAssignerContext& ctx,
                     std::vector<TimeWindow>& windows) override {
    const Duration gap = extractSessionGap(extractor_, element);
    if (gap <= 0) {
      throw std::invalid_argument(fmt::format(
          "DynamicProcessingTimeSessionWindows: the gap extractor returned {} ms, a gap must be > 0", gap));
    }
    const Timestamp now = ctx.getCurrentProcessingTime();
    windows.push_back(TimeWindow{now, now + gap});
  }

  void mergeWindows(const std::vector<TimeWindow>& windows, MergeCallback<TimeWindow>& callback) override {
    merger_.merge(windows, callback);
  }

  std::unique_ptr<Trigger<T, TimeWindow>> getDefaultTrigger() const override {
    return ProcessingTimeTrigger::create().build<T, TimeWindow>();
  }
  bool isEventTime() const override { return false; }
  std::string toString() const override { return "DynamicProcessingTimeSessionWindows()"; }

 private:
  E extractor_;
  SessionWindowMerger merger_;
};

}  // namespace internal

template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> ProcessingTimeSessionWindows::build() const {
  return std::make_unique<internal::ProcessingTimeSessionWindowsAssigner<T>>(*this);
}

template <class E>
template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> DynamicProcessingTimeSessionWindows<E>::build() const {
  return std::make_unique<internal::DynamicProcessingTimeSessionWindowsAssigner<T, E>>(extractor_);
}

}  // namespace tidemark
