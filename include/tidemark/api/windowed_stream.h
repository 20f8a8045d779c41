// WindowedStream<K, T, W>: a keyed stream cut into windows by an assigner
// (KeyedStream::window), waiting for a window function to say what each
// window emits. Configure it first (trigger, evictor, allowedLateness,
// sideOutputLateData), then finish it with reduce / aggregate / process /
// apply / sum / min / max / minBy / maxBy, which add the window operator.
//
// Functions are copied into every parallel subtask, as with every other
// transformation. Results carry the window's maxTimestamp() as timestamp.
//
// Example:
//   events.keyBy([](const Event& e) { return e.url; })
//       .window(TumblingEventTimeWindows::of(std::chrono::seconds(10)))
//       .allowedLateness(std::chrono::minutes(1))
//       .sideOutputLateData(late)
//       .aggregate(CountAgg{}, UrlViewCountResult{});
// data_stream.h includes this header at its end, after DataStream is complete;
// the guard comes after that include so that including this header first works.
#include "tidemark/api/data_stream.h"

#ifndef TIDEMARK_API_WINDOWED_STREAM_H
#define TIDEMARK_API_WINDOWED_STREAM_H

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "tidemark/api/field_aggregations.h"
#include "tidemark/core/output_tag.h"
#include "tidemark/functions/aggregate_function.h"
#include "tidemark/functions/process_window_function.h"
#include "tidemark/functions/simple_functions.h"
#include "tidemark/functions/window_function.h"
#include "tidemark/internal/operators/keyed_aggregation_operator.h"
#include "tidemark/internal/window/internal_window_function.h"
#include "tidemark/internal/window/slicing_window_operator.h"
#include "tidemark/internal/window/window_contents.h"
#include "tidemark/internal/window/window_operator.h"
#include "tidemark/windowing/count_evictor.h"
#include "tidemark/windowing/count_trigger.h"
#include "tidemark/windowing/evictor.h"
#include "tidemark/windowing/global_windows.h"
#include "tidemark/windowing/purging_trigger.h"
#include "tidemark/windowing/sliding_event_time_windows.h"
#include "tidemark/windowing/tumbling_event_time_windows.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark {

namespace internal {

template <class T, class OUT, class K, class W, class F>
class LambdaWindowFunction final : public WindowFunction<T, OUT, K, W> {
 public:
  explicit LambdaWindowFunction(F f) : f_(std::move(f)) {}
  void apply(const K& key, const W& window, std::span<const T> elements, Collector<OUT>& out) override {
    f_(key, window, elements, out);
  }

 private:
  F f_;
};

/// What a windowed stream was configured with, shared by the keyed and the
/// windowAll forms.
template <class K, class T, class W>
struct WindowSpec {
  std::function<std::unique_ptr<WindowAssigner<T, W>>()> assigner;
  std::function<std::unique_ptr<Trigger<T, W>>()> trigger;  // empty: the assigner's default
  std::function<std::unique_ptr<Evictor<T, W>>()> evictor;  // empty: none
  Duration allowed_lateness = 0;
  std::optional<OutputTag<T>> late_data_tag;
  /// Set for the built-in tumbling / sliding event-time assigners: their
  /// windows can be computed by the slicing operator.
  std::optional<SliceGrid> slice_grid;
  std::string assigner_name;

  /// Whether the slicing operator computes exactly what the general one
  /// would: the default trigger, no evictor, no lateness, and either
  /// tumbling windows or an order-insensitive aggregation.
  bool canSlice(bool order_insensitive) const {
    // Sliding windows with gaps (size < slide) have elements in no window at
    // all, which the slicing operator does not model.
    return slice_grid && !trigger && !evictor && allowed_lateness == 0 && slice_grid->size >= slice_grid->slide &&
           (slice_grid->isTumbling() || order_insensitive);
  }

  WindowOperatorSettings<K, T, W> settings(std::function<K(const T&)> key_selector) const {
    WindowOperatorSettings<K, T, W> s;
    s.key_selector = std::move(key_selector);
    s.assigner = assigner();
    s.trigger = trigger ? trigger() : s.assigner->getDefaultTrigger();
    s.allowed_lateness = allowed_lateness;
    s.late_data_tag = late_data_tag;
    return s;
  }
};

}  // namespace internal

template <class K, class T, class W>
class WindowedStream : public internal::FieldAggregations<WindowedStream<K, T, W>, T> {
 public:
  using KeySelectorFunction = std::function<K(const T&)>;

  /// Use KeyedStream::window().
  WindowedStream(DataStream<T> input, KeySelectorFunction key_selector,
                 std::function<std::unique_ptr<WindowAssigner<T, W>>()> assigner)
      : input_(std::move(input)), key_selector_(std::move(key_selector)) {
    spec_.assigner = std::move(assigner);
  }

  /// Runtime use (KeyedStream::window): the assigner is a built-in grid of
  /// event-time windows, which the slicing operator can compute.
  void setSliceGrid(internal::SliceGrid grid, std::string assigner_name) {
    spec_.slice_grid = grid;
    spec_.assigner_name = std::move(assigner_name);
  }

  /// Replace the assigner's default trigger: a Trigger<T, W> subclass or a
  /// built-in (EventTimeTrigger::create(), CountTrigger::of(n), ...).
  template <class X>
  WindowedStream& trigger(X trigger) {
    spec_.trigger = [trigger]() { return internal::makeTrigger<T, W>(trigger); };
    return *this;
  }

  /// Remove elements before / after the window function (CountEvictor::of(n), ...).
  template <class X>
  WindowedStream& evictor(X evictor) {
    spec_.evictor = [evictor]() { return internal::makeEvictor<T, W>(evictor); };
    return *this;
  }

  /// Keep event-time windows (and re-fire them for late elements) this long
  /// after the watermark passed their end.
  WindowedStream& allowedLateness(Duration lateness) {
    if (lateness < 0) throw std::invalid_argument("allowedLateness must be >= 0, not " + std::to_string(lateness));
    spec_.allowed_lateness = lateness;
    return *this;
  }
  template <class Rep, class Period>
  WindowedStream& allowedLateness(std::chrono::duration<Rep, Period> lateness) {
    return allowedLateness(toMillis(lateness));
  }

  /// Send elements that arrive after their windows were cleaned up to `tag`
  /// instead of dropping them (read it with getSideOutput(tag) on the result).
  WindowedStream& sideOutputLateData(const OutputTag<T>& tag) {
    spec_.late_data_tag = tag;
    return *this;
  }

  /// Emit each window's elements folded with `f(const T&, const T&) -> T` (or a ReduceFunction).
  template <class F>
  SingleOutputStreamOperator<T> reduce(F f) const {
    return reduceOnly("Window(Reduce)", std::move(f), /*order_insensitive=*/false);
  }
  /// Reduce incrementally, then hand the one reduced element to a ProcessWindowFunction<T, OUT, K, W>.
  template <class F, class Fn>
    requires std::is_base_of_v<ProcessWindowFunction<T, typename Fn::OutputType, K, W>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> reduce(F f, Fn process_function) const {
    using OUT = typename Fn::OutputType;
    auto make_function = [process_function] {
      return internal::ProcessWindowFunctionAdapter<T, OUT, K, W>(std::make_shared<Fn>(process_function));
    };
    auto call = internal::asCallable(f);
    auto make_reduce = [call] { return internal::SlicingReduce<T, decltype(call)>{call}; };
    if (auto sliced = slicedWindowFunction("Window(Reduce, Process)", make_reduce, make_function)) {
      return *sliced;
    }
    return reduceThen("Window(Reduce, Process)", std::move(f), make_function);
  }

  /// Aggregate incrementally with an AggregateFunction<T, ACC, R>; emit getResult().
  template <class Agg>
  SingleOutputStreamOperator<typename AggregateTypes<Agg>::Result> aggregate(Agg aggregate_function) const {
    using R = typename AggregateTypes<Agg>::Result;
    if (spec_.canSlice(/*order_insensitive=*/false)) {
      using Types = AggregateTypes<Agg>;
      using Aggregation = internal::SlicingAggregate<T, typename Types::Accumulator, R>;
      // A copy of the function per subtask, as on the general path.
      return addSlicingOperatorMadeBy("Window(Aggregate)", [aggregate_function] {
        return Aggregation{std::make_shared<Agg>(aggregate_function)};
      });
    }
    return aggregateThen("Window(Aggregate)", std::move(aggregate_function),
                         [] { return internal::PassThroughWindowFunction<R>(); });
  }
  /// Aggregate incrementally, then hand the result to a ProcessWindowFunction<R, OUT, K, W>.
  template <class Agg, class Fn>
    requires std::is_base_of_v<
        ProcessWindowFunction<typename AggregateTypes<Agg>::Result, typename Fn::OutputType, K, W>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> aggregate(Agg aggregate_function, Fn process_function) const {
    using Types = AggregateTypes<Agg>;
    using R = typename Types::Result;
    using OUT = typename Fn::OutputType;
    auto make_function = [process_function] {
      return internal::ProcessWindowFunctionAdapter<R, OUT, K, W>(std::make_shared<Fn>(process_function));
    };
    using Pre = internal::SlicingAggregate<T, typename Types::Accumulator, R>;
    auto make_aggregate = [aggregate_function] { return Pre{std::make_shared<Agg>(aggregate_function)}; };
    if (auto sliced = slicedWindowFunction("Window(Aggregate, Process)", make_aggregate, make_function)) {
      return *sliced;
    }
    return aggregateThen("Window(Aggregate, Process)", std::move(aggregate_function), make_function);
  }

  /// Hand every element of a window to a ProcessWindowFunction<T, OUT, K, W>.
  template <class Fn>
    requires std::is_base_of_v<ProcessWindowFunction<T, typename Fn::OutputType, K, W>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> process(Fn process_function) const {
    using OUT = typename Fn::OutputType;
    auto make_function = [process_function] {
      return internal::ProcessWindowFunctionAdapter<T, OUT, K, W>(std::make_shared<Fn>(process_function));
    };
    if (auto sliced = slicedWindowFunction("Window(Process)", allElementsOfTheWindow(), make_function)) {
      return *sliced;
    }
    return allElements("Window(Process)", make_function);
  }

  /// Hand every element of a window to a WindowFunction<T, OUT, K, W>.
  template <class Fn>
    requires std::is_base_of_v<WindowFunction<T, typename Fn::OutputType, K, W>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> apply(Fn window_function) const {
    using OUT = typename Fn::OutputType;
    auto make_function = [window_function] {
      return internal::WindowFunctionAdapter<T, OUT, K, W>(std::make_shared<Fn>(window_function));
    };
    if (auto sliced = slicedWindowFunction("Window(Apply)", allElementsOfTheWindow(), make_function)) {
      return *sliced;
    }
    return allElements("Window(Apply)", make_function);
  }
  /// apply() with `f(const K&, const W&, std::span<const T>, Collector<OUT>&)`.
  template <class OUT, class F>
  SingleOutputStreamOperator<OUT> apply(F f) const {
    return apply(internal::LambdaWindowFunction<T, OUT, K, W, F>(std::move(f)));
  }

  // sum, min, max, minBy, maxBy per window come from FieldAggregations
  // (api/field_aggregations.h), as KeyedStream's rolling ones do.

 private:
  template <class, class>
  friend class AllWindowedStream;

  friend class internal::FieldAggregations<WindowedStream, T>;

  // A sum does not depend on the order of the elements, so sliding windows slice too.
  template <class Aggregator>
  SingleOutputStreamOperator<T> aggregateFields(Aggregator aggregator, internal::FieldAggregationKind kind) const {
    const bool sum = kind == internal::FieldAggregationKind::SUM;
    return reduceOnly(sum ? "Window(Sum)" : "Window(Reduce)", std::move(aggregator), /*order_insensitive=*/sum);
  }

  // A reduce whose result is the window's output.
  template <class F>
  SingleOutputStreamOperator<T> reduceOnly(std::string name, F f, bool order_insensitive) const {
    if (spec_.canSlice(order_insensitive)) {
      auto call = internal::asCallable(std::move(f));
      return addSlicingOperator(std::move(name), internal::SlicingReduce<T, decltype(call)>{std::move(call)});
    }
    return reduceThen(std::move(name), std::move(f), [] { return internal::PassThroughWindowFunction<T>(); });
  }

  template <class Aggregation>
  SingleOutputStreamOperator<typename Aggregation::Result> addSlicingOperator(std::string name,
                                                                             Aggregation aggregation) const {
    return addSlicingOperatorMadeBy(std::move(name), [aggregation] { return aggregation; });
  }

  // `make_aggregation()` is called once per subtask: a window function is
  // copied for each, as on the general path.
  template <class MakeAggregation>
  auto addSlicingOperatorMadeBy(std::string name, MakeAggregation make_aggregation) const {
    using Aggregation = std::invoke_result_t<MakeAggregation&>;
    using Operator = internal::SlicingWindowOperator<K, T, Aggregation>;
    auto spec = spec_;
    auto key_selector = key_selector_;
    return input_.template addOneInput<typename Aggregation::Result>(
        std::move(name), [spec, key_selector, make_aggregation]() {
          return std::make_unique<Operator>(key_selector, *spec.slice_grid, make_aggregation(), spec.late_data_tag,
                                            spec.assigner_name);
        });
  }

  static auto allElementsOfTheWindow() {
    return [] { return internal::SlicingElements<T>{}; };
  }

  // A window function on the slicing operator, handed what make_pre()'s
  // result keeps of each key's window, when that is exact: tumbling windows
  // (the only ones canSlice(false) admits; built-in grids are always of
  // TimeWindow) with the default trigger. Nothing otherwise. Both makers are
  // called once per subtask: each gets its own copy of the user's functions,
  // as on the general path.
  template <class MakePre, class MakeFunction>
  auto slicedWindowFunction(std::string name, MakePre make_pre, MakeFunction make_function) const
      -> std::optional<SingleOutputStreamOperator<typename std::invoke_result_t<MakeFunction&>::OutputType>> {
    using Pre = std::invoke_result_t<MakePre&>;
    using Function = std::invoke_result_t<MakeFunction&>;
    if constexpr (std::is_same_v<W, TimeWindow>) {
      if (spec_.canSlice(/*order_insensitive=*/false)) {
        return addSlicingOperatorMadeBy(std::move(name), [make_pre, make_function] {
          return internal::SlicingWindowFunction<T, Pre, Function>{make_pre(), make_function()};
        });
      }
    }
    return std::nullopt;
  }

  // Reduce: incremental unless an evictor needs every element.
  template <class F, class MakeFunction>
  auto reduceThen(std::string name, F f, MakeFunction make_function) const {
    std::function<T(const T&, const T&)> reduce = internal::asCallable(std::move(f));
    if (spec_.evictor) {
      return evicting(std::move(name), internal::ReduceFold<T>{reduce}, make_function);
    }
    using Contents = internal::ReducingContents<K, W, T>;
    return addWindowOperator<Contents>(
        std::move(name),
        [reduce](internal::HeapKeyedStateBackend<K>& backend, const EvictorContext&) {
          return Contents(backend, reduce);
        },
        make_function);
  }

  template <class Agg, class MakeFunction>
  auto aggregateThen(std::string name, Agg aggregate_function, MakeFunction make_function) const {
    using Types = AggregateTypes<Agg>;
    using ACC = typename Types::Accumulator;
    using R = typename Types::Result;
    if (spec_.evictor) {
      return evicting(std::move(name),
                      internal::AggregateFold<T, ACC, R>{std::make_shared<Agg>(aggregate_function)}, make_function);
    }
    using Contents = internal::AggregatingContents<K, W, T, ACC, R>;
    return addWindowOperator<Contents>(
        std::move(name),
        [aggregate_function](internal::HeapKeyedStateBackend<K>& backend, const EvictorContext&) {
          return Contents(backend, std::make_shared<Agg>(aggregate_function));
        },
        make_function);
  }

  template <class MakeFunction>
  auto allElements(std::string name, MakeFunction make_function) const {
    if (spec_.evictor) return evicting(std::move(name), internal::NoFold<T>{}, make_function);
    using Contents = internal::ListContents<K, W, T>;
    return addWindowOperator<Contents>(
        std::move(name),
        [](internal::HeapKeyedStateBackend<K>& backend, const EvictorContext&) { return Contents(backend); },
        make_function);
  }

  template <class Fold, class MakeFunction>
  auto evicting(std::string name, Fold fold, MakeFunction make_function) const {
    using Contents = internal::EvictingContents<K, W, T, Fold>;
    auto make_evictor = spec_.evictor;
    return addWindowOperator<Contents>(
        "Evicting" + name,
        [make_evictor, fold](internal::HeapKeyedStateBackend<K>& backend, const EvictorContext& context) {
          return Contents(backend, make_evictor(), fold, context);
        },
        make_function);
  }

  template <class Contents, class ContentsFactory, class MakeFunction>
  auto addWindowOperator(std::string name, ContentsFactory contents_factory, MakeFunction make_function) const {
    using Function = std::invoke_result_t<MakeFunction&>;
    using OUT = typename Function::OutputType;
    using Operator = internal::WindowOperator<K, T, W, Contents, Function>;
    auto spec = spec_;
    auto key_selector = key_selector_;
    return input_.template addOneInput<OUT>(std::move(name), [spec, key_selector, contents_factory, make_function]() {
      return std::make_unique<Operator>(spec.settings(key_selector), contents_factory, make_function());
    });
  }

  DataStream<T> input_;
  KeySelectorFunction key_selector_;
  internal::WindowSpec<K, T, W> spec_;
};

// ---- KeyedStream's window entry points ----

template <class K, class T>
template <class A>
WindowedStream<K, T, typename A::WindowType> KeyedStream<K, T>::window(A assigner) const {
  using W = typename A::WindowType;
  WindowedStream<K, T, W> windowed(*this, getKeySelector(), [assigner]() { return internal::makeAssigner<T>(assigner); });
  if constexpr (std::is_same_v<A, TumblingEventTimeWindows>) {
    windowed.setSliceGrid(internal::SliceGrid{assigner.getSize(), assigner.getSize(), assigner.getOffset()},
                          assigner.toString());
  } else if constexpr (std::is_same_v<A, SlidingEventTimeWindows>) {
    windowed.setSliceGrid(internal::SliceGrid{assigner.getSize(), assigner.getSlide(), assigner.getOffset()},
                          assigner.toString());
  }
  return windowed;
}

template <class K, class T>
WindowedStream<K, T, GlobalWindow> KeyedStream<K, T>::countWindow(std::int64_t size) const {
  WindowedStream<K, T, GlobalWindow> windowed = window(GlobalWindows::create());
  windowed.trigger(PurgingTrigger::of(CountTrigger::of(size)));
  return windowed;
}

template <class K, class T>
WindowedStream<K, T, GlobalWindow> KeyedStream<K, T>::countWindow(std::int64_t size, std::int64_t slide) const {
  WindowedStream<K, T, GlobalWindow> windowed = window(GlobalWindows::create());
  windowed.evictor(CountEvictor::of(size)).trigger(CountTrigger::of(slide));
  return windowed;
}

}  // namespace tidemark

#endif  // TIDEMARK_API_WINDOWED_STREAM_H
