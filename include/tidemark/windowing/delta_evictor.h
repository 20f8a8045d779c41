// DeltaEvictor: evicts the elements of a window that are too far, by a
// user-defined delta, from the window's last element (docs/semantics.md 4.9).
//
// Contract:
// - deltaFunction(a, b) returns a double: callable as
//   double(const T&, const T&) for the stream's element type T (checked when
//   the evictor is built for T). Any copyable callable works, including a
//   generic lambda, so one specification serves several element types.
// - Every element e (the last one included) with
//   deltaFunction(e, last) >= threshold is evicted, wherever it is in the
//   window: unlike CountEvictor and TimeEvictor this need not be a prefix.
//   The last element is the last in arrival order, and it is compared with
//   itself too, so a threshold at or below deltaFunction(last, last) evicts it.
// - By default it evicts before the window function; with doEvictAfter after
//   it.
// - Each built evictor holds its own copy of deltaFunction. A NaN threshold
//   (which would make every comparison false) throws std::invalid_argument.
//
// Example:
//   keyed.window(GlobalWindows::create())
//       .trigger(CountTrigger::of(100))
//       .evictor(DeltaEvictor::of(5.0, [](const Reading& a, const Reading& b) {
//         return std::abs(a.celsius - b.celsius);
//       }))                               // keep readings within 5 degrees of the latest
//       .process(summarize);
#pragma once

#include <cmath>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/windowing/evictor.h"

namespace tidemark {

namespace internal {

template <class T, class W, class F>
class TypedDeltaEvictor final : public Evictor<T, W> {
 public:
  TypedDeltaEvictor(double threshold, F delta_function, bool do_evict_after)
      : threshold_(threshold), delta_function_(std::move(delta_function)), do_evict_after_(do_evict_after) {}

  void evictBefore(std::vector<TimestampedValue<T>>& elements, const W&, const EvictorContext&) override {
    if (!do_evict_after_) evict(elements);
  }
  void evictAfter(std::vector<TimestampedValue<T>>& elements, const W&, const EvictorContext&) override {
    if (do_evict_after_) evict(elements);
  }

 private:
  void evict(std::vector<TimestampedValue<T>>& elements) {
    if (elements.empty()) return;
    // Compacting in place: slot i is written only after element i was
    // compared, so `last` (the final slot) stays intact until its own
    // comparison, without copying it. If the delta function throws, the job
    // fails (CONTRIBUTING.md, Errors) and these contents are never used again.
    const std::size_t size = elements.size();
    const T& last = elements.back().value;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < size; ++i) {
      if (static_cast<double>(delta_function_(std::as_const(elements[i].value), last)) >= threshold_) continue;
      if (kept != i) elements[kept] = std::move(elements[i]);
      ++kept;
    }
    elements.erase(elements.begin() + static_cast<std::ptrdiff_t>(kept), elements.end());
  }

  double threshold_;
  F delta_function_;
  bool do_evict_after_;
};

}  // namespace internal

/// Specification of a delta evictor with delta function type F;
/// build<T, W>() makes the Evictor<T, W>.
template <class F>
class DeltaEvictorSpec {
 public:
  DeltaEvictorSpec(double threshold, F delta_function, bool do_evict_after)
      : threshold_(threshold), delta_function_(std::move(delta_function)), do_evict_after_(do_evict_after) {}

  double getThreshold() const { return threshold_; }
  const F& getDeltaFunction() const { return delta_function_; }
  bool isEvictAfter() const { return do_evict_after_; }

  template <class T, class W>
  std::unique_ptr<Evictor<T, W>> build() const {
    constexpr bool kCallable = std::is_invocable_r_v<double, F&, const T&, const T&>;
    constexpr bool kCopyable = std::is_copy_constructible_v<F>;
    static_assert(kCallable,
                  "DeltaEvictor: the delta function must be callable as double(const T&, const T&) "
                  "for the stream's element type T");
    static_assert(kCopyable,
                  "DeltaEvictor: the delta function must be copyable (every parallel instance gets its own copy)");
    // Guarded so that a failed check reports only the message above, not
    // pages of errors from instantiating the evictor.
    if constexpr (kCallable && kCopyable) {
      return std::make_unique<internal::TypedDeltaEvictor<T, W, F>>(threshold_, delta_function_, do_evict_after_);
    } else {
      return nullptr;
    }
  }

 private:
  double threshold_;
  F delta_function_;
  bool do_evict_after_;
};

/// Factories for DeltaEvictorSpec, named as in Flink.
class DeltaEvictor {
 public:
  /// Evicts elements whose delta to the last element is >= `threshold`;
  /// evicts before the window function.
  template <class F>
  static DeltaEvictorSpec<std::decay_t<F>> of(double threshold, F&& delta_function) {
    return of(threshold, std::forward<F>(delta_function), false);
  }
  /// As of(threshold, delta_function); evicts after the window function if
  /// `do_evict_after`.
  template <class F>
  static DeltaEvictorSpec<std::decay_t<F>> of(double threshold, F&& delta_function, bool do_evict_after) {
    if (std::isnan(threshold)) {
      throw std::invalid_argument(fmt::format("DeltaEvictor: threshold must be a number, got {}", threshold));
    }
    return DeltaEvictorSpec<std::decay_t<F>>(threshold, std::forward<F>(delta_function), do_evict_after);
  }
};

}  // namespace tidemark
