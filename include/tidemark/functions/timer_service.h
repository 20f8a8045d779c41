// TimerService: what time it is, and timers, as a process function sees them.
//
// currentWatermark() inside processElement is the last watermark the operator
// received before this element (the element's own effect on event time is not
// visible yet); inside onTimer for an event-time timer it is the watermark that
// fired the timer. Timers are scoped to the current key and deduplicated:
// registering the same time twice fires once. An event-time timer registered
// at or before the current watermark fires at the next watermark advance.
#pragma once

#include "tidemark/core/time.h"

namespace tidemark {

enum class TimeDomain { EVENT_TIME, PROCESSING_TIME };

class TimerService {
 public:
  virtual ~TimerService() = default;
  virtual Timestamp currentProcessingTime() const = 0;
  virtual Timestamp currentWatermark() const = 0;
  virtual void registerEventTimeTimer(Timestamp time) = 0;
  virtual void registerProcessingTimeTimer(Timestamp time) = 0;
  virtual void deleteEventTimeTimer(Timestamp time) = 0;
  virtual void deleteProcessingTimeTimer(Timestamp time) = 0;
};

}  // namespace tidemark
