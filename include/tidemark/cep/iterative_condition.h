// Conditions of a pattern (Flink CEP's IterativeCondition / SimpleCondition).
//
// A condition decides whether an event may be taken by a pattern. A simple
// condition looks at the event alone; an iterative condition may also read
// the events the partial match has already taken under a pattern name
// (ctx.getEventsForPattern("name")), e.g. "the price is above the average of
// the events taken so far". Pattern::where / or / until accept:
//   - a callable `bool(const T&)`,
//   - a callable `bool(const T&, IterativeCondition<T>::Context&)`,
//   - a SimpleCondition<T> or IterativeCondition<T> subclass (copied).
// A condition must not keep references to the events it is shown.
#pragma once

#include <concepts>
#include <functional>
#include <memory>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "tidemark/core/time.h"

namespace tidemark {

template <class T>
class IterativeCondition {
 public:
  /// What a condition may learn about the partial match it is asked for.
  class Context {
   public:
    virtual ~Context() = default;
    /// The events the partial match took under `name` so far, oldest first
    /// (empty when none). Computed once per event and partial match.
    virtual const std::vector<T>& getEventsForPattern(std::string_view name) = 0;
    /// The timestamp of the event being tested.
    virtual Timestamp timestamp() const = 0;
    virtual Timestamp currentProcessingTime() const = 0;
  };

  virtual ~IterativeCondition() = default;
  virtual bool filter(const T& value, Context& ctx) = 0;
};

template <class T>
class SimpleCondition : public IterativeCondition<T> {
 public:
  virtual bool filter(const T& value) = 0;
  bool filter(const T& value, typename IterativeCondition<T>::Context&) final { return filter(value); }
};

namespace internal {

/// A condition as the NFA evaluates it; an empty one is always true.
template <class T>
struct CepCondition {
  using Context = typename IterativeCondition<T>::Context;
  std::function<bool(const T&, Context&)> fn;

  bool alwaysTrue() const { return !fn; }
  bool operator()(const T& value, Context& ctx) const { return !fn || fn(value, ctx); }
};

template <class T, class F>
CepCondition<T> makeCondition(F f) {
  using Context = typename IterativeCondition<T>::Context;
  if constexpr (std::derived_from<F, IterativeCondition<T>>) {
    auto shared = std::make_shared<F>(std::move(f));
    return {[shared](const T& value, Context& ctx) { return shared->filter(value, ctx); }};
  } else if constexpr (std::is_invocable_r_v<bool, F&, const T&, Context&>) {
    return {std::move(f)};
  } else {
    static_assert(std::is_invocable_r_v<bool, F&, const T&>,
                  "a condition is bool(const T&), bool(const T&, IterativeCondition<T>::Context&), "
                  "or an IterativeCondition<T> / SimpleCondition<T> subclass");
    return {[f = std::move(f)](const T& value, Context&) mutable { return static_cast<bool>(f(value)); }};
  }
}

template <class T>
CepCondition<T> conditionAnd(CepCondition<T> a, CepCondition<T> b) {
  if (a.alwaysTrue()) return b;
  if (b.alwaysTrue()) return a;
  return {[a = std::move(a), b = std::move(b)](const T& v, typename CepCondition<T>::Context& ctx) {
    return a(v, ctx) && b(v, ctx);
  }};
}

template <class T>
CepCondition<T> conditionOr(CepCondition<T> a, CepCondition<T> b) {
  if (a.alwaysTrue() || b.alwaysTrue()) return {};
  return {[a = std::move(a), b = std::move(b)](const T& v, typename CepCondition<T>::Context& ctx) {
    return a(v, ctx) || b(v, ctx);
  }};
}

template <class T>
CepCondition<T> conditionNot(CepCondition<T> a) {
  return {[a = std::move(a)](const T& v, typename CepCondition<T>::Context& ctx) { return !a(v, ctx); }};
}

}  // namespace internal
}  // namespace tidemark
