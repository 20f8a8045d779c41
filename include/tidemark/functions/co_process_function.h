// CoProcessFunction: the lowest-level function on two connected, non-keyed
// streams.
//
// processElement1 sees the elements of the first input, processElement2 those
// of the second; one instance per parallel subtask serves both, so members
// can carry information from one input to the other. Each call sees the
// element's timestamp and the operator's event time, which is the minimum of
// the two inputs' watermarks: until both inputs have sent one it stays at
// kMinWatermark (docs/semantics.md 2.3). Results carry the element's timestamp.
// Timers need a key: registering one here fails the job, as on a non-keyed
// ProcessFunction; keyBy both inputs and use a KeyedCoProcessFunction.
//
// Example (pass events through while the latest control value allows it):
//   class Gate : public tidemark::CoProcessFunction<Event, bool, Event> {
//    public:
//     void processElement1(const Event& e, Context&, tidemark::Collector<Event>& out) override {
//       if (open_) out.collect(e);
//     }
//     void processElement2(const bool& open, Context&, tidemark::Collector<Event>&) override { open_ = open; }
//    private:
//     bool open_ = true;
//   };
//   events.connect(control).process(Gate{}).print();
#pragma once

#include "tidemark/functions/collector.h"
#include "tidemark/functions/process_context.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"

namespace tidemark {

template <class IN1, class IN2, class OUT>
class CoProcessFunction : public RichFunction<RuntimeContext> {
 public:
  using FirstInputType = IN1;
  using SecondInputType = IN2;
  using OutputType = OUT;
  using Context = ProcessContext;

  virtual void processElement1(const IN1& value, Context& ctx, Collector<OUT>& out) = 0;
  virtual void processElement2(const IN2& value, Context& ctx, Collector<OUT>& out) = 0;
};

}  // namespace tidemark
