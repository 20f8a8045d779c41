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
  virtual std::optional<Timestamp> timestamp() const = 0;

  virtual TimerService& timerService() = 0;

  /// Emit `value` to the side output `tag`, with the current timestamp.
  template <class X>
  void output(const OutputTag<X>& tag, X value) {
    const std::optional<Timestamp> ts = timestamp();
    StreamRecord<X> record{std::move(value), ts.value_or(kMinWatermark), ts.has_value()};
    emitSideOutput(tag.internalId(), typeid(X), &record);
  }

 protected:
  ProcessContext() = default;

  /// Send `record`, a StreamRecord<X> with typeid(X) == `type`, to the side
  /// output with the tag id `tag_id`.
  virtual void emitSideOutput(int tag_id, const std::type_info& type, void* record) = 0;
};

}  // namespace tidemark
