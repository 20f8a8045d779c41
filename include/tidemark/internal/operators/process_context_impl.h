// The process contexts an operator hands to its user function: the operator
// side of ProcessContext, KeyedProcessContext and KeyedOnTimerContext.
//
// The operator sets the timestamp (and for timers the time domain) before
// each call into the function; the key is read through the operator's slot
// for the current key, so the context always shows the key being processed.
#pragma once

#include <typeinfo>
#include <utility>

#include "tidemark/functions/keyed_context.h"
#include "tidemark/functions/process_context.h"
#include "tidemark/functions/timer_service.h"
#include "tidemark/internal/operators/side_outputs_through.h"
#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark::internal {

class ProcessContextImpl final : public SideOutputsThrough<ProcessContext> {
 public:
  ProcessContextImpl(OperatorBase& op, TimerService& timers) : SideOutputsThrough(op, timers) {}
  using ProcessContext::setTimestamp;
};

template <class K>
class KeyedProcessContextImpl final : public SideOutputsThrough<KeyedProcessContext<K>> {
 public:
  /// `current_key` is the operator's slot for the current key.
  KeyedProcessContextImpl(OperatorBase& op, TimerService& timers, const K* const& current_key)
      : SideOutputsThrough<KeyedProcessContext<K>>(op, timers, current_key) {}
  using ProcessContext::setTimestamp;
};

template <class K>
class KeyedOnTimerContextImpl final : public SideOutputsThrough<KeyedOnTimerContext<K>> {
 public:
  KeyedOnTimerContextImpl(OperatorBase& op, TimerService& timers, const K* const& current_key)
      : SideOutputsThrough<KeyedOnTimerContext<K>>(op, timers, current_key) {}
  using ProcessContext::setTimestamp;
  using KeyedOnTimerContext<K>::setTimeDomain;
};

}  // namespace tidemark::internal
