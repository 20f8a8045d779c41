// map, filter and flatMap: one-input operators that call a user callable per
// record and keep the record's timestamp.
#pragma once

#include <utility>

#include "tidemark/functions/simple_functions.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/operators/timestamped_collector.h"

namespace tidemark::internal {

template <class IN, class OUT, class F>
class MapOperator final : public OneInputOperator<IN, OUT> {
 public:
  explicit MapOperator(F function) : function_(std::move(function)) {}
  void open() override { this->initializeFunctionState(userFunction(function_)); }
  void processElement(StreamRecord<IN>& record) override {
    StreamRecord<OUT> out{function_(std::as_const(record.value)), record.timestamp, record.has_timestamp};
    this->output().collect(out);
  }

 private:
  F function_;
};

template <class T, class F>
class FilterOperator final : public OneInputOperator<T, T> {
 public:
  explicit FilterOperator(F predicate) : predicate_(std::move(predicate)) {}
  void open() override { this->initializeFunctionState(userFunction(predicate_)); }
  void processElement(StreamRecord<T>& record) override {
    if (predicate_(std::as_const(record.value))) this->output().collect(record);
  }

 private:
  F predicate_;
};

template <class IN, class OUT, class F>
class FlatMapOperator final : public OneInputOperator<IN, OUT> {
 public:
  explicit FlatMapOperator(F function) : function_(std::move(function)) {}
  void open() override {
    this->initializeFunctionState(userFunction(function_));
    collector_.setOutput(&this->output());
  }
  void processElement(StreamRecord<IN>& record) override {
    collector_.setTimestamp(record.optionalTimestamp());
    function_(std::as_const(record.value), collector_);
  }

 private:
  F function_;
  TimestampedCollector<OUT> collector_;
};

}  // namespace tidemark::internal
