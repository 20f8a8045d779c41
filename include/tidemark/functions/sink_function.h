// SinkFunction: the end of a stream.
//
// invoke() runs once per record on the sink's task thread; each parallel
// subtask has its own copy of the function.
//
// Example:
//   class Count : public tidemark::SinkFunction<Event> {
//    public:
//     void invoke(const Event&, const Context&) override { ++count_; }
//     int64_t count_ = 0;
//   };
#pragma once

#include <optional>

#include "tidemark/core/time.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"

namespace tidemark {

template <class T>
class SinkFunction : public RichFunction<RuntimeContext> {
 public:
  using InputType = T;

  /// What a sink knows about the record it receives.
  struct Context {
    std::optional<Timestamp> timestamp;
    Timestamp current_watermark = kMinWatermark;
    Timestamp current_processing_time = 0;
  };

  virtual void invoke(const T& value, const Context& context) = 0;
  /// Called when the input ended (not when the job failed).
  virtual void finish() {}
};

}  // namespace tidemark
