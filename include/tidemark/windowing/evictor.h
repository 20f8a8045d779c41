// Evictor<T, W>: removes elements from a window's contents just before and/or
// just after the window function runs (docs/semantics.md 4.9). A window with an
// evictor keeps every element (no incremental aggregation), so the function
// sees only what the evictor left.
//
// Contract:
// - evictBefore / evictAfter get the window's elements in arrival order, each
//   with its timestamp, and remove elements by erasing them from the vector;
//   what is left is what the window keeps.
// - Built-in evictors (CountEvictor, TimeEvictor, DeltaEvictor) come from
//   factories returning a specification that WindowedStream::evictor() turns
//   into an Evictor<T, W>; a user evictor derives from Evictor<T, W>.
#pragma once

#include <concepts>
#include <memory>
#include <ostream>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tidemark/core/time.h"

namespace tidemark {

/// An element of a window together with its timestamp.
template <class T>
struct TimestampedValue {
  T value;
  Timestamp timestamp = kMinWatermark;
  bool has_timestamp = false;

  const T& getValue() const { return value; }
  Timestamp getTimestamp() const { return timestamp; }
  bool hasTimestamp() const { return has_timestamp; }

  /// What a snapshot of an evicting window writes: serializable when T is.
  auto fields() { return std::tie(value, timestamp, has_timestamp); }

  friend bool operator==(const TimestampedValue&, const TimestampedValue&) = default;
};

class EvictorContext {
 public:
  virtual ~EvictorContext() = default;
  virtual Timestamp getCurrentProcessingTime() const = 0;
  virtual Timestamp getCurrentWatermark() const = 0;
};

template <class T, class W>
class Evictor {
 public:
  using ElementType = T;
  using WindowType = W;

  virtual ~Evictor() = default;
  virtual void evictBefore(std::vector<TimestampedValue<T>>& elements, const W& window, const EvictorContext& ctx) = 0;
  virtual void evictAfter(std::vector<TimestampedValue<T>>& elements, const W& window, const EvictorContext& ctx) = 0;
};

/// A built-in evictor's specification.
template <class Spec, class T, class W>
concept EvictorSpec = requires(const Spec& spec) {
  { spec.template build<T, W>() } -> std::convertible_to<std::unique_ptr<Evictor<T, W>>>;
};

namespace internal {

template <class T, class W, class X>
std::unique_ptr<Evictor<T, W>> makeEvictor(const X& evictor) {
  if constexpr (std::is_base_of_v<Evictor<T, W>, X>) {
    return std::make_unique<X>(evictor);
  } else {
    static_assert(EvictorSpec<X, T, W>, "not an Evictor<T, W> for this stream's element and window types");
    return evictor.template build<T, W>();
  }
}

}  // namespace internal
}  // namespace tidemark
