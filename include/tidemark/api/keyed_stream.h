// KeyedStream<K, T>: a stream partitioned by key, where keyed state and timers
// are available.
//
// keyBy(selector) sends every element to the subtask that owns its key's key
// group (see core/key_group.h); the selector runs again in the receiving
// operator to set the current key. Transformations that are not keyed (map,
// filter, ...) still work on a KeyedStream and keep its partitioning.
//
// Example:
//   events.keyBy([](const Event& e) { return e.user; })
//         .process(CountPerUser{})
//         .print();
// data_stream.h includes this header at its end, after DataStream is complete;
// the guard comes after that include so that including this header first works.
#include "tidemark/api/data_stream.h"

#ifndef TIDEMARK_API_KEYED_STREAM_H
#define TIDEMARK_API_KEYED_STREAM_H

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "tidemark/api/field_aggregations.h"
#include "tidemark/functions/keyed_process_function.h"
#include "tidemark/internal/operators/keyed_aggregation_operator.h"
#include "tidemark/internal/operators/keyed_process_operator.h"
#include "tidemark/internal/operators/reduce_operator.h"

namespace tidemark {

template <class K, class A, class B>
class KeyedConnectedStreams;
template <class K, class A, class B>
class IntervalJoin;
template <class K, class T, class W>
class WindowedStream;
struct GlobalWindow;

namespace internal {
template <class K, class IN, class OUT, class F>
class LambdaKeyedProcessFunction final : public KeyedProcessFunction<K, IN, OUT> {
 public:
  explicit LambdaKeyedProcessFunction(F f) : f_(std::move(f)) {}
  void processElement(const IN& value, typename KeyedProcessFunction<K, IN, OUT>::Context& ctx,
                      Collector<OUT>& out) override {
    f_(value, ctx, out);
  }

 private:
  F f_;
};
}  // namespace internal

template <class K, class T>
class KeyedStream : public DataStream<T>, public internal::FieldAggregations<KeyedStream<K, T>, T> {
 public:
  using KeyType = K;
  using KeySelectorFunction = std::function<K(const T&)>;

  KeyedStream(std::shared_ptr<internal::StreamGraph> graph, std::vector<internal::StreamEdge> upstreams,
              KeySelectorFunction key_selector)
      : DataStream<T>(std::move(graph), std::move(upstreams)), key_selector_(std::move(key_selector)) {}

  const KeySelectorFunction& getKeySelector() const { return key_selector_; }

  /// Run a KeyedProcessFunction<K, T, OUT> subclass.
  template <class Fn>
    requires std::is_base_of_v<KeyedProcessFunction<K, T, typename Fn::OutputType>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> process(Fn fn) const {
    using OUT = typename Fn::OutputType;
    auto selector = key_selector_;
    return this->template addOneInput<OUT>("KeyedProcess", [fn, selector]() {
      return std::make_unique<internal::KeyedProcessOperator<K, T, OUT, KeySelectorFunction>>(
          std::make_unique<Fn>(fn), selector);
    });
  }
  /// Run `f(const T&, KeyedProcessFunction<K, T, OUT>::Context&, Collector<OUT>&)`.
  template <class OUT, class F>
  SingleOutputStreamOperator<OUT> process(F f) const {
    return process(internal::LambdaKeyedProcessFunction<K, T, OUT, F>(std::move(f)));
  }

  /// Rolling reduce per key: `f(const T& accumulated, const T& value) -> T`
  /// (or a ReduceFunction); emits the new accumulated value for every element.
  template <class F>
  SingleOutputStreamOperator<T> reduce(F f) const {
    auto call = internal::asCallable(std::move(f));
    using C = decltype(call);
    auto selector = key_selector_;
    return this->template addOneInput<T>("Keyed Reduce", [call, selector]() {
      return std::make_unique<internal::KeyedReduceOperator<K, T, KeySelectorFunction, C>>(selector, call);
    });
  }

  // Rolling aggregations per key: sum, min, max, minBy, maxBy come from
  // FieldAggregations (api/field_aggregations.h) and emit one element per input.

  /// Connect to another stream keyed by the same key type: both inputs of the
  /// resulting operator see the same keys, state and timers.
  template <class U>
  KeyedConnectedStreams<K, T, U> connect(const KeyedStream<K, U>& other) const {
    return KeyedConnectedStreams<K, T, U>(*this, other);
  }
  using DataStream<T>::connect;

  /// Cut each key's elements into windows: `assigner` is a built-in
  /// (TumblingEventTimeWindows::of(...), EventTimeSessionWindows::withGap(...),
  /// GlobalWindows::create(), ...) or a WindowAssigner<T, W> subclass.
  template <class A>
  WindowedStream<K, T, typename A::WindowType> window(A assigner) const;
  /// Windows of `size` elements per key (GlobalWindows, purged every `size` elements).
  WindowedStream<K, T, GlobalWindow> countWindow(std::int64_t size) const;
  /// The last `size` elements per key, emitted every `slide` elements.
  WindowedStream<K, T, GlobalWindow> countWindow(std::int64_t size, std::int64_t slide) const;

  /// Join with another stream keyed by the same key type: each element of
  /// this stream meets the other stream's elements of the same key whose
  /// timestamps lie within an interval around its own (see api/interval_join.h).
  template <class U>
  IntervalJoin<K, T, U> intervalJoin(const KeyedStream<K, U>& other) const {
    return IntervalJoin<K, T, U>(*this, other);
  }

 private:
  friend class internal::FieldAggregations<KeyedStream, T>;

  template <class Aggregator>
  SingleOutputStreamOperator<T> aggregateFields(Aggregator aggregator, internal::FieldAggregationKind) const {
    auto selector = key_selector_;
    return this->template addOneInput<T>("Keyed Aggregation", [aggregator, selector]() {
      return std::make_unique<internal::KeyedAggregationOperator<K, T, KeySelectorFunction, Aggregator>>(selector,
                                                                                                        aggregator);
    });
  }

  KeySelectorFunction key_selector_;
};

template <class T>
template <class F>
auto DataStream<T>::keyBy(F selector) const {
  auto call = internal::asCallable(std::move(selector));
  using K = std::decay_t<std::invoke_result_t<decltype(call)&, const T&>>;
  static_assert(StablyHashable<K>,
                "keyBy: the key type needs a stable hash: use an integral, string, pair or tuple key, "
                "or give the type a `std::uint64_t stableHash() const` member (see core/key_group.h)");
  std::function<K(const T&)> key_selector = std::move(call);
  std::vector<internal::StreamEdge> edges = upstreams_;
  for (auto& edge : edges) {
    edge.partitioning = internal::PartitionerKind::KEY_GROUP;
    edge.keyed_writer = [key_selector](internal::Task& task, const std::vector<internal::ChannelBase*>& channels,
                                       int max_parallelism, bool flush_every,
                                       internal::BackpressureListener* backpressure) -> internal::OutputBase& {
      return internal::addWriter<T>(
          task, channels, internal::KeyGroupPartitioner<std::function<K(const T&)>>(key_selector, max_parallelism),
          flush_every, backpressure);
    };
  }
  return KeyedStream<K, T>(graph_, std::move(edges), std::move(key_selector));
}

}  // namespace tidemark

#endif  // TIDEMARK_API_KEYED_STREAM_H
