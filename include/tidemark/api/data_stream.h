// DataStream<T>: a stream of T, and the transformations that build a job.
//
// Calls only build the logical graph; nothing runs until
// StreamExecutionEnvironment::execute(). Method names follow Flink's
// DataStream API. Functions are taken by value and copied once per parallel
// subtask (Flink serializes them; here they must be copyable). Wherever Flink
// takes a single-method interface, a lambda works too.
//
// Example:
//   auto lines = env.fromElements<std::string>({"a,1", "b,2"});
//   lines.map([](const std::string& s) { return s.size(); })
//        .filter([](std::size_t n) { return n > 2; })
//        .print();
//   env.execute("lengths");
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tidemark/core/output_tag.h"
#include "tidemark/internal/runtime/stream_graph.h"
#include "tidemark/eventtime/watermark_strategy.h"
#include "tidemark/connectors/collect_sink.h"
#include "tidemark/connectors/print_sink.h"
#include "tidemark/functions/process_function.h"
#include "tidemark/functions/simple_functions.h"
#include "tidemark/functions/sink_function.h"
#include "tidemark/internal/operators/process_operator.h"
#include "tidemark/internal/operators/simple_operators.h"
#include "tidemark/internal/operators/sink_operator.h"
#include "tidemark/internal/operators/timestamps_and_watermarks_operator.h"

namespace tidemark {

template <class K, class T>
class KeyedStream;
template <class T>
class SingleOutputStreamOperator;
template <class T>
class DataStreamSink;
template <class A, class B>
class ConnectedStreams;
template <class T, class W>
class AllWindowedStream;
struct GlobalWindow;
template <class A, class B>
class JoinedStreams;
template <class A, class B>
class CoGroupedStreams;

namespace internal {
/// A process-style lambda wrapped as a ProcessFunction.
template <class IN, class OUT, class F>
class LambdaProcessFunction final : public ProcessFunction<IN, OUT> {
 public:
  explicit LambdaProcessFunction(F f) : f_(std::move(f)) {}
  void processElement(const IN& value, typename ProcessFunction<IN, OUT>::Context& ctx, Collector<OUT>& out) override {
    f_(value, ctx, out);
  }

 private:
  F f_;
};
}  // namespace internal

template <class T>
class DataStream {
 public:
  using ValueType = T;

  DataStream(std::shared_ptr<internal::StreamGraph> graph, std::vector<internal::StreamEdge> upstreams)
      : graph_(std::move(graph)), upstreams_(std::move(upstreams)) {}

  /// One output per input: `f(const T&) -> OUT` or a MapFunction.
  template <class F>
  auto map(F f) const {
    auto call = internal::asCallable(std::move(f));
    using C = decltype(call);
    using OUT = std::decay_t<std::invoke_result_t<C&, const T&>>;
    return addOneInput<OUT>("Map", [call]() {
      return std::make_unique<internal::MapOperator<T, OUT, C>>(call);
    });
  }

  /// Keep the elements for which `f(const T&)` is true.
  template <class F>
  SingleOutputStreamOperator<T> filter(F f) const {
    auto call = internal::asCallable(std::move(f));
    using C = decltype(call);
    return addOneInput<T>("Filter", [call]() { return std::make_unique<internal::FilterOperator<T, C>>(call); });
  }

  /// Zero or more outputs per input: `f(const T&, Collector<OUT>&)`, or a FlatMapFunction.
  template <class OUT, class F>
  SingleOutputStreamOperator<OUT> flatMap(F f) const {
    auto call = internal::asCallable(std::move(f));
    using C = decltype(call);
    return addOneInput<OUT>("Flat Map", [call]() {
      return std::make_unique<internal::FlatMapOperator<T, OUT, C>>(call);
    });
  }
  template <class F>
    requires requires { typename F::OutputType; }
  auto flatMap(F f) const {
    return flatMap<typename F::OutputType>(std::move(f));
  }

  /// Run a ProcessFunction<T, OUT> subclass.
  template <class Fn>
    requires std::is_base_of_v<ProcessFunction<T, typename Fn::OutputType>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> process(Fn fn) const {
    using OUT = typename Fn::OutputType;
    return addOneInput<OUT>("Process", [fn]() {
      return std::make_unique<internal::ProcessOperator<T, OUT>>(std::make_unique<Fn>(fn));
    });
  }
  /// Run `f(const T&, ProcessFunction<T, OUT>::Context&, Collector<OUT>&)`.
  template <class OUT, class F>
  SingleOutputStreamOperator<OUT> process(F f) const {
    return process(internal::LambdaProcessFunction<T, OUT, F>(std::move(f)));
  }

  /// Partition by key: `selector(const T&) -> K` (or a KeySelector).
  template <class F>
  auto keyBy(F selector) const;

  /// Cut the whole stream (not per key) into windows; the window operator
  /// runs with parallelism 1. `assigner` as for KeyedStream::window().
  template <class A>
  AllWindowedStream<T, typename A::WindowType> windowAll(A assigner) const;
  /// Windows of `size` elements over the whole stream.
  AllWindowedStream<T, GlobalWindow> countWindowAll(std::int64_t size) const;
  /// The last `size` elements of the stream, emitted every `slide` elements.
  AllWindowedStream<T, GlobalWindow> countWindowAll(std::int64_t size, std::int64_t slide) const;

  /// Merge streams of the same type (Flink's union; `union` is a C++ keyword).
  template <class... Others>
  DataStream<T> union_(const Others&... others) const {
    std::vector<internal::StreamEdge> all = upstreams_;
    (all.insert(all.end(), others.upstreams().begin(), others.upstreams().end()), ...);
    return DataStream<T>(graph_, std::move(all));
  }

  /// Connect to a stream of another type for a two-input operator.
  template <class U>
  ConnectedStreams<T, U> connect(const DataStream<U>& other) const;

  /// Join with another stream per key and window (see api/joined_streams.h):
  /// join(other).where(k1).equalTo(k2).window(assigner).apply(f).
  template <class U>
  JoinedStreams<T, U> join(const DataStream<U>& other) const;
  /// Co-group with another stream per key and window (see api/co_grouped_streams.h):
  /// coGroup(other).where(k1).equalTo(k2).window(assigner).apply(f).
  template <class U>
  CoGroupedStreams<T, U> coGroup(const DataStream<U>& other) const;

  SingleOutputStreamOperator<T> assignTimestampsAndWatermarks(WatermarkStrategy<T> strategy) const {
    return addOneInput<T>("Timestamps/Watermarks", [strategy]() {
      return std::make_unique<internal::TimestampsAndWatermarksOperator<T>>(strategy);
    });
  }

  /// Print each element as a line to stdout ("prefix> ", and "k> " for parallel sinks).
  DataStreamSink<T> print(std::string prefix = "") const;
  DataStreamSink<T> printToErr(std::string prefix = "") const;

  /// Send every element to a SinkFunction<T> subclass.
  template <class Sink>
    requires std::is_base_of_v<SinkFunction<T>, Sink>
  DataStreamSink<T> addSink(Sink sink) const;
  /// The same, as Flink's sinkTo() spells it for sinks such as FileSink
  /// (tidemark/connectors/file/file_sink.h).
  template <class Sink>
    requires std::is_base_of_v<SinkFunction<T>, Sink>
  DataStreamSink<T> sinkTo(Sink sink) const {
    return addSink(std::move(sink));
  }

  /// Collect every element into memory (see connectors/collect_sink.h).
  std::shared_ptr<CollectedRecords<T>> collectToMemory() const;

  DataStream<T> rebalance() const { return partitioned(internal::PartitionerKind::REBALANCE); }
  DataStream<T> broadcast() const { return partitioned(internal::PartitionerKind::BROADCAST); }
  DataStream<T> forward() const { return partitioned(internal::PartitionerKind::FORWARD); }
  DataStream<T> global() const { return partitioned(internal::PartitionerKind::GLOBAL); }

  /// Applies an operator written against the operator interface
  /// (OneInputStreamOperator<T, OUT>), for what a function cannot do, such as
  /// acting on every watermark: `make()` returns a
  /// std::unique_ptr<OneInputStreamOperator<T, OUT>>, called once per subtask.
  template <class OUT, class Make>
  SingleOutputStreamOperator<OUT> transform(std::string name, Make make) const {
    return addOneInput<OUT>(std::move(name), std::move(make));
  }

  /// Runtime/API use: the edges that feed whatever consumes this stream.
  const std::vector<internal::StreamEdge>& upstreams() const { return upstreams_; }
  const std::shared_ptr<internal::StreamGraph>& graph() const { return graph_; }

  /// Add a one-input operator fed by this stream (used by every transformation).
  template <class OUT, class Factory>
  SingleOutputStreamOperator<OUT> addOneInput(std::string name, Factory factory) const;

 protected:
  DataStream<T> partitioned(internal::PartitionerKind kind) const {
    std::vector<internal::StreamEdge> edges = upstreams_;
    for (auto& edge : edges) {
      edge.partitioning = kind;
      edge.keyed_writer = nullptr;
    }
    return DataStream<T>(graph_, std::move(edges));
  }

  std::shared_ptr<internal::StreamGraph> graph_;
  std::vector<internal::StreamEdge> upstreams_;
};

/// The stream an operator produced: configure the operator, read side outputs.
template <class T>
class SingleOutputStreamOperator : public DataStream<T> {
 public:
  SingleOutputStreamOperator(std::shared_ptr<internal::StreamGraph> graph, int node_id)
      : DataStream<T>(graph, {mainEdge(node_id)}), node_id_(node_id) {}

  SingleOutputStreamOperator& setParallelism(int parallelism) {
    node().parallelism = parallelism;
    return *this;
  }
  SingleOutputStreamOperator& name(std::string name) {
    node().name = std::move(name);
    return *this;
  }
  SingleOutputStreamOperator& uid(std::string uid) {
    node().uid = std::move(uid);
    return *this;
  }
  /// Run this operator in its own task, not chained to its neighbours.
  SingleOutputStreamOperator& disableChaining() {
    node().chaining_allowed = false;
    return *this;
  }
  int getId() const { return node_id_; }

  /// The stream of values this operator emitted to `tag`.
  template <class X>
  DataStream<X> getSideOutput(const OutputTag<X>& tag) const {
    internal::StreamEdge edge;
    edge.source_node = node_id_;
    edge.side_output_tag = tag.internalId();
    edge.element_type = &internal::typeOpsFor<X>();
    return DataStream<X>(this->graph_, {edge});
  }

 private:
  static internal::StreamEdge mainEdge(int node_id) {
    internal::StreamEdge edge;
    edge.source_node = node_id;
    edge.element_type = &internal::typeOpsFor<T>();
    return edge;
  }
  internal::StreamNode& node() { return this->graph_->node(node_id_); }

  int node_id_;
};

/// A source's stream.
template <class T>
using DataStreamSource = SingleOutputStreamOperator<T>;

/// The end of a stream: configure the sink operator.
template <class T>
class DataStreamSink {
 public:
  DataStreamSink(std::shared_ptr<internal::StreamGraph> graph, int node_id)
      : graph_(std::move(graph)), node_id_(node_id) {}
  DataStreamSink& setParallelism(int parallelism) {
    graph_->node(node_id_).parallelism = parallelism;
    return *this;
  }
  DataStreamSink& name(std::string name) {
    graph_->node(node_id_).name = std::move(name);
    return *this;
  }
  DataStreamSink& uid(std::string uid) {
    graph_->node(node_id_).uid = std::move(uid);
    return *this;
  }
  DataStreamSink& disableChaining() {
    graph_->node(node_id_).chaining_allowed = false;
    return *this;
  }

 private:
  std::shared_ptr<internal::StreamGraph> graph_;
  int node_id_;
};

// ---- definitions that need the classes above ----

template <class T>
template <class OUT, class Factory>
SingleOutputStreamOperator<OUT> DataStream<T>::addOneInput(std::string name, Factory factory) const {
  using Node = internal::OneInputNode<T, OUT>;
  auto node = std::make_unique<Node>(typename Node::Factory(std::move(factory)));
  node->inputs = upstreams_;
  for (auto& edge : node->inputs) edge.target_input = 0;
  const int id = graph_->add(std::move(node), std::move(name)).id;
  return SingleOutputStreamOperator<OUT>(graph_, id);
}

template <class T>
template <class Sink>
  requires std::is_base_of_v<SinkFunction<T>, Sink>
DataStreamSink<T> DataStream<T>::addSink(Sink sink) const {
  auto op = addOneInput<internal::NoOutput>("Sink", [sink]() {
    return std::make_unique<internal::SinkOperator<T>>(std::make_unique<Sink>(sink));
  });
  return DataStreamSink<T>(graph_, op.getId());
}

template <class T>
DataStreamSink<T> DataStream<T>::print(std::string prefix) const {
  return addSink(PrintSinkFunction<T>(std::move(prefix))).name("Print to Std. Out");
}

template <class T>
DataStreamSink<T> DataStream<T>::printToErr(std::string prefix) const {
  return addSink(PrintSinkFunction<T>(std::move(prefix), true)).name("Print to Std. Err");
}

template <class T>
std::shared_ptr<CollectedRecords<T>> DataStream<T>::collectToMemory() const {
  auto records = std::make_shared<CollectedRecords<T>>();
  addSink(CollectSinkFunction<T>(records)).name("Collect");
  return records;
}

}  // namespace tidemark

#include "tidemark/api/keyed_stream.h"
#include "tidemark/api/connected_streams.h"
#include "tidemark/api/windowed_stream.h"
#include "tidemark/api/all_windowed_stream.h"
#include "tidemark/api/interval_join.h"
#include "tidemark/api/co_grouped_streams.h"
#include "tidemark/api/joined_streams.h"
