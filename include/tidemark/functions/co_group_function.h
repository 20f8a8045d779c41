// CoGroupFunction: what a window coGroup (api/co_grouped_streams.h) runs for
// each key and window (Flink's CoGroupFunction).
//
// When a window of a key fires, coGroup(first, second, out) receives that
// window's elements of the first input and of the second input, each in
// arrival order. Unlike a join, it is also called when one of the two is
// empty (never when both are: such a window does not exist). Results go to
// `out` (zero or more) and carry the window's maxTimestamp().
//
// One instance per parallel subtask serves every key and window; open() runs
// before the first window fires, close() at the end (RichFunction; the
// runtime context is the window operator's). The spans are valid only during
// the call.
//
// Example:
//   class CountBoth : public tidemark::CoGroupFunction<Click, Order, std::string> {
//    public:
//     void coGroup(std::span<const Click> clicks, std::span<const Order> orders,
//                  tidemark::Collector<std::string>& out) override {
//       out.collect(std::to_string(clicks.size()) + " clicks, " + std::to_string(orders.size()) + " orders");
//     }
//   };
#pragma once

#include <span>

#include "tidemark/functions/collector.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"

namespace tidemark {

template <class IN1, class IN2, class OUT>
class CoGroupFunction : public RichFunction<RuntimeContext> {
 public:
  using FirstInputType = IN1;
  using SecondInputType = IN2;
  using OutputType = OUT;

  /// One window of one key: its elements of each input, in arrival order.
  virtual void coGroup(std::span<const IN1> first, std::span<const IN2> second, Collector<OUT>& out) = 0;
};

}  // namespace tidemark
