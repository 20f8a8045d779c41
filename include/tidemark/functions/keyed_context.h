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
  /// `current_key` is the runtime's slot for the current key; it is read at
  /// each call, so the context always shows the key being processed.
  KeyedProcessContext(internal::OperatorBase& op, TimerService& timers, const K* const& current_key)
      : ProcessContext(op, timers), current_key_(current_key) {}

  const K& getCurrentKey() const { return *current_key_; }

 private:
  const K* const& current_key_;
};

template <class K>
class KeyedOnTimerContext : public KeyedProcessContext<K> {
 public:
  using KeyedProcessContext<K>::KeyedProcessContext;

  /// Whether the firing timer is an event-time or a processing-time timer.
  TimeDomain timeDomain() const { return time_domain_; }
  /// Runtime use.
  void setTimeDomain(TimeDomain domain) { time_domain_ = domain; }

 private:
  TimeDomain time_domain_ = TimeDomain::EVENT_TIME;
};

}  // namespace tidemark
