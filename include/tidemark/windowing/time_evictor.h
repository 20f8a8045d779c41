// TimeEvictor: keeps the elements of a window whose timestamps lie within
// windowSize of the newest one (docs/semantics.md 4.9).
//
// Contract:
// - Let m be the largest element timestamp in the window. Elements with
//   timestamp <= m - windowSize are evicted, so what is kept is the interval
//   (m - windowSize, m]: exactly windowSize milliseconds. This is the
//   comparison Flink's TimeEvictor makes (its documentation says "smaller
//   than", its code evicts at the cutoff too); we follow the code so results
//   match Flink's.
// - As in Flink, whether the window has timestamps at all is decided by its
//   first element: if that one has none (processing-time windows over a
//   stream without timestamps), nothing is evicted. If it has one, an element
//   without a timestamp counts as older than any cutoff and is evicted.
// - By default it evicts before the window function; with doEvictAfter after
//   it.
// - windowSize 0 is allowed (as in Flink) and evicts every element with a
//   timestamp; a negative windowSize throws std::invalid_argument.
//
// Example:
//   keyed.window(TumblingEventTimeWindows::of(std::chrono::minutes(1)))
//       .evictor(TimeEvictor::of(std::chrono::seconds(10)))   // only the newest 10 s
//       .process(summarize);
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/time.h"
#include "tidemark/windowing/evictor.h"

namespace tidemark {

namespace internal {

template <class T, class W>
class TypedTimeEvictor final : public Evictor<T, W> {
 public:
  TypedTimeEvictor(Duration window_size, bool do_evict_after)
      : window_size_(window_size), do_evict_after_(do_evict_after) {}

  void evictBefore(std::vector<TimestampedValue<T>>& elements, const W&, const EvictorContext&) override {
    if (!do_evict_after_) evict(elements);
  }
  void evictAfter(std::vector<TimestampedValue<T>>& elements, const W&, const EvictorContext&) override {
    if (do_evict_after_) evict(elements);
  }

 private:
  void evict(std::vector<TimestampedValue<T>>& elements) const {
    if (elements.empty() || !elements.front().hasTimestamp()) return;
    Timestamp max_timestamp = kMinWatermark;
    for (const TimestampedValue<T>& element : elements) {
      if (element.hasTimestamp() && element.getTimestamp() > max_timestamp) max_timestamp = element.getTimestamp();
    }
    // Saturating: a timestamp near MIN minus the window size must not wrap
    // around to a huge cutoff that would evict everything.
    const Timestamp cutoff = saturatingAdd(max_timestamp, -window_size_);
    std::erase_if(elements, [cutoff](const TimestampedValue<T>& element) {
      return !element.hasTimestamp() || element.getTimestamp() <= cutoff;
    });
  }

  Duration window_size_;
  bool do_evict_after_;
};

}  // namespace internal

/// Specification of a time evictor; build<T, W>() makes the Evictor<T, W>.
class TimeEvictor {
 public:
  /// Keeps the elements within `window_size` ms of the newest; evicts before
  /// the window function.
  static TimeEvictor of(Duration window_size) { return of(window_size, false); }
  /// As of(window_size); evicts after the window function if `do_evict_after`.
  static TimeEvictor of(Duration window_size, bool do_evict_after) {
    if (window_size < 0) {
      throw std::invalid_argument("TimeEvictor: window size must not be negative, got " +
                                  std::to_string(window_size) + " ms");
    }
    return TimeEvictor(window_size, do_evict_after);
  }
  /// Any std::chrono duration, truncated to whole milliseconds (as elsewhere
  /// in the API, e.g. WatermarkStrategy::forBoundedOutOfOrderness).
  template <class Rep, class Period>
  static TimeEvictor of(std::chrono::duration<Rep, Period> window_size, bool do_evict_after = false) {
    // Checked before truncating, so that -0.5 ms is refused rather than
    // silently becoming 0.
    if (window_size < std::chrono::duration<Rep, Period>::zero()) {
      throw std::invalid_argument(fmt::format("TimeEvictor: window size must not be negative, got {} ms",
                                              std::chrono::duration<double, std::milli>(window_size).count()));
    }
    return of(toMillis(window_size), do_evict_after);
  }

  /// The window size in milliseconds.
  Duration getWindowSize() const { return window_size_; }
  bool isEvictAfter() const { return do_evict_after_; }

  template <class T, class W>
  std::unique_ptr<Evictor<T, W>> build() const {
    return std::make_unique<internal::TypedTimeEvictor<T, W>>(window_size_, do_evict_after_);
  }

 private:
  TimeEvictor(Duration window_size, bool do_evict_after) : window_size_(window_size), do_evict_after_(do_evict_after) {}

  Duration window_size_;
  bool do_evict_after_;
};

}  // namespace tidemark
