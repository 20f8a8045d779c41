// Single-method function interfaces, for users who prefer Flink's class style.
//
// Every API that takes one of these also takes any callable with the same
// signature (a lambda, a function object), so `stream.map([](const Event& e) {
// return e.user; })` and `stream.map(MyMapper{})` both work. User functions
// are copied once per parallel subtask.
#pragma once

#include <type_traits>
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

/// A MapFunction, FilterFunction or FlatMapFunction called as a plain
/// callable. It keeps the user's object as `function`, where the operator
/// finds out what else it is (a CheckpointedFunction, a CheckpointListener).
struct ClassStyleCall {};

template <class F>
struct MapCall : ClassStyleCall {
  F function;
  template <class V>
  auto operator()(const V& value) {
    return function.map(value);
  }
};

template <class F>
struct FilterCall : ClassStyleCall {
  F function;
  template <class V>
  bool operator()(const V& value) {
    return function.filter(value);
  }
};

template <class F>
struct FlatMapCall : ClassStyleCall {
  F function;
  template <class V, class Out>
  void operator()(const V& value, Out& out) {
    function.flatMap(value, out);
  }
};

/// Turn a function object of the class style into a plain callable.
template <class F>
auto asCallable(F f) {
  if constexpr (requires(F& g) { &F::map; }) {
    return MapCall<F>{{}, std::move(f)};
  } else if constexpr (requires(F& g) { &F::filter; }) {
    return FilterCall<F>{{}, std::move(f)};
  } else if constexpr (requires(F& g) { &F::flatMap; }) {
    return FlatMapCall<F>{{}, std::move(f)};
  } else if constexpr (requires(F& g) { &F::reduce; }) {
    return [g = std::move(f)](const auto& a, const auto& b) mutable { return g.reduce(a, b); };
  } else if constexpr (requires(F& g) { &F::getKey; }) {
    return [g = std::move(f)](const auto& v) mutable { return g.getKey(v); };
  } else {
    return f;
  }
}

/// The object the user handed in: the class-style function inside `call`,
/// or `call` itself (a lambda, a function object).
template <class C>
auto& userFunction(C& call) {
  if constexpr (std::is_base_of_v<ClassStyleCall, C>) {
    return call.function;
  } else {
    return call;
  }
}

}  // namespace internal
}  // namespace tidemark
