// The part every combiner before a shuffle shares: whatever it holds leaves
// just before the next watermark, idle status or end of input, so a record
// that was on time where it was held is still on time downstream.
#pragma once

#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

template <class IN, class OUT>
class FlushBeforeWatermark : public OneInputStreamOperator<IN, OUT> {
  using Base = OneInputStreamOperator<IN, OUT>;

 public:
  void processWatermark(Timestamp watermark) final {
    flush();
    afterFlush(watermark);
    Base::processWatermark(watermark);
  }

  void processWatermarkStatus(WatermarkStatus status) final {
    // An idle input's watermark no longer holds the stage downstream back,
    // so a record held past this point could arrive there late.
    flush();
    Base::processWatermarkStatus(status);
  }

  void finish() final { flush(); }

 protected:
  /// Emit everything held.
  virtual void flush() = 0;
  /// After the flush before `watermark`, before the watermark goes on.
  virtual void afterFlush(Timestamp watermark) { (void)watermark; }
};

}  // namespace tidemark::nexmark
