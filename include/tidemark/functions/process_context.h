// The part of a process function's context shared by every kind of process
// function: the current element's timestamp, the timer service, side outputs.
//
// The operator that runs the function implements the context; a function
// only ever sees it through this interface.
#pragma once

#include <optional>
#include <typeinfo>
#include <utility>

#include "tidemark/core/output_tag.h"
#include "tidemark/core/stream_record.h"
#include "tidemark/functions/timer_service.h"

namespace tidemark {

class ProcessContext {
 public:
  virtual ~ProcessContext() = default;
  ProcessContext(const ProcessContext&) = delete;
  ProcessContext& operator=(const ProcessContext&) = delete;

  /// The timestamp of the element being processed (or of the firing event-time
  /// timer); empty when it has none.
  std::optional<Timestamp> timestamp() const { return timestamp_; }

  TimerService& timerService() { return timers_; }

  /// Emit `value` to the side output `tag`, with the current timestamp.
  template <class X>
  void output(const OutputTag<X>& tag, X value) {
    StreamRecord<X> record{std::move(value), timestamp_.value_or(kMinWatermark), timestamp_.has_value()};
    emitSideOutput(tag.internalId(), typeid(X), &record);
  }

 protected:
  explicit ProcessContext(TimerService& timers) : timers_(timers) {}

  /// The operator sets the timestamp before each call into the function.
  /// timestamp() and timerService() are plain reads, not virtual calls,
  /// because a function calls them per element (keyed-timers took 6 % more
  /// CPU with them virtual).
  void setTimestamp(std::optional<Timestamp> timestamp) { timestamp_ = timestamp; }

  /// Send `record`, a StreamRecord<X> with typeid(X) == `type`, to the side
  /// output with the tag id `tag_id`.
  virtual void emitSideOutput(int tag_id, const std::type_info& type, void* record) = 0;

 private:
  TimerService& timers_;
  std::optional<Timestamp> timestamp_;
};

}  // namespace tidemark
