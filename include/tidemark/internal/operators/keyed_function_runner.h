// What every operator that runs a keyed user function needs, in one place:
// the keyed state backend, the timer service, the contexts and collector
// handed to the function, and the dispatch of firing timers to onTimer.
//
// An operator creates one in open() and forwards to it: prepareElement()
// before each processElement call, advanceWatermark() for each watermark
// (timers fire before the operator forwards the watermark).
#pragma once

#include <memory>
#include <optional>
#include <utility>

#include "tidemark/core/void_namespace.h"
#include "tidemark/functions/keyed_context.h"
#include "tidemark/functions/runtime_context.h"
#include "tidemark/internal/operators/internal_timer_service.h"
#include "tidemark/internal/operators/operator_snapshot.h"
#include "tidemark/internal/operators/process_context_impl.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/operators/timer_snapshot.h"
#include "tidemark/internal/operators/timestamped_collector.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"

namespace tidemark::internal {

/// The user-facing TimerService of a keyed operator: timers of the current key.
template <class K>
class KeyedTimerService final : public TimerService {
 public:
  KeyedTimerService(InternalTimerService<K, VoidNamespace>& timers, const K* const& current_key)
      : timers_(timers), current_key_(current_key) {}
  Timestamp currentProcessingTime() const override { return timers_.currentProcessingTime(); }
  Timestamp currentWatermark() const override { return timers_.currentWatermark(); }
  void registerEventTimeTimer(Timestamp t) override { timers_.registerEventTimeTimer(*current_key_, {}, t); }
  void registerProcessingTimeTimer(Timestamp t) override {
    timers_.registerProcessingTimeTimer(*current_key_, {}, t);
  }
  void deleteEventTimeTimer(Timestamp t) override { timers_.deleteEventTimeTimer(*current_key_, {}, t); }
  void deleteProcessingTimeTimer(Timestamp t) override { timers_.deleteProcessingTimeTimer(*current_key_, {}, t); }

 private:
  InternalTimerService<K, VoidNamespace>& timers_;
  const K* const& current_key_;
};

/// `Function` has open(), setRuntimeContext(KeyedRuntimeContext<K>*) and
/// onTimer(Timestamp, KeyedOnTimerContext<K>&, Collector<OUT>&).
template <class K, class OUT, class Function>
class KeyedFunctionRunner final : public TimerTarget<K, VoidNamespace> {
 public:
  /// Build everything, restore what the operator was initialized with, and
  /// open the function. Call from the operator's open().
  KeyedFunctionRunner(OperatorBase& op, Output<OUT>& output, Function& function)
      : function_(function),
        backend_(op.context().key_group_range, op.context().max_parallelism),
        timers_(op.processingTimeService(), *this),
        timer_service_(timers_, current_key_),
        element_context_(op, timer_service_, current_key_),
        timer_context_(op, timer_service_, current_key_),
        runtime_context_(op.context().runtimeContext(), backend_),
        collector_(&output) {
    if (op.isRestored()) restore(op.takeRestoredSnapshots(), op.context().key_group_range);
    function_.setRuntimeContext(&runtime_context_);
    op.initializeFunctionState(function_);
    function_.open();
  }

  /// Make `key` current and stamp outputs with the element's timestamp.
  void prepareElement(const K& key, std::optional<Timestamp> timestamp) {
    setCurrentKey(key);
    element_context_.setTimestamp(timestamp);
    collector_.setTimestamp(timestamp);
  }

  KeyedProcessContext<K>& elementContext() { return element_context_; }
  Collector<OUT>& collector() { return collector_; }

  /// Fire every event-time timer up to `watermark`.
  void advanceWatermark(Timestamp watermark) { timers_.advanceWatermark(watermark); }

  std::size_t numEventTimeTimers() const { return timers_.numEventTimeTimers(); }
  std::size_t numProcessingTimeTimers() const { return timers_.numProcessingTimeTimers(); }
  std::size_t numStateEntries() const { return backend_.numStateEntries(); }

  /// Keyed state, timers and event time, for OperatorBase::snapshotState().
  OperatorSnapshot snapshot(std::int64_t checkpoint_id) const {
    return {checkpoint_id, backend_.snapshot(),
            snapshotTimers(timers_, KeyGroupAssigner(backend_.getMaxParallelism())), timers_.currentWatermark()};
  }

  void onEventTime(const TimerEntry<K, VoidNamespace>& timer) override {
    setCurrentKey(timer.key);
    timer_context_.setTimeDomain(TimeDomain::EVENT_TIME);
    timer_context_.setTimestamp(timer.timestamp);
    collector_.setTimestamp(timer.timestamp);
    function_.onTimer(timer.timestamp, timer_context_, collector_);
  }

  void onProcessingTime(const TimerEntry<K, VoidNamespace>& timer) override {
    setCurrentKey(timer.key);
    timer_context_.setTimeDomain(TimeDomain::PROCESSING_TIME);
    timer_context_.setTimestamp(std::nullopt);
    collector_.eraseTimestamp();
    function_.onTimer(timer.timestamp, timer_context_, collector_);
  }

 private:
  // The states fill lazily as the function asks for them in open().
  void restore(const std::vector<OperatorSnapshot>& snapshots, KeyGroupRange range) {
    backend_.restore(keyedStatesOf(snapshots));
    restoreTimers(timers_, timersOf(snapshots), range, KeyGroupAssigner(backend_.getMaxParallelism()));
    timers_.restoreWatermark(restoredWatermark(snapshots));
  }

  void setCurrentKey(const K& key) {
    backend_.setCurrentKey(key);
    current_key_ = &backend_.getCurrentKey();
  }

  Function& function_;
  HeapKeyedStateBackend<K> backend_;
  const K* current_key_ = nullptr;
  InternalTimerService<K, VoidNamespace> timers_;
  KeyedTimerService<K> timer_service_;
  KeyedProcessContextImpl<K> element_context_;
  KeyedOnTimerContextImpl<K> timer_context_;
  KeyedRuntimeContext<K> runtime_context_;
  TimestampedCollector<OUT> collector_;
};

}  // namespace tidemark::internal
