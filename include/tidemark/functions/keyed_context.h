// The contexts handed to keyed process functions (KeyedProcessFunction,
// KeyedCoProcessFunction): the process context plus the current key, and in
// onTimer the time domain of the firing timer.
#pragma once

#include "tidemark/functions/process_context.h"
#include "tidemark/functions/timer_service.h"

namespace tidemark {

template <class K>
class KeyedProcessContext : public ProcessContext {
 public:
  /// The key of the element being processed (or of the firing timer).
  virtual const K& getCurrentKey() const = 0;
};

template <class K>
class KeyedOnTimerContext : public KeyedProcessContext<K> {
 public:
  /// Whether the firing timer is an event-time or a processing-time timer.
  virtual TimeDomain timeDomain() const = 0;
};

}  // namespace tidemark
