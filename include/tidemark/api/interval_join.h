// The keyed interval join (Flink's KeyedStream.IntervalJoin):
//
//   a.keyBy(k).intervalJoin(b.keyBy(k))
//       .between(lower, upper)          // lower <= upper, in ms or std::chrono
//       [.lowerBoundExclusive()] [.upperBoundExclusive()]
//       [.sideOutputLeftLateData(tag)] [.sideOutputRightLateData(tag)]
//       .process(fn)
//
// joins every element `l` of `a` with every element `r` of `b` that has the
// same key and a timestamp with l.ts + lower <= r.ts <= l.ts + upper (both
// bounds inclusive unless made exclusive; an exclusive bound moves inwards by
// 1 ms). `fn` is a ProcessJoinFunction<A, B, OUT> subclass or, with
// process<OUT>(f), a lambda `f(const A&, const B&, ProcessJoinContext&,
// Collector<OUT>&)`. Each result carries max(l.ts, r.ts).
//
// Semantics (operators/interval_join_operator.h has the details):
// - Event time only: an element without a timestamp fails the job.
// - Event time is the minimum of both inputs' watermarks. An element whose
//   timestamp is below it is late: it joins nothing; it goes to the late-data
//   side output of its side when one is set (read it with getSideOutput(tag)
//   on the join's result), and is dropped otherwise.
// - For one arriving element, pairs come out in ascending timestamp order of
//   the other side's elements, arrival order within one timestamp; pairs of
//   different keys or different arriving elements interleave as the inputs do.
// - A buffered element is dropped once the watermark reaches the last
//   timestamp a partner of it could have, so state stays bounded by the
//   interval. As in Flink, a partner arriving exactly at that watermark is
//   not late but finds the element gone (see the operator header).
// - between() throws std::invalid_argument when lower > upper. std::chrono
//   bounds are converted to milliseconds, truncating toward zero.
//
// Example (each click with the orders of the same user in the 10 s after it:
// orders r with click.ts <= r.ts <= click.ts + 10 s):
//   clicks.keyBy(user_of).intervalJoin(orders.keyBy(buyer_of))
//       .between(std::chrono::seconds(0), std::chrono::seconds(10))
//       .process<std::string>([](const Click& c, const Order& o, tidemark::ProcessJoinContext& ctx,
//                                tidemark::Collector<std::string>& out) {
//         out.collect(c.page + " -> " + o.item + " after " +
//                     std::to_string(ctx.getRightTimestamp() - ctx.getLeftTimestamp()) + " ms");
//       });
// data_stream.h includes this header at its end, after DataStream is complete;
// the guard comes after that include so that including this header first works.
#include "tidemark/api/data_stream.h"

#ifndef TIDEMARK_API_INTERVAL_JOIN_H
#define TIDEMARK_API_INTERVAL_JOIN_H

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "tidemark/api/connected_streams.h"
#include "tidemark/api/keyed_stream.h"
#include "tidemark/core/output_tag.h"
#include "tidemark/core/time.h"
#include "tidemark/functions/collector.h"
#include "tidemark/functions/process_join_function.h"
#include "tidemark/internal/operators/interval_join_operator.h"

namespace tidemark {

template <class K, class A, class B>
class IntervalJoined;

namespace internal {
/// A join lambda wrapped as a ProcessJoinFunction.
template <class IN1, class IN2, class OUT, class F>
class LambdaProcessJoinFunction final : public ProcessJoinFunction<IN1, IN2, OUT> {
 public:
  explicit LambdaProcessJoinFunction(F f) : f_(std::move(f)) {}
  void processElement(const IN1& left, const IN2& right, ProcessJoinContext& ctx, Collector<OUT>& out) override {
    f_(left, right, ctx, out);
  }

 private:
  F f_;
};

}  // namespace internal

/// Two keyed streams about to be joined over a time interval; between() sets it.
template <class K, class A, class B>
class IntervalJoin {
 public:
  IntervalJoin(KeyedStream<K, A> left, KeyedStream<K, B> right) : left_(std::move(left)), right_(std::move(right)) {
    if (left_.graph() != right_.graph()) {
      throw std::invalid_argument("intervalJoin: both streams must come from the same StreamExecutionEnvironment");
    }
  }

  /// Join left l with right r when l.ts + lower <= r.ts <= l.ts + upper
  /// (milliseconds, both inclusive). Throws std::invalid_argument if lower > upper.
  [[nodiscard]] IntervalJoined<K, A, B> between(Duration lower, Duration upper) const {
    if (lower > upper) {
      throw std::invalid_argument("intervalJoin().between: the lower bound (" + std::to_string(lower) +
                                  " ms) must not exceed the upper bound (" + std::to_string(upper) + " ms)");
    }
    return IntervalJoined<K, A, B>(left_, right_, lower, upper);
  }
  /// The same with std::chrono durations (truncated to whole milliseconds).
  template <class Rep1, class Period1, class Rep2, class Period2>
  [[nodiscard]] IntervalJoined<K, A, B> between(std::chrono::duration<Rep1, Period1> lower,
                                                std::chrono::duration<Rep2, Period2> upper) const {
    return between(toMillis(lower), toMillis(upper));
  }

 private:
  KeyedStream<K, A> left_;
  KeyedStream<K, B> right_;
};

/// An interval join with its bounds: choose exclusiveness and late-data
/// outputs, then process(). Each option returns a modified copy.
template <class K, class A, class B>
class IntervalJoined {
 public:
  IntervalJoined(KeyedStream<K, A> left, KeyedStream<K, B> right, Duration lower, Duration upper)
      : left_(std::move(left)), right_(std::move(right)), lower_(lower), upper_(upper) {}

  /// Exclude elements exactly at l.ts + lower.
  [[nodiscard]] IntervalJoined lowerBoundExclusive() const {
    IntervalJoined copy = *this;
    copy.lower_inclusive_ = false;
    return copy;
  }
  /// Exclude elements exactly at l.ts + upper.
  [[nodiscard]] IntervalJoined upperBoundExclusive() const {
    IntervalJoined copy = *this;
    copy.upper_inclusive_ = false;
    return copy;
  }

  /// Send late left elements (timestamp below the join's event time) to `tag`.
  [[nodiscard]] IntervalJoined sideOutputLeftLateData(OutputTag<A> tag) const {
    IntervalJoined copy = *this;
    copy.left_late_tag_ = std::move(tag);
    return copy;
  }
  /// Send late right elements to `tag`.
  [[nodiscard]] IntervalJoined sideOutputRightLateData(OutputTag<B> tag) const {
    IntervalJoined copy = *this;
    copy.right_late_tag_ = std::move(tag);
    return copy;
  }

  Duration getLowerBound() const { return lower_; }
  Duration getUpperBound() const { return upper_; }
  bool isLowerBoundInclusive() const { return lower_inclusive_; }
  bool isUpperBoundInclusive() const { return upper_inclusive_; }

  /// Run a ProcessJoinFunction<A, B, OUT> subclass for every joined pair.
  template <class Fn>
    requires std::is_base_of_v<ProcessJoinFunction<A, B, typename Fn::OutputType>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> process(Fn fn) const {
    using OUT = typename Fn::OutputType;
    using Selector1 = typename KeyedStream<K, A>::KeySelectorFunction;
    using Selector2 = typename KeyedStream<K, B>::KeySelectorFunction;
    using Operator = internal::IntervalJoinOperator<K, A, B, OUT, Selector1, Selector2>;
    return ConnectedStreams<A, B>(left_, right_)
        .template addTwoInput<OUT>(
            "Interval Join",
            [fn, lower = lower_, upper = upper_, lower_inclusive = lower_inclusive_, upper_inclusive = upper_inclusive_,
             selector1 = left_.getKeySelector(), selector2 = right_.getKeySelector(), left_late = left_late_tag_,
             right_late = right_late_tag_]() {
              return std::make_unique<Operator>(lower, upper, lower_inclusive, upper_inclusive, std::make_unique<Fn>(fn),
                                                selector1, selector2, left_late, right_late);
            });
  }
  /// Run `f(const A&, const B&, ProcessJoinContext&, Collector<OUT>&)` for every joined pair.
  template <class OUT, class F>
  SingleOutputStreamOperator<OUT> process(F f) const {
    return process(internal::LambdaProcessJoinFunction<A, B, OUT, F>(std::move(f)));
  }

 private:
  KeyedStream<K, A> left_;
  KeyedStream<K, B> right_;
  Duration lower_;
  Duration upper_;
  bool lower_inclusive_ = true;
  bool upper_inclusive_ = true;
  std::optional<OutputTag<A>> left_late_tag_;
  std::optional<OutputTag<B>> right_late_tag_;
};

}  // namespace tidemark

#endif  // TIDEMARK_API_INTERVAL_JOIN_H
