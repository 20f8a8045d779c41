// KeyedCoProcessFunction: per-key logic over two connected streams keyed the
// same way, with keyed state and timers shared by both inputs.
//
// Both inputs are partitioned by key, so the elements of either input with
// key k reach the same subtask, and the runtime sets the current key before
// every processElement1, processElement2 and onTimer call. State created from
// getRuntimeContext() is one store for both inputs: a value written while
// processing input 1 is read back while processing input 2 for the same key.
// Event time is the minimum of the two inputs' watermarks (docs/semantics.md 2.3);
// event-time timers fire when that combined watermark passes them, before it
// goes downstream. Results emitted in onTimer carry the timer's timestamp
// (event time) or none (processing time), as in KeyedProcessFunction.
//
// Example (Flink's classic: a control stream switches words on and off):
//   class Gate : public tidemark::KeyedCoProcessFunction<std::string, std::string, bool, std::string> {
//    public:
//     void open() override { blocked_ = &getRuntimeContext().getState(tidemark::ValueStateDescriptor<bool>("b")); }
//     void processElement1(const std::string& w, Context&, tidemark::Collector<std::string>& out) override {
//       if (!blocked_->value().value_or(false)) out.collect(w);
//     }
//     void processElement2(const bool& block, Context&, tidemark::Collector<std::string>&) override {
//       blocked_->update(block);
//     }
//    private:
//     tidemark::ValueState<bool>* blocked_ = nullptr;
//   };
//   words.keyBy(identity).connect(control.keyBy(word_of)).process(Gate{});
#pragma once

#include "tidemark/functions/collector.h"
#include "tidemark/functions/keyed_context.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"
#include "tidemark/functions/timer_service.h"

namespace tidemark {

template <class K, class IN1, class IN2, class OUT>
class KeyedCoProcessFunction : public RichFunction<KeyedRuntimeContext<K>> {
 public:
  using KeyType = K;
  using FirstInputType = IN1;
  using SecondInputType = IN2;
  using OutputType = OUT;

  using Context = KeyedProcessContext<K>;
  using OnTimerContext = KeyedOnTimerContext<K>;

  virtual void processElement1(const IN1& value, Context& ctx, Collector<OUT>& out) = 0;
  virtual void processElement2(const IN2& value, Context& ctx, Collector<OUT>& out) = 0;
  virtual void onTimer(Timestamp timestamp, OnTimerContext& ctx, Collector<OUT>& out) {
    (void)timestamp;
    (void)ctx;
    (void)out;
  }
};

}  // namespace tidemark
