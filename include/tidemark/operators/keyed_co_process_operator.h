// Runs a KeyedCoProcessFunction: two inputs keyed the same way, one keyed
// state backend and one timer service shared by both.
//
// Contract: each input has its own key selector; before calling the user
// function for a record of input i the operator sets the current key from
// selector i, so state and timers registered while handling either input
// belong to the same key. Event-time timers fire in processWatermark, which
// receives the combined (minimum) watermark of both inputs, and they fire
// before that watermark is forwarded (SEMANTICS.md 2.3, 2.4).
#pragma once

#include <memory>
#include <utility>

#include "tidemark/core/void_namespace.h"
#include "tidemark/functions/keyed_co_process_function.h"
#include "tidemark/operators/internal_timer_service.h"
#include "tidemark/operators/keyed_process_operator.h"
#include "tidemark/operators/stream_operator.h"
#include "tidemark/operators/timestamped_collector.h"
#include "tidemark/state/heap/heap_keyed_state_backend.h"

namespace tidemark::internal {

template <class K, class IN1, class IN2, class OUT, class KeySelector1, class KeySelector2>
class KeyedCoProcessOperator final : public TwoInputOperator<IN1, IN2, OUT>, public TimerTarget<K, VoidNamespace> {
 public:
  using Function = KeyedCoProcessFunction<K, IN1, IN2, OUT>;

  KeyedCoProcessOperator(std::unique_ptr<Function> function, KeySelector1 key_selector1, KeySelector2 key_selector2)
      : function_(std::move(function)),
        key_selector1_(std::move(key_selector1)),
        key_selector2_(std::move(key_selector2)) {}

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

  void processElement1(StreamRecord<IN1>& record) override {
    prepare(key_selector1_(std::as_const(record.value)), record.optionalTimestamp());
    function_->processElement1(record.value, *element_context_, collector_);
  }

  void processElement2(StreamRecord<IN2>& record) override {
    prepare(key_selector2_(std::as_const(record.value)), record.optionalTimestamp());
    function_->processElement2(record.value, *element_context_, collector_);
  }

  void processWatermark(Timestamp watermark) override {
    timers_->advanceWatermark(watermark);
    this->emitWatermarkToAll(watermark);
  }

  /// Timers and state pending (for tests and metrics).
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

  void prepare(const K& key, std::optional<Timestamp> timestamp) {
    setCurrentKey(key);
    element_context_->setTimestamp(timestamp);
    collector_.setTimestamp(timestamp);
  }

  void setCurrentKey(const K& key) {
    backend_->setCurrentKey(key);
    current_key_ = &backend_->getCurrentKey();
  }

  std::unique_ptr<Function> function_;
  KeySelector1 key_selector1_;
  KeySelector2 key_selector2_;
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
