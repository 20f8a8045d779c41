// Runs a KeyedProcessFunction: keyed state, event- and processing-time timers.
#pragma once

#include <memory>
#include <utility>

#include "tidemark/core/void_namespace.h"
#include "tidemark/functions/keyed_process_function.h"
#include "tidemark/operators/internal_timer_service.h"
#include "tidemark/operators/stream_operator.h"
#include "tidemark/operators/timestamped_collector.h"
#include "tidemark/state/heap/heap_keyed_state_backend.h"

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

template <class K, class IN, class OUT, class KeySelector>
class KeyedProcessOperator final : public OneInputOperator<IN, OUT>, public TimerTarget<K, VoidNamespace> {
 public:
  using Function = KeyedProcessFunction<K, IN, OUT>;

  KeyedProcessOperator(std::unique_ptr<Function> function, KeySelector key_selector)
      : function_(std::move(function)), key_selector_(std::move(key_selector)) {}

  void open() override {
    const auto& c = this->context();
    backend_ = std::make_unique<HeapKeyedStateBackend<K>>(c.key_group_range, c.max_parallelism);
    timers_ = std::make_unique<InternalTimerService<K, VoidNamespace>>(this->processingTimeService(), *this);
    timer_service_ = std::make_unique<KeyedTimerService<K>>(*timers_, current_key_);
    element_context_ = std::make_unique<typename Function::Context>(*this, *timer_service_, current_key_);
    timer_context_ = std::make_unique<typename Function::OnTimerContext>(*this, *timer_service_, current_key_);
    runtime_context_ = std::make_unique<KeyedRuntimeContext<K>>(
        RuntimeContext(c.name, c.subtask_index, c.parallelism, c.max_parallelism), *backend_);
    function_->setRuntimeContext(runtime_context_.get());
    collector_.setOutput(&this->output());
    function_->open();
  }

  void close() override { function_->close(); }

  void processElement(StreamRecord<IN>& record) override {
    setCurrentKey(key_selector_(std::as_const(record.value)));
    element_context_->setTimestamp(record.optionalTimestamp());
    collector_.setTimestamp(record.optionalTimestamp());
    function_->processElement(record.value, *element_context_, collector_);
  }

  void processWatermark(Timestamp watermark) override {
    timers_->advanceWatermark(watermark);
    this->emitWatermarkToAll(watermark);
  }

  /// Timers pending (for the test harness and metrics).
  std::size_t numEventTimeTimers() const { return timers_->numEventTimeTimers(); }
  std::size_t numProcessingTimeTimers() const { return timers_->numProcessingTimeTimers(); }
  std::size_t numStateEntries() const { return backend_->numStateEntries(); }

 private:
  void onEventTime(const TimerEntry<K, VoidNamespace>& timer) override {
    setCurrentKey(timer.key);
    timer_context_->setTimeDomain(TimeDomain::EVENT_TIME);
    timer_context_->setTimestamp(timer.timestamp);
    collector_.setTimestamp(timer.timestamp);
    function_->onTimer(timer.timestamp, *timer_context_, collector_);
  }

  void onProcessingTime(const TimerEntry<K, VoidNamespace>& timer) override {
    setCurrentKey(timer.key);
    timer_context_->setTimeDomain(TimeDomain::PROCESSING_TIME);
    timer_context_->setTimestamp(std::nullopt);
    collector_.eraseTimestamp();
    function_->onTimer(timer.timestamp, *timer_context_, collector_);
  }

  void setCurrentKey(const K& key) {
    backend_->setCurrentKey(key);
    current_key_ = &backend_->getCurrentKey();
  }

  std::unique_ptr<Function> function_;
  KeySelector key_selector_;
  std::unique_ptr<HeapKeyedStateBackend<K>> backend_;
  std::unique_ptr<InternalTimerService<K, VoidNamespace>> timers_;
  const K* current_key_ = nullptr;
  std::unique_ptr<KeyedTimerService<K>> timer_service_;
  std::unique_ptr<typename Function::Context> element_context_;
  std::unique_ptr<typename Function::OnTimerContext> timer_context_;
  std::unique_ptr<KeyedRuntimeContext<K>> runtime_context_;
  TimestampedCollector<OUT> collector_;
};

}  // namespace tidemark::internal
