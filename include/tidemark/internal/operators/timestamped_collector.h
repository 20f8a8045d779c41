// The Collector handed to user functions: stamps each emitted value with the
// timestamp the runtime chose (the input element's, or a timer's) and passes
// it to the operator's main output.
#pragma once

#include <optional>
#include <utility>

#include "tidemark/functions/collector.h"
#include "tidemark/internal/operators/output.h"

namespace tidemark::internal {

template <class T>
class TimestampedCollector final : public Collector<T> {
 public:
  TimestampedCollector() = default;
  explicit TimestampedCollector(Output<T>* output) : output_(output) {}

  void setOutput(Output<T>* output) { output_ = output; }
  void setTimestamp(Timestamp timestamp) {
    timestamp_ = timestamp;
    has_timestamp_ = true;
  }
  void setTimestamp(std::optional<Timestamp> timestamp) {
    timestamp_ = timestamp.value_or(kMinWatermark);
    has_timestamp_ = timestamp.has_value();
  }
  void eraseTimestamp() { has_timestamp_ = false; }

  void collect(T value) override {
    StreamRecord<T> record{std::move(value), timestamp_, has_timestamp_};
    output_->collect(record);
  }

 private:
  Output<T>* output_ = nullptr;
  Timestamp timestamp_ = kMinWatermark;
  bool has_timestamp_ = false;
};

}  // namespace tidemark::internal
