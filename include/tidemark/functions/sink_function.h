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

  /// A sink that returns an interval > 0 here gets the processing time in
  /// every Context, and onProcessingTime(now) on its task thread each time
  /// that interval passed (a file sink closes idle part files there). The
  /// sink's operator asks once, after open(); 0 (the default) costs nothing.
  virtual Duration processingTimeCheckInterval() const { return 0; }
  virtual void onProcessingTime(Timestamp now) { (void)now; }
};

}  // namespace tidemark
