// JoinFunction and FlatJoinFunction: what a window join (api/joined_streams.h)
// runs for each pair of elements of the same key in the same window (Flink's
// JoinFunction / FlatJoinFunction).
//
// For every window that fires, the join calls the function once per pair
// (first, second): for each element of the first input, in arrival order,
// with each element of the second input, in arrival order. A window in which
// one input has no element produces no call. Every result carries the
// window's maxTimestamp().
//
// A JoinFunction returns exactly one result per pair; a FlatJoinFunction emits
// zero or more through the collector. One instance per parallel subtask
// serves every key and window; open() runs before the first window fires,
// close() at the end (RichFunction; the runtime context is the window
// operator's).
//
// Example:
//   class Describe : public tidemark::JoinFunction<Click, Order, std::string> {
//    public:
//     std::string join(const Click& c, const Order& o) override { return c.page + " -> " + o.item; }
//   };
//   clicks.join(orders).where(user_of_click).equalTo(buyer_of_order)
//       .window(tidemark::TumblingEventTimeWindows::of(std::chrono::seconds(10)))
//       .apply(Describe{});
#pragma once

#include "tidemark/functions/collector.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"

namespace tidemark {

/// One result per joined pair.
template <class IN1, class IN2, class OUT>
class JoinFunction : public RichFunction<RuntimeContext> {
 public:
  using FirstInputType = IN1;
  using SecondInputType = IN2;
  using OutputType = OUT;

  virtual OUT join(const IN1& first, const IN2& second) = 0;
};

/// Zero or more results per joined pair.
template <class IN1, class IN2, class OUT>
class FlatJoinFunction : public RichFunction<RuntimeContext> {
 public:
  using FirstInputType = IN1;
  using SecondInputType = IN2;
  using OutputType = OUT;

  virtual void join(const IN1& first, const IN2& second, Collector<OUT>& out) = 0;
};

}  // namespace tidemark
