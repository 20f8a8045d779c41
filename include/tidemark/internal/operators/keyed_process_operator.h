// Runs a KeyedProcessFunction: keyed state, event- and processing-time timers.
#pragma once

#include <memory>
#include <utility>

#include "tidemark/functions/keyed_process_function.h"
#include "tidemark/internal/operators/keyed_function_runner.h"
#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark::internal {

template <class K, class IN, class OUT, class KeySelector>
class KeyedProcessOperator final : public OneInputOperator<IN, OUT> {
 public:
  using Function = KeyedProcessFunction<K, IN, OUT>;

  KeyedProcessOperator(std::unique_ptr<Function> function, KeySelector key_selector)
      : function_(std::move(function)), key_selector_(std::move(key_selector)) {}

  void open() override {
    runner_ = std::make_unique<KeyedFunctionRunner<K, OUT, Function>>(*this, this->output(), *function_);
  }
  void close() override { function_->close(); }

  void processElement(StreamRecord<IN>& record) override {
    runner_->prepareElement(key_selector_(std::as_const(record.value)), record.optionalTimestamp());
    function_->processElement(record.value, runner_->elementContext(), runner_->collector());
  }

  void processWatermark(Timestamp watermark) override {
    runner_->advanceWatermark(watermark);
    this->emitWatermarkToAll(watermark);
  }

  OperatorSnapshot snapshotState(std::int64_t checkpoint_id) const override {
    this->requireOpenedForSnapshot(runner_.get());
    return runner_->snapshot(checkpoint_id);
  }

  /// Timers and state pending (for the test harness and metrics).
  std::size_t numEventTimeTimers() const { return runner_->numEventTimeTimers(); }
  std::size_t numProcessingTimeTimers() const { return runner_->numProcessingTimeTimers(); }
  std::size_t numStateEntries() const { return runner_->numStateEntries(); }

 private:
  std::unique_ptr<Function> function_;
  KeySelector key_selector_;
  std::unique_ptr<KeyedFunctionRunner<K, OUT, Function>> runner_;
};

}  // namespace tidemark::internal
