// SessionWindows<Traits> and DynamicSessionWindows<Traits, E>: what
// EventTimeSessionWindows and ProcessingTimeSessionWindows share: the
// specifications (withGap(), withDynamicGap(), validation, toString()), the
// assigners that give each element [time, time + gap), and the merging of
// intersecting windows into sessions. The two are these templates with
// different traits (a clock from window_clock.h plus the names), so that
// they can only differ in the clock and in their messages; their contracts
// are in event_time_session_windows.h and processing_time_session_windows.h.
//
// Traits: a clock, `static constexpr std::string_view kName` (the fixed-gap
// form's name, e.g. "EventTimeSessionWindows") and kDynamicName (the
// dynamic-gap form's, e.g. "DynamicEventTimeSessionWindows"), which messages
// and toString() start with.
#pragma once

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/time.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/window_assigner.h"
#include "tidemark/windowing/window_clock.h"

namespace tidemark {

namespace internal {

template <class D>
inline constexpr bool kIsChronoDuration = false;
template <class Rep, class Period>
inline constexpr bool kIsChronoDuration<std::chrono::duration<Rep, Period>> = true;

/// The gap `extractor` gives `element`, in milliseconds.
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

/// What SessionWindows<Traits>::withDynamicGap() returns; use it as
/// DynamicEventTimeSessionWindows<E> or DynamicProcessingTimeSessionWindows<E>.
template <class Traits, class E>
class DynamicSessionWindows {
 public:
  using WindowType = TimeWindow;

  explicit DynamicSessionWindows(E extractor) : extractor_(std::move(extractor)) {}

  const E& getGapExtractor() const { return extractor_; }
  bool isEventTime() const { return Traits::kIsEventTime; }
  std::string toString() const { return fmt::format("{}()", Traits::kDynamicName); }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

 private:
  E extractor_;
};

/// Use it as EventTimeSessionWindows or ProcessingTimeSessionWindows.
template <class Traits>
class SessionWindows {
 public:
  using WindowType = TimeWindow;

  /// Throws std::invalid_argument unless gap > 0 (milliseconds).
  static SessionWindows withGap(Duration gap) {
    if (gap <= 0) {
      throw std::invalid_argument(fmt::format("{}: gap must be > 0, got {} ms", Traits::kName, gap));
    }
    return SessionWindows(gap);
  }
  template <class Rep, class Period>
  static SessionWindows withGap(std::chrono::duration<Rep, Period> gap) {
    return withGap(toMillis(gap));
  }

  /// `extractor(const T&)` returns the record's gap (Duration or std::chrono::duration).
  template <class E>
  static DynamicSessionWindows<Traits, std::decay_t<E>> withDynamicGap(E&& extractor) {
    return DynamicSessionWindows<Traits, std::decay_t<E>>(std::forward<E>(extractor));
  }

  Duration getGap() const { return gap_; }
  bool isEventTime() const { return Traits::kIsEventTime; }
  std::string toString() const { return fmt::format("{}({})", Traits::kName, gap_); }

  template <class T>
  std::unique_ptr<WindowAssigner<T, TimeWindow>> build() const;

  friend bool operator==(const SessionWindows&, const SessionWindows&) = default;

 private:
  explicit SessionWindows(Duration gap) : gap_(gap) {}

  Duration gap_;
};

namespace internal {

/// What the fixed-gap and the dynamic-gap assigner share: merging, the clock's trigger and time domain.
template <class Traits, class T>
class SessionWindowsAssignerBase : public MergingWindowAssigner<T, TimeWindow> {
 public:
  void mergeWindows(const std::vector<TimeWindow>& windows, MergeCallback<TimeWindow>& callback) final {
    merger_.merge(windows, callback);
  }

  std::unique_ptr<Trigger<T, TimeWindow>> getDefaultTrigger() const final {
    return Traits::template defaultTrigger<T>();
  }
  bool isEventTime() const final { return Traits::kIsEventTime; }

 private:
  SessionWindowMerger merger_;
};

template <class Traits, class T>
class SessionWindowsAssigner final : public SessionWindowsAssignerBase<Traits, T> {
 public:
  explicit SessionWindowsAssigner(const SessionWindows<Traits>& spec) : spec_(spec) {}

  void assignWindows(const T&, Timestamp timestamp, const WindowAssignerContext& ctx,
                     std::vector<TimeWindow>& windows) override {
    Traits::requireElementTime(timestamp, *this);
    const Timestamp start = Traits::elementTime(timestamp, ctx);
    windows.push_back(TimeWindow{start, start + spec_.getGap()});
  }

  std::string toString() const override { return spec_.toString(); }

  const SessionWindows<Traits>& getSpec() const { return spec_; }

 private:
  SessionWindows<Traits> spec_;
};

template <class Traits, class T, class E>
class DynamicSessionWindowsAssigner final : public SessionWindowsAssignerBase<Traits, T> {
 public:
  explicit DynamicSessionWindowsAssigner(const E& extractor) : extractor_(extractor) {}

  // A record without a timestamp is rejected before the extractor sees it;
  // the current processing time is read only once the gap is known good.
  void assignWindows(const T& element, Timestamp timestamp, const WindowAssignerContext& ctx,
                     std::vector<TimeWindow>& windows) override {
    Traits::requireElementTime(timestamp, *this);
    const Duration gap = extractGap(element);
    const Timestamp start = Traits::elementTime(timestamp, ctx);
    windows.push_back(TimeWindow{start, start + gap});
  }

  std::string toString() const override { return fmt::format("{}()", Traits::kDynamicName); }

 private:
  Duration extractGap(const T& element) const {
    const Duration gap = extractSessionGap(extractor_, element);
    if (gap <= 0) {
      throw std::invalid_argument(
          fmt::format("{}: the gap extractor returned {} ms, a gap must be > 0", Traits::kDynamicName, gap));
    }
    return gap;
  }

  E extractor_;
};

}  // namespace internal

template <class Traits>
template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> SessionWindows<Traits>::build() const {
  return std::make_unique<internal::SessionWindowsAssigner<Traits, T>>(*this);
}

template <class Traits, class E>
template <class T>
std::unique_ptr<WindowAssigner<T, TimeWindow>> DynamicSessionWindows<Traits, E>::build() const {
  return std::make_unique<internal::DynamicSessionWindowsAssigner<Traits, T, E>>(extractor_);
}

}  // namespace tidemark
