// Runs a ProcessFunction on a non-keyed stream.
#pragma once

#include <memory>
#include <stdexcept>
#include <utility>

#include "tidemark/functions/process_function.h"
#include "tidemark/internal/operators/process_context_impl.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/operators/timestamped_collector.h"

namespace tidemark::internal {

/// The timer service of a non-keyed operator: time only, no timers (Flink
/// refuses timers without a key as well).
class UnkeyedTimerService final : public TimerService {
 public:
  explicit UnkeyedTimerService(const OperatorBase& op) : operator_(op) {}
  Timestamp currentProcessingTime() const override {
    return operator_.processingTimeService().currentProcessingTime();
  }
  Timestamp currentWatermark() const override { return watermark_; }
  void registerEventTimeTimer(Timestamp) override { refuse(); }
  void registerProcessingTimeTimer(Timestamp) override { refuse(); }
  void deleteEventTimeTimer(Timestamp) override { refuse(); }
  void deleteProcessingTimeTimer(Timestamp) override { refuse(); }
  void setWatermark(Timestamp watermark) { watermark_ = watermark; }

 private:
  [[noreturn]] static void refuse() {
    throw std::logic_error("Setting timers is only supported on a keyed stream: use keyBy(...).process(...)");
  }
  const OperatorBase& operator_;
  Timestamp watermark_ = kMinWatermark;
};

template <class IN, class OUT>
class ProcessOperator final : public OneInputOperator<IN, OUT> {
 public:
  explicit ProcessOperator(std::unique_ptr<ProcessFunction<IN, OUT>> function) : function_(std::move(function)) {}

  void open() override {
    runtime_context_ = this->context().runtimeContext();
    function_->setRuntimeContext(&runtime_context_);
    collector_.setOutput(&this->output());
    this->initializeFunctionState(*function_);
    function_->open();
  }
  void close() override { function_->close(); }

  void processElement(StreamRecord<IN>& record) override {
    context_.setTimestamp(record.optionalTimestamp());
    collector_.setTimestamp(record.optionalTimestamp());
    function_->processElement(record.value, context_, collector_);
  }

  void processWatermark(Timestamp watermark) override {
    timers_.setWatermark(watermark);
    this->emitWatermarkToAll(watermark);
  }

 private:
  std::unique_ptr<ProcessFunction<IN, OUT>> function_;
  RuntimeContext runtime_context_;
  UnkeyedTimerService timers_{*this};
  ProcessContextImpl context_{*this, timers_};
  TimestampedCollector<OUT> collector_;
};

}  // namespace tidemark::internal
