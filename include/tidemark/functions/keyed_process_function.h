// KeyedProcessFunction: per-key logic with keyed state and timers.
//
// The runtime sets the current key before every processElement and onTimer
// call; state and timers are scoped to it. onTimer runs when the watermark
// passes an event-time timer (before that watermark goes downstream) or when
// processing time reaches a processing-time timer. Results emitted in onTimer
// carry the timer's timestamp (event time) or none (processing time).
//
// Example (count per key, report 10 s after the last element):
//   class CountWithTimeout : public tidemark::KeyedProcessFunction<std::string, Event, std::string> {
//    public:
//     void open() override { count_ = &getRuntimeContext().getState(tidemark::ValueStateDescriptor<int64_t>("n", 0)); }
//     void processElement(const Event& e, Context& ctx, tidemark::Collector<std::string>& out) override {
//       count_->update(count_->value().value_or(0) + 1);
//       ctx.timerService().registerEventTimeTimer(*ctx.timestamp() + 10000);
//     }
//     void onTimer(tidemark::Timestamp t, OnTimerContext& ctx, tidemark::Collector<std::string>& out) override {
//       out.collect(ctx.getCurrentKey() + ": " + std::to_string(*count_->value()));
//     }
//    private:
//     tidemark::ValueState<int64_t>* count_ = nullptr;
//   };
#pragma once

#include "tidemark/functions/collector.h"
#include "tidemark/functions/keyed_context.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"

namespace tidemark {

template <class K, class IN, class OUT>
class KeyedProcessFunction : public RichFunction<KeyedRuntimeContext<K>> {
 public:
  using KeyType = K;
  using InputType = IN;
  using OutputType = OUT;

  using Context = KeyedProcessContext<K>;
  using OnTimerContext = KeyedOnTimerContext<K>;

  virtual void processElement(const IN& value, Context& ctx, Collector<OUT>& out) = 0;
  virtual void onTimer(Timestamp timestamp, OnTimerContext& ctx, Collector<OUT>& out) {
    (void)timestamp;
    (void)ctx;
    (void)out;
  }
};

}  // namespace tidemark
