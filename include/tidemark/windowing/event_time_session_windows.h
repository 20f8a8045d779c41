// EventTimeSessionWindows: groups a key's records into sessions separated by
// at least a gap of inactivity in event time (SEMANTICS.md 4.2, 4.5).
//
// Contract:
// - Each record first gets its own window [ts, ts + gap); the window operator
//   then merges every run of intersecting windows of a key into one session
//   covering them. Touching windows intersect, so [1000, 4000) and
//   [4000, 7000) become [1000, 7000), while [.., 5500) and [5501, ..) stay
//   apart.
// - withGap(gap) throws std::invalid_argument unless gap > 0; gaps are
//   milliseconds or any std::chrono::duration (cast to milliseconds).
// - withDynamicGap(extractor) takes the gap from each record:
//   `extractor(const T&)` returns a Duration (milliseconds) or a
//   std::chrono::duration. A gap <= 0 makes assignWindows() throw
//   std::invalid_argument naming the value. The session's end is the largest
//   end of the windows it covers.
// - A record without a timestamp (kMinWatermark) makes assignWindows() throw
//   std::runtime_error. Flink's session assigners do not check (they build
//   the window [MIN, MIN + gap)); tidemark rejects it as its other
//   event-time assigners do, since such a window can only be a mistake.
// - Default trigger: EventTimeTrigger. toString(): "EventTimeSessionWindows(<gap>)",
//   "DynamicEventTimeSessionWindows()".
//
// Example:
//   stream.keyBy(user).window(tidemark::EventTimeSessionWindows::withGap(std::chrono::minutes(30)));
//   stream.keyBy(user).window(tidemark::EventTimeSessionWindows::withDynamicGap(
//       [](const Click& c) { return c.premium ? 60'000 : 10'000; }));
#pragma once

#include <algorithm>
#include <chrono>
#include <concepts>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/time.h"
#include "tidemark/windowing/event_time_trigger.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark {

namespace internal {

template <class D>
inline constexpr bool kIsChronoDuration = false;
template <class Rep, class Period>
inline constexpr bool kIsChronoDuration<std::chrono::duration<Rep, Period>> = true;

/// The gap `extractor` gives `element`, in milliseconds (shared with
/// DynamicProcessingTimeSessionWindows).
template <class T, class E>
Duration extractSessionGap(const E& extractor, const T& element) {
  static_assert(std::is_invocable_v<const E&, const T&>,
                "a session gap extractor must be callable as extractor(const T&) for the stream's element type");
  using R = std::decay_t<std::invoke_result_t<const E&, const T&>>;
  if constexpr (kIsChronoDuration<R>) {
    return toMillis(extractor(element));
  } else {
    static_assert(std::is_convertible_v<R, Duration>,
                  "a session gap extractor must return a Duration (milliseconds) or a std::chrono::duration");
    return static_cast<Duration>(extractor(element));
  }
}

/// Reports every run of two or more intersecting (or touching) windows,
/// sorted by start, with the window that covers the run; shared by the
/// session assigners. Session assigners merge on every element, so the
/// buffers are kept from call to call and merging allocates nothing once
/// they have grown.
class SessionWindowMerger {
 public:
  void merge(const std::vector<TimeWindow>& windows, MergeCallback<TimeWindow>& callback) {
    sorted_.assign(windows.begin(), windows.end());
    std::sort(sorted_.begin(), sorted_.end(),
              [](const TimeWindow& a, const TimeWindow& b) { return a.start < b.start; });
    run_.clear();
    TimeWindow cover{};
    for (const TimeWindow& window : sorted_) {
      if (!run_.empty() && cover.intersects(window)) {
        run_.push_back(window);
        cover = cover.cover(window);
      } else {
        closeRun(cover, callback);
        run_.push_back(window);
        cover = window;
      }
    }
    closeRun(cover, callback);
  }

 private:
  void closeRun(const TimeWindow& cover, MergeCallback<TimeWindow>& callback) {
    if (run_.size() > 1) callback.merge(run_, cover);
    run_.clear();
  }

  std::vector<TimeWindow> sorted_;
  std::vector<TimeWindow> run_;
};


}  // namespace internal

/// What EventTimeSessionWindows::withDynamicGap() returns.
template <class E>
class DynamicEventTimeSessionWindows {
 public:
  using WindowType = TimeWindow;

  explicit DynamicEventTimeSessionWindows(E extractor) : extractor_(std::move(extractor)) {}

  const E& getGapExtractor() const { return extractor_; }
  bool isEventTime() const { return true; }
  std::string toString() const { return "DynamicEventTimeSessionWindows()"; }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

 private:
  E extractor_;
};

class EventTimeSessionWindows {
 public:
  using WindowType = TimeWindow;

  /// Throws std::invalid_argument unless gap > 0 (milliseconds).
  static EventTimeSessionWindows withGap(Duration gap) {
    if (gap <= 0) {
      throw std::invalid_argument(fmt::format("EventTimeSessionWindows: gap must be > 0, got {} ms", gap));
    }
    return EventTimeSessionWindows(gap);
  }
  template <class Rep, class Period>
  static EventTimeSessionWindows withGap(std::chrono::duration<Rep, Period> gap) {
    return withGap(toMillis(gap));
  }

  /// `extractor(const T&)` returns the record's gap (Duration or std::chrono::duration).
  template <class E>
  static DynamicEventTimeSessionWindows<std::decay_t<E>> withDynamicGap(E&& extractor) {
    return DynamicEventTimeSessionWindows<std::decay_t<E>>(std::forward<E>(extractor));
  }

  Duration getGap() const { return gap_; }
  bool isEventTime() const { return true; }
  std::string toString() const { return fmt::format("EventTimeSessionWindows({})", gap_); }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

  friend bool operator==(const EventTimeSessionWindows&, const EventTimeSessionWindows&) = default;

 private:
  explicit EventTimeSessionWindows(Duration gap) : gap_(gap) {}

  Duration gap_;
};

namespace internal {

template <class T>
class EventTimeSessionWindowsAssigner final : public MergingWindowAssigner<T, TimeWindow> {
 public:
  explicit EventTimeSessionWindowsAssigner(const EventTimeSessionWindows& spec) : spec_(spec) {}

  void assignWindows(const T&, Timestamp timestamp, const WindowAssignerContext&,
                     std::vector<TimeWindow>& windows) override {
    requireEventTimestamp(timestamp, *this);
    windows.push_back(TimeWindow{timestamp, timestamp + spec_.getGap()});
  }

  void mergeWindows(const std::vector<TimeWindow>& windows, MergeCallback<TimeWindow>& callback) override {
    merger_.merge(windows, callback);
  }

  std::unique_ptr<Trigger<T, TimeWindow>> getDefaultTrigger() const override {
    return EventTimeTrigger::create().build<T, TimeWindow>();
  }
  bool isEventTime() const override { return true; }
  std::string toString() const override { return spec_.toString(); }

  const EventTimeSessionWindows& getSpec() const { return spec_; }

 private:
  EventTimeSessionWindows spec_;
  SessionWindowMerger merger_;
};

template <class T, class E>
class DynamicEventTimeSessionWindowsAssigner final : public MergingWindowAssigner<T, TimeWindow> {
 public:
  explicit DynamicEventTimeSessionWindowsAssigner(const E& extractor) : extractor_(extractor) {}

  void assignWindows(const T& element, Timestamp timestamp, const WindowAssignerContext&,
                     std::vector<TimeWindow>& windows) override {
    requireEventTimestamp(timestamp, *this);
    const Duration gap = extractSessionGap(extractor_, element);
    if (gap <= 0) {
      throw std::invalid_argument(
          fmt::format("DynamicEventTimeSessionWindows: the gap extractor returned {} ms, a gap must be > 0", gap));
    }
    windows.push_back(TimeWindow{timestamp, timestamp + gap});
  }

  void mergeWindows(const std::vector<TimeWindow>& windows, MergeCallback<TimeWindow>& callback) override {
    merger_.merge(windows, callback);
  }

  std::unique_ptr<Trigger<T, TimeWindow>> getDefaultTrigger() const override {
    return EventTimeTrigger::create().build<T, TimeWindow>();
  }
  bool isEventTime() const override { return true; }
  std::string toString() const override { return "DynamicEventTimeSessionWindows()"; }

 private:
  E extractor_;
  SessionWindowMerger merger_;
};

}  // namespace internal

template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> EventTimeSessionWindows::build() const {
  return std::make_unique<internal::EventTimeSessionWindowsAssigner<T>>(*this);
}

template <class E>
template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> DynamicEventTimeSessionWindows<E>::build() const {
  return std::make_unique<internal::DynamicEventTimeSessionWindowsAssigner<T, E>>(extractor_);
}

}  // namespace tidemark
