// Outputs inside a task: a direct call into the next chained operator, and a
// fan-out to several consumers.
#pragma once

#include <exception>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/describe.h"
#include "tidemark/internal/core/operator_failure.h"
#include "tidemark/internal/operators/output.h"
#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark::internal {

/// Calls the next operator of the chain directly. This is the one place where
/// an exception from a chained operator is given its operator and element.
template <class T>
class ChainingOutput final : public Output<T> {
 public:
  ChainingOutput(Input<T>& next, OperatorBase& next_operator) : next_(next), next_operator_(next_operator) {}

  void collect(StreamRecord<T>& record) override {
    next_operator_.addRecordsIn(1);
    callNamingFailures(
        [this] { return next_operator_.context().description(); }, [&] { return describeElement(record.value); },
        [&] { next_.processElement(record); });
  }

  void emitWatermark(Timestamp watermark) override {
    callNamingFailures(
        [this] { return next_operator_.context().description(); }, [&] { return fmt::format("watermark {}", watermark); },
        [&] { next_.processWatermark(watermark); });
  }

  void emitWatermarkStatus(WatermarkStatus status) override { next_.processWatermarkStatus(status); }

 private:
  Input<T>& next_;
  OperatorBase& next_operator_;
};

/// Hands every element to several outputs. Records are copied for all but the
/// last consumer, because a consumer may move from the record it receives.
template <class T>
class BroadcastingOutput final : public Output<T> {
 public:
  explicit BroadcastingOutput(std::vector<Output<T>*> outputs) : outputs_(std::move(outputs)) {}

  void collect(StreamRecord<T>& record) override {
    for (std::size_t i = 0; i + 1 < outputs_.size(); ++i) {
      StreamRecord<T> copy = record;
      outputs_[i]->collect(copy);
    }
    outputs_.back()->collect(record);
  }
  void emitWatermark(Timestamp watermark) override {
    for (auto* output : outputs_) output->emitWatermark(watermark);
  }
  void emitWatermarkStatus(WatermarkStatus status) override {
    for (auto* output : outputs_) output->emitWatermarkStatus(status);
  }

 private:
  std::vector<Output<T>*> outputs_;
};

}  // namespace tidemark::internal
