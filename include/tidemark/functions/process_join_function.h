// ProcessJoinFunction: what an interval join runs for each joined pair
// (Flink's ProcessJoinFunction).
//
// The interval join (api/interval_join.h) calls processElement(left, right,
// ctx, out) once per pair of a left and a right element of the same key whose
// timestamps satisfy left.ts + lower <= right.ts <= left.ts + upper. The
// context tells both timestamps; getTimestamp() is the larger of the two, and
// it is the timestamp of every record emitted through `out` or through
// ctx.output(tag, value) for that pair.
//
// One function instance per parallel subtask serves every key; open() runs
// before the first pair, close() at the end (RichFunction). Keyed state and
// timers are not offered: the join's buffers are the only per-key state.
//
// Example:
//   class Enrich : public tidemark::ProcessJoinFunction<Click, Order, std::string> {
//    public:
//     void processElement(const Click& c, const Order& o, Context& ctx,
//                         tidemark::Collector<std::string>& out) override {
//       out.collect(fmt::format("{} bought {} {} ms after clicking", c.user, o.item,
//                               ctx.getRightTimestamp() - ctx.getLeftTimestamp()));
//     }
//   };
//   clicks.keyBy(user_of).intervalJoin(orders.keyBy(buyer_of)).between(0, 60'000).process(Enrich{});
#pragma once

#include <algorithm>
#include <typeinfo>
#include <utility>

#include "tidemark/core/output_tag.h"
#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"
#include "tidemark/functions/collector.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"

namespace tidemark {

/// The context of one joined pair (Flink's ProcessJoinFunction.Context),
/// implemented by the interval join operator.
class ProcessJoinContext {
 public:
  virtual ~ProcessJoinContext() = default;
  ProcessJoinContext(const ProcessJoinContext&) = delete;
  ProcessJoinContext& operator=(const ProcessJoinContext&) = delete;

  /// The timestamp of the left (first) element of the pair.
  virtual Timestamp getLeftTimestamp() const = 0;
  /// The timestamp of the right (second) element of the pair.
  virtual Timestamp getRightTimestamp() const = 0;
  /// The pair's timestamp: max(left, right); the results carry it.
  Timestamp getTimestamp() const { return std::max(getLeftTimestamp(), getRightTimestamp()); }

  /// Emit `value` to the side output `tag`, with the pair's timestamp.
  template <class X>
  void output(const OutputTag<X>& tag, X value) {
    StreamRecord<X> record = StreamRecord<X>::withTimestamp(std::move(value), getTimestamp());
    emitSideOutput(tag.internalId(), typeid(X), &record);
  }

 protected:
  ProcessJoinContext() = default;

  /// Send `record`, a StreamRecord<X> with typeid(X) == `type`, to the side
  /// output with the tag id `tag_id`.
  virtual void emitSideOutput(int tag_id, const std::type_info& type, void* record) = 0;
};

template <class IN1, class IN2, class OUT>
class ProcessJoinFunction : public RichFunction<RuntimeContext> {
 public:
  using FirstInputType = IN1;
  using SecondInputType = IN2;
  using OutputType = OUT;

  using Context = ProcessJoinContext;

  /// Called once per joined pair; results go to `out` (zero or more).
  virtual void processElement(const IN1& left, const IN2& right, Context& ctx, Collector<OUT>& out) = 0;
};

}  // namespace tidemark
