// Runs a KeyedCoProcessFunction: two inputs keyed the same way, one keyed
// state backend and one timer service shared by both.
//
// Contract: each input has its own key selector; before calling the user
// function for a record of input i the operator sets the current key from
// selector i, so state and timers registered while handling either input
// belong to the same key. Event-time timers fire in processWatermark, which
// receives the combined (minimum) watermark of both inputs, and they fire
// before that watermark is forwarded (docs/semantics.md 2.3, 2.4).
#pragma once

#include <memory>
#include <utility>

#include "tidemark/functions/keyed_co_process_function.h"
#include "tidemark/internal/operators/keyed_function_runner.h"
#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark::internal {

template <class K, class IN1, class IN2, class OUT, class KeySelector1, class KeySelector2>
class KeyedCoProcessOperator final : public TwoInputOperator<IN1, IN2, OUT> {
 public:
  using Function = KeyedCoProcessFunction<K, IN1, IN2, OUT>;

  KeyedCoProcessOperator(std::unique_ptr<Function> function, KeySelector1 key_selector1, KeySelector2 key_selector2)
      : function_(std::move(function)),
        key_selector1_(std::move(key_selector1)),
        key_selector2_(std::move(key_selector2)) {}

  void open() override {
    runner_ = std::make_unique<KeyedFunctionRunner<K, OUT, Function>>(*this, this->output(), *function_);
  }
  void close() override { function_->close(); }

  void processElement1(StreamRecord<IN1>& record) override {
    runner_->prepareElement(key_selector1_(std::as_const(record.value)), record.optionalTimestamp());
    function_->processElement1(record.value, runner_->elementContext(), runner_->collector());
  }

  void processElement2(StreamRecord<IN2>& record) override {
    runner_->prepareElement(key_selector2_(std::as_const(record.value)), record.optionalTimestamp());
    function_->processElement2(record.value, runner_->elementContext(), runner_->collector());
  }

  void processWatermark(Timestamp watermark) override {
    runner_->advanceWatermark(watermark);
    this->emitWatermarkToAll(watermark);
  }

  /// Timers and state pending (for tests and metrics).
  OperatorSnapshot snapshotState(std::int64_t checkpoint_id) const override {
    this->requireOpenedForSnapshot(runner_.get());
    return runner_->snapshot(checkpoint_id);
  }

  std::size_t numEventTimeTimers() const { return runner_->numEventTimeTimers(); }
  std::size_t numProcessingTimeTimers() const { return runner_->numProcessingTimeTimers(); }
  std::size_t numStateEntries() const { return runner_->numStateEntries(); }

 private:
  std::unique_ptr<Function> function_;
  KeySelector1 key_selector1_;
  KeySelector2 key_selector2_;
  std::unique_ptr<KeyedFunctionRunner<K, OUT, Function>> runner_;
};

}  // namespace tidemark::internal
