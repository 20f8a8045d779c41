// Runs a SinkFunction at the end of a stream.
#pragma once

#include <memory>
#include <utility>

#include "tidemark/functions/sink_function.h"
#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark::internal {

/// The "output type" of a sink: nothing flows out of it.
struct NoOutput {};

template <class T>
class SinkOperator final : public OneInputOperator<T, NoOutput> {
 public:
  explicit SinkOperator(std::unique_ptr<SinkFunction<T>> function) : function_(std::move(function)) {}

  void open() override {
    runtime_context_ = this->context().runtimeContext();
    function_->setRuntimeContext(&runtime_context_);
    this->initializeFunctionState(*function_);
    function_->open();
    check_interval_ = function_->processingTimeCheckInterval();
    if (check_interval_ > 0) scheduleCheck(this->processingTimeService().currentProcessingTime() + check_interval_);
  }
  void finish() override { function_->finish(); }
  void close() override { function_->close(); }

  void processElement(StreamRecord<T>& record) override {
    sink_context_.timestamp = record.optionalTimestamp();
    if (check_interval_ > 0) sink_context_.current_processing_time = this->processingTimeService().currentProcessingTime();
    function_->invoke(record.value, sink_context_);
  }
  void processWatermark(Timestamp watermark) override { sink_context_.current_watermark = watermark; }
  void processWatermarkStatus(WatermarkStatus) override {}

 private:
  void scheduleCheck(Timestamp at) {
    this->processingTimeService().registerTimer(at, [this](Timestamp now) {
      function_->onProcessingTime(now);
      scheduleCheck(now + check_interval_);
    });
  }

  std::unique_ptr<SinkFunction<T>> function_;
  Duration check_interval_ = 0;
  RuntimeContext runtime_context_;
  typename SinkFunction<T>::Context sink_context_;
};

}  // namespace tidemark::internal
