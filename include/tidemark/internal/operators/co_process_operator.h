// The non-keyed two-input operators behind ConnectedStreams: map, flatMap and
// process over two inputs.
//
// Contract (on top of TwoInputOperator's): each operator owns one user
// function object and calls the method of the input a record arrived on;
// outputs carry that record's timestamp. Event time is the combined watermark
// of the two inputs; CoProcessOperator records it before forwarding it, so
// currentWatermark() inside a call is the last combined watermark that reached
// the operator before the element. Timers are refused, as on a non-keyed
// ProcessOperator.
#pragma once

#include <memory>
#include <utility>

#include "tidemark/functions/co_process_function.h"
#include "tidemark/internal/operators/process_context_impl.h"
#include "tidemark/internal/operators/process_operator.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/operators/timestamped_collector.h"

namespace tidemark::internal {

/// Two plain callables seen as one CoMapFunction-shaped object.
template <class F1, class F2>
struct CoMapCallables {
  F1 f1;
  F2 f2;
  template <class X>
  decltype(auto) map1(const X& value) {
    return f1(value);
  }
  template <class X>
  decltype(auto) map2(const X& value) {
    return f2(value);
  }
};

/// Two plain callables seen as one CoFlatMapFunction-shaped object.
template <class F1, class F2>
struct CoFlatMapCallables {
  F1 f1;
  F2 f2;
  template <class X, class C>
  void flatMap1(const X& value, C& out) {
    f1(value, out);
  }
  template <class X, class C>
  void flatMap2(const X& value, C& out) {
    f2(value, out);
  }
};

/// `Fn` has `map1(const IN1&) -> OUT` and `map2(const IN2&) -> OUT`.
template <class IN1, class IN2, class OUT, class Fn>
class CoMapOperator final : public TwoInputOperator<IN1, IN2, OUT> {
 public:
  explicit CoMapOperator(Fn function) : function_(std::move(function)) {}

  void processElement1(StreamRecord<IN1>& record) override {
    StreamRecord<OUT> out{function_.map1(std::as_const(record.value)), record.timestamp, record.has_timestamp};
    this->output().collect(out);
  }
  void processElement2(StreamRecord<IN2>& record) override {
    StreamRecord<OUT> out{function_.map2(std::as_const(record.value)), record.timestamp, record.has_timestamp};
    this->output().collect(out);
  }

 private:
  Fn function_;
};

/// `Fn` has `flatMap1(const IN1&, Collector<OUT>&)` and `flatMap2(const IN2&, Collector<OUT>&)`.
template <class IN1, class IN2, class OUT, class Fn>
class CoFlatMapOperator final : public TwoInputOperator<IN1, IN2, OUT> {
 public:
  explicit CoFlatMapOperator(Fn function) : function_(std::move(function)) {}

  void open() override { collector_.setOutput(&this->output()); }

  void processElement1(StreamRecord<IN1>& record) override {
    collector_.setTimestamp(record.optionalTimestamp());
    function_.flatMap1(std::as_const(record.value), static_cast<Collector<OUT>&>(collector_));
  }
  void processElement2(StreamRecord<IN2>& record) override {
    collector_.setTimestamp(record.optionalTimestamp());
    function_.flatMap2(std::as_const(record.value), static_cast<Collector<OUT>&>(collector_));
  }

 private:
  Fn function_;
  TimestampedCollector<OUT> collector_;
};

template <class IN1, class IN2, class OUT>
class CoProcessOperator final : public TwoInputOperator<IN1, IN2, OUT> {
 public:
  using Function = CoProcessFunction<IN1, IN2, OUT>;

  explicit CoProcessOperator(std::unique_ptr<Function> function) : function_(std::move(function)) {}

  void open() override {
    runtime_context_ = this->context().runtimeContext();
    function_->setRuntimeContext(&runtime_context_);
    collector_.setOutput(&this->output());
    this->initializeFunctionState(*function_);
    function_->open();
  }
  void close() override { function_->close(); }

  void processElement1(StreamRecord<IN1>& record) override {
    prepare(record.optionalTimestamp());
    function_->processElement1(record.value, context_, collector_);
  }
  void processElement2(StreamRecord<IN2>& record) override {
    prepare(record.optionalTimestamp());
    function_->processElement2(record.value, context_, collector_);
  }

  void processWatermark(Timestamp watermark) override {
    timers_.setWatermark(watermark);
    this->emitWatermarkToAll(watermark);
  }

 private:
  void prepare(std::optional<Timestamp> timestamp) {
    context_.setTimestamp(timestamp);
    collector_.setTimestamp(timestamp);
  }

  std::unique_ptr<Function> function_;
  RuntimeContext runtime_context_;
  UnkeyedTimerService timers_{*this};
  ProcessContextImpl context_{*this, timers_};
  TimestampedCollector<OUT> collector_;
};

}  // namespace tidemark::internal
