// AllWindowedStream<T, W>: the whole stream (not per key) cut into windows
// (DataStream::windowAll). Configured and finished like WindowedStream, with
// the key-less function forms (ProcessAllWindowFunction, AllWindowFunction).
// Every element goes to one window operator subtask: it runs with
// parallelism 1, and asking for more is an error that execute() reports.
// data_stream.h includes this header at its end, after DataStream is complete;
// the guard comes after that include so that including this header first works.
#include "tidemark/api/data_stream.h"

#ifndef TIDEMARK_API_ALL_WINDOWED_STREAM_H
#define TIDEMARK_API_ALL_WINDOWED_STREAM_H

#include <memory>
#include <type_traits>
#include <utility>

#include "tidemark/api/windowed_stream.h"
#include "tidemark/functions/all_window_function.h"
#include "tidemark/functions/process_all_window_function.h"
#include "tidemark/functions/window_context.h"

namespace tidemark {

namespace internal {
template <class T, class OUT, class W, class F>
class LambdaAllWindowFunction final : public AllWindowFunction<T, OUT, W> {
 public:
  explicit LambdaAllWindowFunction(F f) : f_(std::move(f)) {}
  void apply(const W& window, std::span<const T> elements, Collector<OUT>& out) override { f_(window, elements, out); }

 private:
  F f_;
};
}  // namespace internal

template <class T, class W>
class AllWindowedStream {
 public:
  /// Use DataStream::windowAll().
  explicit AllWindowedStream(WindowedStream<AllWindowsKey, T, W> windowed) : windowed_(std::move(windowed)) {}

  template <class X>
  AllWindowedStream& trigger(X trigger) {
    windowed_.trigger(std::move(trigger));
    return *this;
  }
  template <class X>
  AllWindowedStream& evictor(X evictor) {
    windowed_.evictor(std::move(evictor));
    return *this;
  }
  template <class D>
  AllWindowedStream& allowedLateness(D lateness) {
    windowed_.allowedLateness(lateness);
    return *this;
  }
  AllWindowedStream& sideOutputLateData(const OutputTag<T>& tag) {
    windowed_.sideOutputLateData(tag);
    return *this;
  }

  template <class F>
  SingleOutputStreamOperator<T> reduce(F f) const {
    return nonParallel(windowed_.reduce(std::move(f)));
  }
  template <class F, class Fn>
    requires std::is_base_of_v<ProcessAllWindowFunction<T, typename Fn::OutputType, W>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> reduce(F f, Fn process_function) const {
    using OUT = typename Fn::OutputType;
    return nonParallel(windowed_.reduceThen("Window(Reduce, Process)", std::move(f), [process_function] {
      return internal::ProcessAllWindowFunctionAdapter<T, OUT, W>(std::make_shared<Fn>(process_function));
    }));
  }

  template <class Agg>
  SingleOutputStreamOperator<typename AggregateTypes<Agg>::Result> aggregate(Agg aggregate_function) const {
    return nonParallel(windowed_.aggregate(std::move(aggregate_function)));
  }
  template <class Agg, class Fn>
    requires std::is_base_of_v<
        ProcessAllWindowFunction<typename AggregateTypes<Agg>::Result, typename Fn::OutputType, W>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> aggregate(Agg aggregate_function, Fn process_function) const {
    using R = typename AggregateTypes<Agg>::Result;
    using OUT = typename Fn::OutputType;
    return nonParallel(windowed_.aggregateThen("Window(Aggregate, Process)", std::move(aggregate_function),
                                               [process_function] {
                                                 return internal::ProcessAllWindowFunctionAdapter<R, OUT, W>(
                                                     std::make_shared<Fn>(process_function));
                                               }));
  }

  template <class Fn>
    requires std::is_base_of_v<ProcessAllWindowFunction<T, typename Fn::OutputType, W>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> process(Fn process_function) const {
    using OUT = typename Fn::OutputType;
    return nonParallel(windowed_.allElements("Window(Process)", [process_function] {
      return internal::ProcessAllWindowFunctionAdapter<T, OUT, W>(std::make_shared<Fn>(process_function));
    }));
  }

  template <class Fn>
    requires std::is_base_of_v<AllWindowFunction<T, typename Fn::OutputType, W>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> apply(Fn window_function) const {
    using OUT = typename Fn::OutputType;
    return nonParallel(windowed_.allElements("Window(Apply)", [window_function] {
      return internal::AllWindowFunctionAdapter<T, OUT, W>(std::make_shared<Fn>(window_function));
    }));
  }
  /// apply() with `f(const W&, std::span<const T>, Collector<OUT>&)`.
  template <class OUT, class F>
  SingleOutputStreamOperator<OUT> apply(F f) const {
    return apply(internal::LambdaAllWindowFunction<T, OUT, W, F>(std::move(f)));
  }

  template <class... Args>
  SingleOutputStreamOperator<T> sum(Args... field) const {
    return nonParallel(windowed_.sum(field...));
  }
  template <std::size_t I>
  SingleOutputStreamOperator<T> sum() const {
    return nonParallel(windowed_.template sum<I>());
  }
  template <class... Args>
  SingleOutputStreamOperator<T> min(Args... args) const {
    return nonParallel(windowed_.min(args...));
  }
  template <class... Args>
  SingleOutputStreamOperator<T> max(Args... args) const {
    return nonParallel(windowed_.max(args...));
  }
  template <class... Args>
  SingleOutputStreamOperator<T> minBy(Args... args) const {
    return nonParallel(windowed_.minBy(args...));
  }
  template <class... Args>
  SingleOutputStreamOperator<T> maxBy(Args... args) const {
    return nonParallel(windowed_.maxBy(args...));
  }

 private:
  template <class OUT>
  static SingleOutputStreamOperator<OUT> nonParallel(SingleOutputStreamOperator<OUT> result) {
    result.graph()->node(result.getId()).non_parallel = true;
    return result;
  }

  WindowedStream<AllWindowsKey, T, W> windowed_;
};

// ---- DataStream's windowAll entry points ----

template <class T>
template <class A>
AllWindowedStream<T, typename A::WindowType> DataStream<T>::windowAll(A assigner) const {
  return AllWindowedStream<T, typename A::WindowType>(keyBy([](const T&) { return AllWindowsKey{}; }).window(assigner));
}

template <class T>
AllWindowedStream<T, GlobalWindow> DataStream<T>::countWindowAll(std::int64_t size) const {
  return AllWindowedStream<T, GlobalWindow>(keyBy([](const T&) { return AllWindowsKey{}; }).countWindow(size));
}

template <class T>
AllWindowedStream<T, GlobalWindow> DataStream<T>::countWindowAll(std::int64_t size, std::int64_t slide) const {
  return AllWindowedStream<T, GlobalWindow>(keyBy([](const T&) { return AllWindowsKey{}; }).countWindow(size, slide));
}

}  // namespace tidemark

#endif  // TIDEMARK_API_ALL_WINDOWED_STREAM_H
