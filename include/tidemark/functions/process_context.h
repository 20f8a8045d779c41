// The part of a process function's context shared by every kind of process
// function: the current element's timestamp, the timer service, side outputs.
#pragma once

#include <optional>
#include <utility>

#include "tidemark/core/output_tag.h"
#include "tidemark/core/stream_record.h"
#include "tidemark/functions/timer_service.h"
#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark {

class ProcessContext {
 public:
  ProcessContext(internal::OperatorBase& op, TimerService& timers) : operator_(op), timers_(timers) {}
  virtual ~ProcessContext() = default;

  /// The timestamp of the element being processed (or of the firing event-time
  /// timer); empty when it has none.
  std::optional<Timestamp> timestamp() const { return timestamp_; }

  TimerService& timerService() { return timers_; }

  /// Emit `value` to the side output `tag`, with the current timestamp.
  template <class X>
  void output(const OutputTag<X>& tag, X value) {
    StreamRecord<X> record{std::move(value), timestamp_.value_or(kMinWatermark), timestamp_.has_value()};
    operator_.emitSideOutput(tag, record);
  }

  /// Runtime use: set before each call into the user function.
  void setTimestamp(std::optional<Timestamp> timestamp) { timestamp_ = timestamp; }

 private:
  internal::OperatorBase& operator_;
  TimerService& timers_;
  std::optional<Timestamp> timestamp_;
};

}  // namespace tidemark
