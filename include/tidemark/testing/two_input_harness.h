// TwoInputStreamOperatorTestHarness: run a two-input operator (connect:
// CoProcessOperator, KeyedCoProcessOperator, or your own TwoInputOperator)
// by hand, feeding each input separately.
//
// Contract (everything else as OneInputStreamOperatorTestHarness):
// - Elements, watermarks and status changes reach the operator through the
//   same FirstInputOf / SecondInputOf adapters the runtime uses.
// - Each input's watermarks must strictly increase on their own; the operator
//   combines them: its event time is the minimum over the inputs that are not
//   idle, and it forwards only increases of that minimum. So a watermark on
//   one input alone may forward nothing.
// - numEventTimeTimers(), numProcessingTimeTimers() and
//   numKeyedStateEntries() work when the operator's static type offers them
//   (keyed operators); otherwise they throw std::logic_error.
//
// Example:
//   tidemark::TwoInputStreamOperatorTestHarness harness(std::make_unique<MyCoOperator>());
//   harness.open();
//   harness.processWatermark1(1000);
//   harness.processWatermark2(500);           // forwards 500, the minimum
//   harness.processWatermark2(2000);          // forwards 1000
//   EXPECT_EQ(harness.getOutput().watermarks(), (std::vector<tidemark::Timestamp>{500, 1000}));
#pragma once

#include <concepts>
#include <cstddef>
#include <memory>
#include <utility>

#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/testing/one_input_harness.h"

namespace tidemark {

template <class IN1, class IN2, class OUT>
class TwoInputStreamOperatorTestHarness : public internal::OperatorTestHarnessBase<OUT> {
 public:
  using Operator = internal::TwoInputOperator<IN1, IN2, OUT>;

  template <class Op>
    requires std::derived_from<Op, Operator>
  explicit TwoInputStreamOperatorTestHarness(std::unique_ptr<Op> op, OperatorTestHarnessOptions options = {})
      : internal::OperatorTestHarnessBase<OUT>(std::move(op), internal::withDefaultName(std::move(options), "operator")),
        two_input_(static_cast<Op&>(this->operatorBase())),
        first_(two_input_),
        second_(two_input_) {
    this->detectCounters(static_cast<Op&>(this->operatorBase()));
  }

  void processElement1(IN1 value, Timestamp timestamp) {
    processElement1(StreamRecord<IN1>::withTimestamp(std::move(value), timestamp));
  }
  void processElement1(IN1 value) { processElement1(StreamRecord<IN1>::withoutTimestamp(std::move(value))); }
  void processElement1(StreamRecord<IN1> record) { this->deliverElement(first_, record); }

  void processElement2(IN2 value, Timestamp timestamp) {
    processElement2(StreamRecord<IN2>::withTimestamp(std::move(value), timestamp));
  }
  void processElement2(IN2 value) { processElement2(StreamRecord<IN2>::withoutTimestamp(std::move(value))); }
  void processElement2(StreamRecord<IN2> record) { this->deliverElement(second_, record); }

  void processWatermark1(Timestamp watermark) {
    this->deliverWatermark(first_, last_watermark1_, watermark, "processWatermark1");
  }
  void processWatermark2(Timestamp watermark) {
    this->deliverWatermark(second_, last_watermark2_, watermark, "processWatermark2");
  }

  void processWatermarkStatus1(WatermarkStatus status) {
    this->deliverWatermarkStatus(first_, last_status1_, status, "processWatermarkStatus1");
  }
  void processWatermarkStatus2(WatermarkStatus status) {
    this->deliverWatermarkStatus(second_, last_status2_, status, "processWatermarkStatus2");
  }

  /// Live keyed state entries, for keyed two-input operators.
  std::size_t numKeyedStateEntries() const { return this->countKeyedStateEntries(); }

  Operator& getOperator() { return two_input_; }

 private:
  Operator& two_input_;
  internal::FirstInputOf<IN1, IN2, OUT> first_;
  internal::SecondInputOf<IN1, IN2, OUT> second_;
  Timestamp last_watermark1_ = kMinWatermark;
  Timestamp last_watermark2_ = kMinWatermark;
  WatermarkStatus last_status1_ = WatermarkStatus::ACTIVE;
  WatermarkStatus last_status2_ = WatermarkStatus::ACTIVE;
};

template <class Op>
  requires std::derived_from<Op, internal::TwoInputOperator<typename Op::FirstInputType, typename Op::SecondInputType,
                                                            typename Op::OutputType>>
TwoInputStreamOperatorTestHarness(std::unique_ptr<Op>)
    -> TwoInputStreamOperatorTestHarness<typename Op::FirstInputType, typename Op::SecondInputType,
                                         typename Op::OutputType>;

template <class Op>
  requires std::derived_from<Op, internal::TwoInputOperator<typename Op::FirstInputType, typename Op::SecondInputType,
                                                            typename Op::OutputType>>
TwoInputStreamOperatorTestHarness(std::unique_ptr<Op>, OperatorTestHarnessOptions)
    -> TwoInputStreamOperatorTestHarness<typename Op::FirstInputType, typename Op::SecondInputType,
                                         typename Op::OutputType>;

}  // namespace tidemark
