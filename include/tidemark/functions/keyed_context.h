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
  const K& getCurrentKey() const { return **current_key_; }

 protected:
  /// `current_key` is the operator's slot for the current key, read at each
  /// call (per element, so a read rather than a virtual call).
  KeyedProcessContext(TimerService& timers, const K* const& current_key)
      : ProcessContext(timers), current_key_(&current_key) {}

 private:
  const K* const* current_key_;
};

template <class K>
class KeyedOnTimerContext : public KeyedProcessContext<K> {
 public:
  /// Whether the firing timer is an event-time or a processing-time timer.
  TimeDomain timeDomain() const { return time_domain_; }

 protected:
  using KeyedProcessContext<K>::KeyedProcessContext;

  /// The operator sets it before each onTimer call.
  void setTimeDomain(TimeDomain domain) { time_domain_ = domain; }

 private:
  TimeDomain time_domain_ = TimeDomain::EVENT_TIME;
};

}  // namespace tidemark
