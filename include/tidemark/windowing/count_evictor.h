// CountEvictor: keeps at most maxCount elements of a window, the ones that
// arrived last (docs/semantics.md 4.9).
//
// Contract:
// - Elements are evicted from the front (the oldest arrivals) until at most
//   maxCount are left; a window with maxCount or fewer elements is untouched.
// - By default it evicts before the window function; with doEvictAfter it
//   evicts after it, so the function sees every element and the window keeps
//   only the last maxCount for its next firing.
// - maxCount 0 is allowed (as in Flink): the window is emptied, which with
//   doEvictAfter clears the window after each firing. A negative maxCount
//   throws std::invalid_argument.
//
// Example:
//   keyed.window(GlobalWindows::create())
//       .trigger(CountTrigger::of(10))
//       .evictor(CountEvictor::of(5))     // the function sees the last 5 of each 10
//       .reduce(sum);
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tidemark/windowing/evictor.h"

namespace tidemark {

namespace internal {

template <class T, class W>
class TypedCountEvictor final : public Evictor<T, W> {
 public:
  TypedCountEvictor(std::int64_t max_count, bool do_evict_after)
      : max_count_(static_cast<std::size_t>(max_count)), do_evict_after_(do_evict_after) {}

  void evictBefore(std::vector<TimestampedValue<T>>& elements, const W&, const EvictorContext&) override {
    if (!do_evict_after_) evict(elements);
  }
  void evictAfter(std::vector<TimestampedValue<T>>& elements, const W&, const EvictorContext&) override {
    if (do_evict_after_) evict(elements);
  }

 private:
  void evict(std::vector<TimestampedValue<T>>& elements) const {
    if (elements.size() <= max_count_) return;
    const auto to_evict = static_cast<std::ptrdiff_t>(elements.size() - max_count_);
    elements.erase(elements.begin(), elements.begin() + to_evict);
  }

  std::size_t max_count_;
  bool do_evict_after_;
};

}  // namespace internal

/// Specification of a count evictor; build<T, W>() makes the Evictor<T, W>.
class CountEvictor {
 public:
  /// Keeps the last `max_count` elements; evicts before the window function.
  static CountEvictor of(std::int64_t max_count) { return of(max_count, false); }
  /// Keeps the last `max_count` elements; evicts after the window function
  /// if `do_evict_after`, else before it.
  static CountEvictor of(std::int64_t max_count, bool do_evict_after) {
    if (max_count < 0) {
      throw std::invalid_argument("CountEvictor: maxCount must not be negative, got " + std::to_string(max_count));
    }
    return CountEvictor(max_count, do_evict_after);
  }

  std::int64_t getMaxCount() const { return max_count_; }
  bool isEvictAfter() const { return do_evict_after_; }

  template <class T, class W>
  std::unique_ptr<Evictor<T, W>> build() const {
    return std::make_unique<internal::TypedCountEvictor<T, W>>(max_count_, do_evict_after_);
  }

 private:
  CountEvictor(std::int64_t max_count, bool do_evict_after) : max_count_(max_count), do_evict_after_(do_evict_after) {}

  std::int64_t max_count_;
  bool do_evict_after_;
};

}  // namespace tidemark
