// The process contexts an operator hands to its user function: the operator
// side of ProcessContext, KeyedProcessContext and KeyedOnTimerContext.
//
// The operator sets the timestamp (and for timers the time domain) before
// each call into the function; the key is read through the operator's slot
// for the current key, so the context always shows the key being processed.
#pragma once

#include <optional>
#include <typeinfo>

#include "tidemark/functions/keyed_context.h"
#include "tidemark/functions/process_context.h"
#include "tidemark/functions/timer_service.h"
#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark::internal {

/// What every process context implements the same way; `Interface` is the
/// context the function sees.
template <class Interface>
class ProcessContextBase : public Interface {
 public:
  ProcessContextBase(OperatorBase& op, TimerService& timers) : operator_(op), timers_(timers) {}

  std::optional<Timestamp> timestamp() const final { return timestamp_; }
  TimerService& timerService() final { return timers_; }

  void setTimestamp(std::optional<Timestamp> timestamp) { timestamp_ = timestamp; }

 protected:
  void emitSideOutput(int tag_id, const std::type_info& type, void* record) final {
    operator_.emitSideOutput(tag_id, type, record);
  }

 private:
  OperatorBase& operator_;
  TimerService& timers_;
  std::optional<Timestamp> timestamp_;
};

class ProcessContextImpl final : public ProcessContextBase<ProcessContext> {
 public:
  using ProcessContextBase::ProcessContextBase;
};

template <class K, class Interface = KeyedProcessContext<K>>
class KeyedProcessContextImpl : public ProcessContextBase<Interface> {
 public:
  /// `current_key` is the operator's slot for the current key.
  KeyedProcessContextImpl(OperatorBase& op, TimerService& timers, const K* const& current_key)
      : ProcessContextBase<Interface>(op, timers), current_key_(current_key) {}

  const K& getCurrentKey() const final { return *current_key_; }

 private:
  const K* const& current_key_;
};

template <class K>
class KeyedOnTimerContextImpl final : public KeyedProcessContextImpl<K, KeyedOnTimerContext<K>> {
 public:
  using KeyedProcessContextImpl<K, KeyedOnTimerContext<K>>::KeyedProcessContextImpl;

  TimeDomain timeDomain() const override { return time_domain_; }
  void setTimeDomain(TimeDomain domain) { time_domain_ = domain; }

 private:
  TimeDomain time_domain_ = TimeDomain::EVENT_TIME;
};

}  // namespace tidemark::internal
