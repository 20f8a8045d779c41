// The window join (Flink's JoinedStreams):
//
//   a.join(b)
//       .where(keyA).equalTo(keyB)            // both selectors return the same key type K
//       .window(assigner)                     // TumblingEventTimeWindows::of(...), ...
//       [.trigger(t)] [.evictor(e)] [.allowedLateness(d)]
//       .apply(fn)
//
// For every key and window, the join pairs each element of `a` in the window
// with each element of `b` in the window (an inner join, per window): for
// each `a` element in arrival order, for each `b` element in arrival order,
// it calls the function once. A window that holds elements of only one side
// produces nothing. Every result carries the window's maxTimestamp(). With
// sliding windows a pair that shares several windows is joined once per
// window; with allowed lateness a late element re-fires its window, which
// joins the window's whole (updated) contents again.
//
// apply() overloads, chosen by what `fn` is:
//   apply(fn)          fn is a JoinFunction<A, B, OUT> subclass: OUT join(const A&, const B&);
//   apply(fn)          fn is a FlatJoinFunction<A, B, OUT> subclass:
//                      void join(const A&, const B&, Collector<OUT>&);
//   apply(f)           f is a callable `OUT(const A&, const B&)`; OUT is its
//                      (decayed) return type, which must not be void;
//   apply<OUT>(f)      f is a callable `void(const A&, const B&, Collector<OUT>&)`
//                      (zero or more results per pair).
//
// A join is a coGroup (api/co_grouped_streams.h) whose function runs the
// nested loop above (Flink's JoinCoGroupFunction), so everything said there
// holds here: the tagging into TaggedUnion<A, B>, the union and keyBy, event
// time as the minimum of both inputs' watermarks, window semantics and state
// cleanup exactly as KeyedStream::window(), triggers / evictors / assigners
// working on TaggedUnion<A, B>, configuration calls returning copies. The
// window operator is named "Window(Join)" ("EvictingWindow(Join)" with an
// evictor).
//
// Example (each click with each order of the same user in the same 10 s window):
//   clicks.join(orders)
//       .where([](const Click& c) { return c.user; })
//       .equalTo([](const Order& o) { return o.buyer; })
//       .window(tidemark::TumblingEventTimeWindows::of(std::chrono::seconds(10)))
//       .apply([](const Click& c, const Order& o) { return c.page + " -> " + o.item; });
// data_stream.h includes this header at its end, after DataStream is complete;
// the guard comes after that include so that including this header first works.
#include "tidemark/api/data_stream.h"

#ifndef TIDEMARK_API_JOINED_STREAMS_H
#define TIDEMARK_API_JOINED_STREAMS_H

#include <chrono>
#include <concepts>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "tidemark/api/co_grouped_streams.h"
#include "tidemark/api/tagged_union.h"
#include "tidemark/core/time.h"
#include "tidemark/functions/co_group_function.h"
#include "tidemark/functions/collector.h"
#include "tidemark/functions/join_function.h"

namespace tidemark {

namespace internal {

/// A join lambda `OUT(const IN1&, const IN2&)` wrapped as a JoinFunction.
template <class IN1, class IN2, class OUT, class F>
class LambdaJoinFunction final : public JoinFunction<IN1, IN2, OUT> {
 public:
  explicit LambdaJoinFunction(F f) : f_(std::move(f)) {}
  OUT join(const IN1& first, const IN2& second) override { return f_(first, second); }

 private:
  F f_;
};

/// A join lambda `void(const IN1&, const IN2&, Collector<OUT>&)` wrapped as a FlatJoinFunction.
template <class IN1, class IN2, class OUT, class F>
class LambdaFlatJoinFunction final : public FlatJoinFunction<IN1, IN2, OUT> {
 public:
  explicit LambdaFlatJoinFunction(F f) : f_(std::move(f)) {}
  void join(const IN1& first, const IN2& second, Collector<OUT>& out) override { f_(first, second, out); }

 private:
  F f_;
};

/// A JoinFunction `Fn` run as a CoGroupFunction: one call per pair of the
/// window's first and second elements (Flink's JoinCoGroupFunction).
template <class IN1, class IN2, class OUT, class Fn>
class JoinCoGroupFunction final : public CoGroupFunction<IN1, IN2, OUT> {
 public:
  explicit JoinCoGroupFunction(Fn function) : function_(std::move(function)) {}
  void open() override {
    function_.setRuntimeContext(&this->getRuntimeContext());
    function_.open();
  }
  void close() override { function_.close(); }
  void coGroup(std::span<const IN1> first, std::span<const IN2> second, Collector<OUT>& out) override {
    for (const IN1& a : first) {
      for (const IN2& b : second) out.collect(function_.join(a, b));
    }
  }

 private:
  Fn function_;
};

/// A FlatJoinFunction `Fn` run as a CoGroupFunction (Flink's FlatJoinCoGroupFunction).
template <class IN1, class IN2, class OUT, class Fn>
class FlatJoinCoGroupFunction final : public CoGroupFunction<IN1, IN2, OUT> {
 public:
  explicit FlatJoinCoGroupFunction(Fn function) : function_(std::move(function)) {}
  void open() override {
    function_.setRuntimeContext(&this->getRuntimeContext());
    function_.open();
  }
  void close() override { function_.close(); }
  void coGroup(std::span<const IN1> first, std::span<const IN2> second, Collector<OUT>& out) override {
    for (const IN1& a : first) {
      for (const IN2& b : second) function_.join(a, b, out);
    }
  }

 private:
  Fn function_;
};

/// A class that is a JoinFunction / FlatJoinFunction of these types.
template <class Fn, class IN1, class IN2>
concept JoinFunctionClass = requires { typename Fn::OutputType; } &&
                            std::is_base_of_v<JoinFunction<IN1, IN2, typename Fn::OutputType>, Fn>;
template <class Fn, class IN1, class IN2>
concept FlatJoinFunctionClass = requires { typename Fn::OutputType; } &&
                                std::is_base_of_v<FlatJoinFunction<IN1, IN2, typename Fn::OutputType>, Fn>;

}  // namespace internal

template <class T1, class T2>
class JoinedStreams {
 public:
  using Tagged = TaggedUnion<T1, T2>;

  /// A join with its keys and window assigner: configure it, then apply().
  template <class K, class W>
  class WithWindow {
   public:
    using KeyType = K;
    using WindowType = W;
    using CoGroupWithWindow = typename CoGroupedStreams<T1, T2>::template WithWindow<K, W>;

    explicit WithWindow(CoGroupWithWindow co_group) : co_group_(std::move(co_group)) {}

    /// Replace the assigner's default trigger: a built-in trigger or a
    /// Trigger<TaggedUnion<T1, T2>, W> subclass.
    template <class X>
    [[nodiscard]] WithWindow trigger(X trigger) const {
      return WithWindow(co_group_.trigger(std::move(trigger)));
    }
    /// Remove elements of a fired window before / after the join runs: a
    /// built-in evictor or an Evictor<TaggedUnion<T1, T2>, W> subclass.
    template <class X>
    [[nodiscard]] WithWindow evictor(X evictor) const {
      return WithWindow(co_group_.evictor(std::move(evictor)));
    }
    /// Keep event-time windows (and re-fire them for late elements) this long
    /// after the watermark passed their end. Throws std::invalid_argument if negative.
    [[nodiscard]] WithWindow allowedLateness(Duration lateness) const {
      return WithWindow(co_group_.allowedLateness(lateness));
    }
    template <class Rep, class Period>
    [[nodiscard]] WithWindow allowedLateness(std::chrono::duration<Rep, Period> lateness) const {
      return WithWindow(co_group_.allowedLateness(lateness));
    }

    Duration getAllowedLateness() const { return co_group_.getAllowedLateness(); }

    /// Run a JoinFunction<T1, T2, OUT> subclass for every pair.
    template <class Fn>
      requires internal::JoinFunctionClass<Fn, T1, T2>
    SingleOutputStreamOperator<typename Fn::OutputType> apply(Fn function) const {
      using OUT = typename Fn::OutputType;
      return named(co_group_.apply(internal::JoinCoGroupFunction<T1, T2, OUT, Fn>(std::move(function))));
    }
    /// Run a FlatJoinFunction<T1, T2, OUT> subclass for every pair.
    template <class Fn>
      requires internal::FlatJoinFunctionClass<Fn, T1, T2>
    SingleOutputStreamOperator<typename Fn::OutputType> apply(Fn function) const {
      using OUT = typename Fn::OutputType;
      return named(co_group_.apply(internal::FlatJoinCoGroupFunction<T1, T2, OUT, Fn>(std::move(function))));
    }
    /// Run `f(const T1&, const T2&) -> OUT` for every pair; OUT is deduced.
    template <class F>
      requires(!internal::JoinFunctionClass<F, T1, T2> && !internal::FlatJoinFunctionClass<F, T1, T2> &&
               std::invocable<F&, const T1&, const T2&>)
    auto apply(F f) const {
      using OUT = std::decay_t<std::invoke_result_t<F&, const T1&, const T2&>>;
      if constexpr (std::is_void_v<OUT>) {
        // sizeof(F) == 0: always false, but dependent, so it fires only here.
        static_assert(sizeof(F) == 0,
                      "join apply(f): f returns nothing; to emit zero or more results per pair use "
                      "apply<OUT>(f) with f(const T1&, const T2&, Collector<OUT>&), or a FlatJoinFunction");
      } else {
        return apply(internal::LambdaJoinFunction<T1, T2, OUT, F>(std::move(f)));
      }
    }
    /// Run `f(const T1&, const T2&, Collector<OUT>&)` for every pair.
    template <class OUT, class F>
      requires std::invocable<F&, const T1&, const T2&, Collector<OUT>&>
    SingleOutputStreamOperator<OUT> apply(F f) const {
      return apply(internal::LambdaFlatJoinFunction<T1, T2, OUT, F>(std::move(f)));
    }

   private:
    template <class OUT>
    SingleOutputStreamOperator<OUT> named(SingleOutputStreamOperator<OUT> result) const {
      result.name(co_group_.hasEvictor() ? "EvictingWindow(Join)" : "Window(Join)");
      return result;
    }

    CoGroupWithWindow co_group_;
  };

  /// Both keys given: window() chooses the windows.
  template <class K>
  class EqualTo {
   public:
    using CoGroupEqualTo = typename CoGroupedStreams<T1, T2>::template EqualTo<K>;

    explicit EqualTo(CoGroupEqualTo co_group) : co_group_(std::move(co_group)) {}

    /// `assigner` is a built-in (TumblingEventTimeWindows::of(...),
    /// EventTimeSessionWindows::withGap(...), ...) or a
    /// WindowAssigner<TaggedUnion<T1, T2>, W> subclass.
    template <class A>
    [[nodiscard]] WithWindow<K, typename A::WindowType> window(A assigner) const {
      return WithWindow<K, typename A::WindowType>(co_group_.window(std::move(assigner)));
    }

   private:
    CoGroupEqualTo co_group_;
  };

  /// The first input's key given: equalTo() gives the second's.
  template <class K>
  class Where {
   public:
    using CoGroupWhere = typename CoGroupedStreams<T1, T2>::template Where<K>;

    explicit Where(CoGroupWhere co_group) : co_group_(std::move(co_group)) {}

    /// The second input's key selector: `f(const T2&) -> K` (or a KeySelector<T2, K>),
    /// returning the same type K as where()'s.
    template <class F>
    [[nodiscard]] auto equalTo(F key_selector) const {
      return EqualTo<K>(co_group_.equalTo(std::move(key_selector)));
    }

   private:
    CoGroupWhere co_group_;
  };

  /// Use DataStream::join(). Throws std::invalid_argument when the streams
  /// come from different environments.
  JoinedStreams(DataStream<T1> first, DataStream<T2> second) : first_(std::move(first)), second_(std::move(second)) {
    if (first_.graph() != second_.graph()) {
      throw std::invalid_argument("join: both streams must come from the same StreamExecutionEnvironment");
    }
  }

  /// The first input's key selector: `f(const T1&) -> K` (or a KeySelector<T1, K>);
  /// K must be a type keyBy accepts.
  template <class F>
  [[nodiscard]] auto where(F key_selector) const {
    auto co_group = CoGroupedStreams<T1, T2>(first_, second_).where(std::move(key_selector));
    return Where<typename decltype(co_group)::KeyType>(std::move(co_group));
  }

 private:
  DataStream<T1> first_;
  DataStream<T2> second_;
};

template <class T>
template <class U>
JoinedStreams<T, U> DataStream<T>::join(const DataStream<U>& other) const {
  return JoinedStreams<T, U>(*this, other);
}

}  // namespace tidemark

#endif  // TIDEMARK_API_JOINED_STREAMS_H
