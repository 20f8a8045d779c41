// KeyedOneInputStreamOperatorTestHarness: run a KeyedProcessFunction by hand,
// with its keyed state and timers, as keyBy(selector).process(fn) would.
//
// Contract (everything else as OneInputStreamOperatorTestHarness):
// - The key selector runs inside the operator for every element, as in a job,
//   and sets the current key for state and timers. It may be a callable
//   `K(const IN&)` or a KeySelector<IN, K> subclass.
// - The subtask owns the key groups its options give it; an element whose
//   key belongs to another subtask throws (wrapped like any failure), because
//   in a job it could not have arrived there.
// - numEventTimeTimers() / numProcessingTimeTimers() are the timers pending
//   over all keys (a timer registered twice for a key and time counts once);
//   numKeyedStateEntries() is the live state entries over all keys and states,
//   back to 0 once every entry is cleared.
//
// Example:
//   class Count : public tidemark::KeyedProcessFunction<std::string, std::string, std::string> {
//    public:
//     void open() override { n_ = &getRuntimeContext().getState(tidemark::ValueStateDescriptor<int64_t>("n", 0)); }
//     void processElement(const std::string& v, Context&, tidemark::Collector<std::string>& out) override {
//       n_->update(n_->value().value_or(0) + 1);
//       out.collect(v + "#" + std::to_string(*n_->value()));
//     }
//    private:
//     tidemark::ValueState<int64_t>* n_ = nullptr;
//   };
//   tidemark::KeyedOneInputStreamOperatorTestHarness harness(Count{}, [](const std::string& v) { return v; });
//   harness.open();
//   harness.processElement("a", 1);
//   harness.processElement("b", 2);
//   harness.processElement("a", 3);
//   EXPECT_EQ(harness.extractOutputValues(), (std::vector<std::string>{"a#1", "b#1", "a#2"}));
//   EXPECT_EQ(harness.numKeyedStateEntries(), 2u);
#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <memory>
#include <utility>

#include "tidemark/api/data_stream.h"
#include "tidemark/functions/keyed_process_function.h"
#include "tidemark/functions/simple_functions.h"
#include "tidemark/internal/operators/keyed_process_operator.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/testing/one_input_harness.h"

namespace tidemark {

template <class K, class IN, class OUT>
class KeyedOneInputStreamOperatorTestHarness : public OneInputStreamOperatorTestHarness<IN, OUT> {
 public:
  /// The key selector type the DataStream API uses.
  using KeySelectorFunction = std::function<K(const IN&)>;
  using KeyedOperator = internal::KeyedProcessOperator<K, IN, OUT, KeySelectorFunction>;

  /// Run a KeyedProcessFunction<K, IN, OUT> subclass (copied, as the API copies it).
  template <class Fn, class Selector>
    requires std::derived_from<Fn, KeyedProcessFunction<K, IN, OUT>>
  KeyedOneInputStreamOperatorTestHarness(Fn function, Selector key_selector, OperatorTestHarnessOptions options = {})
      : OneInputStreamOperatorTestHarness<IN, OUT>(
            std::make_unique<KeyedOperator>(std::make_unique<Fn>(std::move(function)),
                                            KeySelectorFunction(internal::asCallable(std::move(key_selector)))),
            internal::withDefaultName(std::move(options), "KeyedProcess")) {}

  /// Run another keyed operator that reports its state entries (e.g. a keyed
  /// reduce); it selects keys itself.
  template <class Op>
    requires std::derived_from<Op, internal::OneInputOperator<IN, OUT>> &&
             requires(const Op& op) { op.numStateEntries(); }
  explicit KeyedOneInputStreamOperatorTestHarness(std::unique_ptr<Op> op, OperatorTestHarnessOptions options = {})
      : OneInputStreamOperatorTestHarness<IN, OUT>(std::move(op), std::move(options)) {}

  /// Run the operator a keyed DataStream transformation built, as one of its
  /// subtasks would, e.g. the window operator of
  /// `keyBy(k).window(TumblingEventTimeWindows::of(10)).allowedLateness(5).reduce(f)`.
  /// The stream's job is not run; only its last operator is instantiated.
  explicit KeyedOneInputStreamOperatorTestHarness(const SingleOutputStreamOperator<OUT>& stream,
                                                  OperatorTestHarnessOptions options = {})
      : OneInputStreamOperatorTestHarness<IN, OUT>(
            operatorOf(stream), internal::withDefaultName(std::move(options), nodeName(stream))) {}

  /// Live keyed state entries over all keys and states.
  std::size_t numKeyedStateEntries() const { return this->countKeyedStateEntries(); }

 private:
  static std::unique_ptr<internal::OneInputOperator<IN, OUT>> operatorOf(const SingleOutputStreamOperator<OUT>& stream) {
    const auto* node = dynamic_cast<const internal::OneInputNode<IN, OUT>*>(&stream.graph()->node(stream.getId()));
    if (node == nullptr) {
      throw std::invalid_argument("test harness: the stream was not produced by a one-input operator with this input type");
    }
    return node->createTypedOperator();
  }
  static std::string nodeName(const SingleOutputStreamOperator<OUT>& stream) {
    return stream.graph()->node(stream.getId()).name;
  }
};

template <class Fn, class Selector>
  requires std::derived_from<Fn, KeyedProcessFunction<typename Fn::KeyType, typename Fn::InputType,
                                                      typename Fn::OutputType>>
KeyedOneInputStreamOperatorTestHarness(Fn, Selector)
    -> KeyedOneInputStreamOperatorTestHarness<typename Fn::KeyType, typename Fn::InputType, typename Fn::OutputType>;

template <class Fn, class Selector>
  requires std::derived_from<Fn, KeyedProcessFunction<typename Fn::KeyType, typename Fn::InputType,
                                                      typename Fn::OutputType>>
KeyedOneInputStreamOperatorTestHarness(Fn, Selector, OperatorTestHarnessOptions)
    -> KeyedOneInputStreamOperatorTestHarness<typename Fn::KeyType, typename Fn::InputType, typename Fn::OutputType>;

}  // namespace tidemark
