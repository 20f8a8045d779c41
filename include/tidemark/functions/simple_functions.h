// Single-method function interfaces, for users who prefer Flink's class style.
//
// Every API that takes one of these also takes any callable with the same
// signature (a lambda, a function object), so `stream.map([](const Event& e) {
// return e.user; })` and `stream.map(MyMapper{})` both work. User functions
// are copied once per parallel subtask.
#pragma once

#include <utility>

#include "tidemark/functions/collector.h"

namespace tidemark {

template <class IN, class OUT>
class MapFunction {
 public:
  using InputType = IN;
  using OutputType = OUT;
  virtual ~MapFunction() = default;
  virtual OUT map(const IN& value) = 0;
};

template <class T>
class FilterFunction {
 public:
  virtual ~FilterFunction() = default;
  virtual bool filter(const T& value) = 0;
};

template <class IN, class OUT>
class FlatMapFunction {
 public:
  using InputType = IN;
  using OutputType = OUT;
  virtual ~FlatMapFunction() = default;
  virtual void flatMap(const IN& value, Collector<OUT>& out) = 0;
};

template <class T>
class ReduceFunction {
 public:
  virtual ~ReduceFunction() = default;
  virtual T reduce(const T& accumulated, const T& value) = 0;
};

template <class IN, class KEY>
class KeySelector {
 public:
  using KeyType = KEY;
  virtual ~KeySelector() = default;
  virtual KEY getKey(const IN& value) = 0;
};

namespace internal {

/// Turn a function object of the class style into a plain callable.
template <class F>
auto asCallable(F f) {
  if constexpr (requires(F& g) { &F::map; }) {
    return [g = std::move(f)](const auto& v) mutable { return g.map(v); };
  } else if constexpr (requires(F& g) { &F::filter; }) {
    return [g = std::move(f)](const auto& v) mutable { return g.filter(v); };
  } else if constexpr (requires(F& g) { &F::flatMap; }) {
    return [g = std::move(f)](const auto& v, auto& out) mutable { g.flatMap(v, out); };
  } else if constexpr (requires(F& g) { &F::reduce; }) {
    return [g = std::move(f)](const auto& a, const auto& b) mutable { return g.reduce(a, b); };
  } else if constexpr (requires(F& g) { &F::getKey; }) {
    return [g = std::move(f)](const auto& v) mutable { return g.getKey(v); };
  } else {
    return f;
  }
}

}  // namespace internal
}  // namespace tidemark
