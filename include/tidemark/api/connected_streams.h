// ConnectedStreams<A, B>: two streams, possibly of different types, that feed
// one two-input operator (Flink's DataStream::connect).
//
// Each element keeps the input it came from: map, flatMap and process take one
// method per input (map1/map2, flatMap1/flatMap2, processElement1/2) that
// produce a common output type, and one function instance per parallel subtask
// serves both inputs. The operator's event time is the minimum of the two
// inputs' watermarks, advancing only when that minimum strictly increases; a
// silent input that is not idle holds it at kMinWatermark (docs/semantics.md 2.3).
//
// Keying: keyBy(selector1, selector2) partitions both inputs by a key of the
// same type, and KeyedStream<K, A>::connect(KeyedStream<K, B>) does the same
// for two already keyed streams. Both give KeyedConnectedStreams, whose
// process() runs a KeyedCoProcessFunction: elements of either input with the
// same key meet in the same subtask and share that key's state and timers.
// Unkeyed transformations (map, flatMap, a CoProcessFunction) also work on
// KeyedConnectedStreams and keep the key partitioning.
//
// The order in which records of the two inputs interleave depends on when
// they arrive and is not specified, except that each input's own order is
// kept (and, in simulated time, every run is the same).
//
// Example:
//   auto control = env.fromElements<std::string>({"DROP", "IGNORE"}).keyBy(identity);
//   auto words = env.fromElements<std::string>({"Apache", "DROP", "Flink", "IGNORE"}).keyBy(identity);
//   control.connect(words).flatMap<std::string>(
//       [](const std::string&, tidemark::Collector<std::string>&) {},  // control: nothing to emit
//       [](const std::string& w, tidemark::Collector<std::string>& out) { out.collect(w); });
// data_stream.h includes this header at its end, after DataStream is complete;
// the guard comes after that include so that including this header first works.
#include "tidemark/api/data_stream.h"

#ifndef TIDEMARK_API_CONNECTED_STREAMS_H
#define TIDEMARK_API_CONNECTED_STREAMS_H

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tidemark/api/keyed_stream.h"
#include "tidemark/internal/runtime/stream_graph.h"
#include "tidemark/functions/co_functions.h"
#include "tidemark/functions/co_process_function.h"
#include "tidemark/functions/keyed_co_process_function.h"
#include "tidemark/functions/simple_functions.h"
#include "tidemark/internal/operators/co_process_operator.h"
#include "tidemark/internal/operators/keyed_co_process_operator.h"

namespace tidemark {

template <class A, class B>
class ConnectedStreams {
 public:
  ConnectedStreams(DataStream<A> first, DataStream<B> second)
      : first_(std::move(first)), second_(std::move(second)) {
    if (first_.graph() != second_.graph()) {
      throw std::invalid_argument("connect: both streams must come from the same StreamExecutionEnvironment");
    }
  }

  const DataStream<A>& getFirstInput() const { return first_; }
  const DataStream<B>& getSecondInput() const { return second_; }

  /// One output per input: `f1(const A&) -> OUT` and `f2(const B&) -> OUT`.
  template <class F1, class F2>
  auto map(F1 f1, F2 f2) const {
    using OUT = std::decay_t<std::invoke_result_t<F1&, const A&>>;
    static_assert(std::is_same_v<OUT, std::decay_t<std::invoke_result_t<F2&, const B&>>>,
                  "ConnectedStreams::map: both functions must return the same type");
    return coMap<OUT>(internal::CoMapCallables<F1, F2>{std::move(f1), std::move(f2)});
  }
  /// One output per input: a CoMapFunction<A, B, OUT> subclass.
  template <class Fn>
    requires std::is_base_of_v<CoMapFunction<A, B, typename Fn::OutputType>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> map(Fn fn) const {
    return coMap<typename Fn::OutputType>(std::move(fn));
  }

  /// Zero or more outputs per input: `f1(const A&, Collector<OUT>&)` and
  /// `f2(const B&, Collector<OUT>&)`.
  template <class OUT, class F1, class F2>
  SingleOutputStreamOperator<OUT> flatMap(F1 f1, F2 f2) const {
    using Fn = internal::CoFlatMapCallables<F1, F2>;
    return addTwoInput<OUT>("Co-Flat Map", [fn = Fn{std::move(f1), std::move(f2)}]() {
      return std::make_unique<internal::CoFlatMapOperator<A, B, OUT, Fn>>(fn);
    });
  }
  /// Zero or more outputs per input: a CoFlatMapFunction<A, B, OUT> subclass.
  template <class Fn>
    requires std::is_base_of_v<CoFlatMapFunction<A, B, typename Fn::OutputType>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> flatMap(Fn fn) const {
    using OUT = typename Fn::OutputType;
    return addTwoInput<OUT>("Co-Flat Map", [fn]() {
      return std::make_unique<internal::CoFlatMapOperator<A, B, OUT, Fn>>(fn);
    });
  }

  /// Run a CoProcessFunction<A, B, OUT> subclass (no timers: they need keys).
  template <class Fn>
    requires std::is_base_of_v<CoProcessFunction<A, B, typename Fn::OutputType>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> process(Fn fn) const {
    using OUT = typename Fn::OutputType;
    return addTwoInput<OUT>("Co-Process", [fn]() {
      return std::make_unique<internal::CoProcessOperator<A, B, OUT>>(std::make_unique<Fn>(fn));
    });
  }

  /// Partition both inputs by key: `selector1(const A&) -> K` and
  /// `selector2(const B&) -> K` (or KeySelectors), with the same K.
  template <class S1, class S2>
  auto keyBy(S1 selector1, S2 selector2) const {
    auto keyed1 = first_.keyBy(std::move(selector1));
    auto keyed2 = second_.keyBy(std::move(selector2));
    using K = typename decltype(keyed1)::KeyType;
    static_assert(std::is_same_v<K, typename decltype(keyed2)::KeyType>,
                  "ConnectedStreams::keyBy: both key selectors must return the same key type");
    return KeyedConnectedStreams<K, A, B>(std::move(keyed1), std::move(keyed2));
  }

  /// Add a two-input operator fed by these streams: `factory()` returns a
  /// std::unique_ptr to a TwoInputOperator<A, B, OUT> subclass.
  template <class OUT, class Factory>
  SingleOutputStreamOperator<OUT> addTwoInput(std::string name, Factory factory) const {
    using Node = internal::TwoInputNode<A, B, OUT>;
    auto node = std::make_unique<Node>(typename Node::Factory(std::move(factory)));
    for (internal::StreamEdge edge : first_.upstreams()) {
      edge.target_input = 0;
      node->inputs.push_back(std::move(edge));
    }
    for (internal::StreamEdge edge : second_.upstreams()) {
      edge.target_input = 1;
      node->inputs.push_back(std::move(edge));
    }
    const auto& graph = first_.graph();
    const int id = graph->add(std::move(node), std::move(name)).id;
    return SingleOutputStreamOperator<OUT>(graph, id);
  }

 private:
  template <class OUT, class Fn>
  SingleOutputStreamOperator<OUT> coMap(Fn fn) const {
    return addTwoInput<OUT>("Co-Map", [fn]() { return std::make_unique<internal::CoMapOperator<A, B, OUT, Fn>>(fn); });
  }

  DataStream<A> first_;
  DataStream<B> second_;
};

/// Two connected streams keyed by the same key type K (see the file comment).
template <class K, class A, class B>
class KeyedConnectedStreams : public ConnectedStreams<A, B> {
 public:
  using KeyType = K;

  KeyedConnectedStreams(KeyedStream<K, A> first, KeyedStream<K, B> second)
      : ConnectedStreams<A, B>(first, second),
        key_selector1_(first.getKeySelector()),
        key_selector2_(second.getKeySelector()) {}

  using ConnectedStreams<A, B>::process;

  /// Run a KeyedCoProcessFunction<K, A, B, OUT> subclass.
  template <class Fn>
    requires std::is_base_of_v<KeyedCoProcessFunction<K, A, B, typename Fn::OutputType>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> process(Fn fn) const {
    using OUT = typename Fn::OutputType;
    using Selector1 = typename KeyedStream<K, A>::KeySelectorFunction;
    using Selector2 = typename KeyedStream<K, B>::KeySelectorFunction;
    return this->template addTwoInput<OUT>(
        "KeyedCoProcess", [fn, selector1 = key_selector1_, selector2 = key_selector2_]() {
          return std::make_unique<internal::KeyedCoProcessOperator<K, A, B, OUT, Selector1, Selector2>>(
              std::make_unique<Fn>(fn), selector1, selector2);
        });
  }

 private:
  typename KeyedStream<K, A>::KeySelectorFunction key_selector1_;
  typename KeyedStream<K, B>::KeySelectorFunction key_selector2_;
};

template <class T>
template <class U>
ConnectedStreams<T, U> DataStream<T>::connect(const DataStream<U>& other) const {
  return ConnectedStreams<T, U>(*this, other);
}

}  // namespace tidemark

#endif  // TIDEMARK_API_CONNECTED_STREAMS_H
