// OneInputStreamOperatorTestHarness: run one operator (or a ProcessFunction)
// by hand, without a job: push elements and watermarks, move a manual
// processing-time clock, and read exactly what the operator emitted.
//
// Contract:
// - The harness calls the operator the way the runtime does: setup() with an
//   OperatorContext (name, subtask, parallelism, max parallelism, the key
//   groups the subtask owns) whose time service is an OperatorTimeService over
//   a ManualProcessingTimeService; the main output and the captured side
//   outputs are wired before open(); each element arrives as a StreamRecord;
//   endInput() calls finish(); close() calls close().
// - Lifecycle: construct -> captureSideOutput(tag)* -> open() ->
//   { processElement | processWatermark | processWatermarkStatus |
//   setProcessingTime }* -> endInput() -> close(). Calls out of order throw
//   std::logic_error. The destructor closes an operator that was opened and
//   not closed, ignoring errors, as the runtime does when a job fails.
// - Watermarks must strictly increase, and status calls must change the
//   status: the runtime's valve never forwards anything else to an operator,
//   so a test that does is wrong and gets std::invalid_argument.
// - setProcessingTime(t) runs every processing-time callback due at or
//   before t before returning; it throws std::invalid_argument when t is
//   earlier than the current time. Allowed before open() (to set the clock),
//   refused after endInput(): a finished task drops its pending callbacks.
// - Failures look as they do in a job: an exception from the operator (user
//   code included) arrives as internal::OperatorFailure, a std::runtime_error
//   whose message names the operator, the subtask and what was being processed
//   ("element <value>", "watermark <w>", "processing time <t>", "open()", "the
//   end of its input", "close()"), then the original message. Processing-time
//   callbacks get that wrapping from the OperatorTimeService itself, so every
//   path is wrapped alike. One deliberate difference: the runtime swallows
//   close() errors (the job's first error wins) while the harness reports them.
// - numEventTimeTimers() / numProcessingTimeTimers() count pending timers
//   when the operator can tell (keyed operators); they are 0 for a
//   ProcessFunction, which cannot have timers; otherwise, and before open(),
//   they throw std::logic_error.
// - snapshot(checkpoint_id), while open, returns the operator's state as a
//   checkpoint takes it; notifyOfCompletedCheckpoint(id) tells the operator
//   that checkpoint completed. initializeState(states), before open(), restores a
//   fresh harness from the states of one or more subtasks of any parallelism:
//   the harness's subtask takes the key groups its options give it, and its
//   share of their operator state (docs/fault-tolerance.md).
// - Not thread-safe, and not movable: the operator points into the harness.
//
// Example:
//   class Tag : public tidemark::ProcessFunction<std::string, std::string> {
//    public:
//     void processElement(const std::string& v, Context& ctx, tidemark::Collector<std::string>& out) override {
//       out.collect(v + "@wm=" + std::to_string(ctx.timerService().currentWatermark()));
//     }
//   };
//   tidemark::OneInputStreamOperatorTestHarness harness(Tag{});   // <std::string, std::string>
//   harness.open();
//   harness.processElement("a", 1000);
//   harness.processWatermark(1500);
//   harness.processElement("b", 2000);
//   EXPECT_EQ(harness.getOutput().lines(),
//             (std::vector<std::string>{"Record(a@wm=-9223372036854775808 @ 1000)", "Watermark(1500)",
//                                       "Record(b@wm=1500 @ 2000)"}));
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/output_tag.h"
#include "tidemark/core/describe.h"
#include "tidemark/core/key_group.h"
#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"
#include "tidemark/functions/process_function.h"
#include "tidemark/internal/core/operator_failure.h"
#include "tidemark/internal/operators/keyed_operator_stats.h"
#include "tidemark/internal/operators/operator_snapshot.h"
#include "tidemark/internal/operators/output.h"
#include "tidemark/internal/operators/process_operator.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/time/manual_processing_time_service.h"
#include "tidemark/internal/runtime/operator_time_service.h"
#include "tidemark/serialization/type_serializer.h"
#include "tidemark/testing/operator_subtask_state.h"
#include "tidemark/testing/test_harness_output.h"

namespace tidemark {

/// Where the operator under test pretends to run. Aggregate, so
/// `{.parallelism = 2, .subtask_index = 1}` works.
struct OperatorTestHarnessOptions {
  int parallelism = 1;
  int subtask_index = 0;
  int max_parallelism = kDefaultMaxParallelism;
  Timestamp initial_processing_time = 0;
  /// Names the operator in failure messages and RuntimeContext::getTaskName();
  /// empty picks the name the DataStream API would ("Process", "KeyedProcess"),
  /// or "operator" for an operator passed in directly.
  std::string operator_name;

  /// Options for subtask `index` of `parallelism` (a rescaling test's harnesses).
  static OperatorTestHarnessOptions subtask(int index, int parallelism) {
    OperatorTestHarnessOptions options;
    options.subtask_index = index;
    options.parallelism = parallelism;
    return options;
  }
};

namespace internal {

inline OperatorTestHarnessOptions withDefaultName(OperatorTestHarnessOptions options, std::string_view name) {
  if (options.operator_name.empty()) options.operator_name = std::string(name);
  return options;
}

/// What every harness shares: clock, outputs, lifecycle, failure wrapping.
/// The shapes of the inputs are the subclasses' business.
template <class OUT>
class OperatorTestHarnessBase {
 public:
  OperatorTestHarnessBase(const OperatorTestHarnessBase&) = delete;
  OperatorTestHarnessBase& operator=(const OperatorTestHarnessBase&) = delete;

  virtual ~OperatorTestHarnessBase() {
    if (state_ == State::OPEN || state_ == State::FINISHED) {
      try {
        operator_->close();
      } catch (...) {
      }
    }
  }

  /// Capture the side output `tag` (before open(); see test_harness_output.h).
  template <class X>
  void captureSideOutput(const OutputTag<X>& tag) {
    if (state_ != State::CREATED) {
      throw std::logic_error(fmt::format(
          "captureSideOutput('{}') must come before open(): the runtime wires outputs before opening", tag.getId()));
    }
    if (OutputBase* output = side_outputs_.capture(tag)) operator_->setSideOutput(tag.internalId(), output);
  }

  void open() {
    if (state_ != State::CREATED) throw std::logic_error("open() may be called once, before anything else");
    // A failed open() leaves nothing to close, as in Task::open().
    state_ = State::FAILED;
    guarded([this] { operator_->open(); }, [] { return std::string("open()"); });
    state_ = State::OPEN;
  }

  /// Every input ended: calls finish(), where the operator may still emit.
  /// The runtime's bounded sources send kMaxWatermark first; call
  /// processWatermark(kMaxWatermark) before this to reproduce that.
  void endInput() {
    requireOpen("endInput()");
    state_ = State::FINISHED;
    guarded([this] { operator_->finish(); }, [] { return std::string("the end of its input"); });
  }

  void close() {
    if (state_ != State::OPEN && state_ != State::FINISHED) {
      throw std::logic_error("close() needs an operator that was opened and not closed yet");
    }
    state_ = State::CLOSED;
    guarded([this] { operator_->close(); }, [] { return std::string("close()"); });
  }

  /// Move the processing-time clock to `t`, running the callbacks due by then.
  void setProcessingTime(Timestamp t) {
    if (state_ != State::CREATED && state_ != State::OPEN) {
      throw std::logic_error(fmt::format("setProcessingTime({}) after {}: a finished task runs no more callbacks", t,
                                         state_ == State::FAILED ? "open() failed" : "endInput()"));
    }
    clock_.setCurrentTime(t);
  }

  Timestamp getProcessingTime() const { return clock_.currentProcessingTime(); }

  /// Records and watermarks of the main output, in emission order.
  TestHarnessOutput<OUT>& getOutput() { return output_; }
  const TestHarnessOutput<OUT>& getOutput() const { return output_; }

  /// The values of the main output's records, without timestamps.
  std::vector<OUT> extractOutputValues() const { return output_.values(); }

  /// The records emitted to `tag`; throws std::logic_error unless captured.
  template <class X>
  std::vector<StreamRecord<X>> getSideOutput(const OutputTag<X>& tag) const {
    return side_outputs_.get(tag).records();
  }

  /// Everything emitted to `tag`, watermarks included (clear() works on it).
  template <class X>
  TestHarnessOutput<X>& getSideOutputEvents(const OutputTag<X>& tag) {
    return side_outputs_.get(tag);
  }

  /// Pending event-time timers (see the contract for when this is known).
  std::size_t numEventTimeTimers() const { return count(event_time_timers_, "numEventTimeTimers()"); }
  /// Pending processing-time timers.
  std::size_t numProcessingTimeTimers() const {
    return count(processing_time_timers_, "numProcessingTimeTimers()");
  }

  /// The operator's state now, as checkpoint `checkpoint_id` takes it
  /// between two records.
  OperatorSubtaskState snapshot(std::int64_t checkpoint_id) {
    requireOpen("snapshot()");
    OperatorSnapshot taken;
    guarded([&] { taken = operator_->snapshot(checkpoint_id, getProcessingTime()); }, [] { return std::string("a snapshot"); });
    return OperatorSubtaskState(serializeToBytes(taken));
  }

  /// Checkpoint `checkpoint_id` completed (Flink's notifyOfCompletedCheckpoint):
  /// the operator hears of it as it would between two records.
  void notifyOfCompletedCheckpoint(std::int64_t checkpoint_id) {
    requireOpen("notifyOfCompletedCheckpoint()");
    guarded([&] { operator_->notifyCheckpointComplete(checkpoint_id); },
            [checkpoint_id] { return fmt::format("the completion of checkpoint {}", checkpoint_id); });
  }

  /// Before open(): restore from the states of the old subtasks (see the contract).
  void initializeState(const OperatorSubtaskState& state) { initializeState(std::vector<OperatorSubtaskState>{state}); }
  void initializeState(const std::vector<OperatorSubtaskState>& states) {
    if (state_ != State::CREATED) throw std::logic_error("initializeState() must come before open()");
    std::vector<OperatorSnapshot> snapshots;
    for (const OperatorSubtaskState& state : states) {
      snapshots.push_back(deserializeFromBytes<OperatorSnapshot>(state.bytes()));
    }
    operator_->initializeState(std::move(snapshots));
  }

  /// The OperatorContext the operator was set up with.
  const OperatorContext& getOperatorContext() const { return operator_->context(); }

 protected:
  OperatorTestHarnessBase(std::unique_ptr<OperatorBase> op, OperatorTestHarnessOptions options)
      : options_(validated(std::move(options))),
        clock_(options_.initial_processing_time),
        operator_(std::move(op)) {
    if (operator_ == nullptr) throw std::invalid_argument("test harness: the operator is null");
    OperatorContext context;
    context.name = options_.operator_name;
    context.subtask_index = options_.subtask_index;
    context.parallelism = options_.parallelism;
    context.max_parallelism = options_.max_parallelism;
    context.key_group_range = computeKeyGroupRangeForOperatorIndex(options_.max_parallelism, options_.parallelism,
                                                                   options_.subtask_index);
    time_service_ = std::make_unique<OperatorTimeService>(clock_, context.description());
    context.time_service = time_service_.get();
    operator_->setup(std::move(context));
    operator_->setMainOutput(&main_output_);
  }

  OperatorBase& operatorBase() const { return *operator_; }

  /// Record the counters an operator of static type Op can report.
  template <class Op>
  void detectCounters(Op& op) {
    if constexpr (requires { op.numEventTimeTimers(); }) {
      event_time_timers_ = [&op] { return static_cast<std::size_t>(op.numEventTimeTimers()); };
    }
    if constexpr (requires { op.numProcessingTimeTimers(); }) {
      processing_time_timers_ = [&op] { return static_cast<std::size_t>(op.numProcessingTimeTimers()); };
    }
    if constexpr (requires { op.numStateEntries(); }) {
      state_entries_ = [&op] { return static_cast<std::size_t>(op.numStateEntries()); };
    }
    // Known only by a base type (built from a DataStream): ask at run time.
    if (auto* stats = dynamic_cast<const KeyedOperatorStats*>(&op)) {
      if (!event_time_timers_) event_time_timers_ = [stats] { return stats->numEventTimeTimers(); };
      if (!processing_time_timers_) processing_time_timers_ = [stats] { return stats->numProcessingTimeTimers(); };
      if (!state_entries_) state_entries_ = [stats] { return stats->numStateEntries(); };
    }
  }

  /// For operators known to refuse timers.
  void reportNoTimers() {
    event_time_timers_ = [] { return std::size_t{0}; };
    processing_time_timers_ = [] { return std::size_t{0}; };
  }

  std::size_t countKeyedStateEntries() const { return count(state_entries_, "numKeyedStateEntries()"); }

  /// For a subclass's own driving method: needs an open operator, and wraps
  /// a failure of `call` as the runtime does, naming `what()`.
  template <class Call, class What>
  void driveGuarded(std::string_view method, Call&& call, What&& what) {
    requireOpen(method);
    guarded(std::forward<Call>(call), std::forward<What>(what));
  }

  template <class T>
  void deliverElement(Input<T>& input, StreamRecord<T>& record) {
    requireOpen("processElement()");
    operator_->addRecordsIn(1);
    // The record outlives the call so a failure can still describe it, which
    // is why an operator may move from it only as its last use.
    guarded([&] { input.processElement(record); },
            [&] { return describeElement(record.value); });
  }

  /// `last` is the previous watermark of this input.
  void deliverWatermark(InputBase& input, Timestamp& last, Timestamp watermark, std::string_view method) {
    requireOpen(method);
    if (watermark <= last) {
      throw std::invalid_argument(
          fmt::format("{}({}): watermarks must strictly increase (the previous one was {}); "
                      "the runtime never forwards any other",
                      method, watermark, last));
    }
    last = watermark;
    guarded([&] { input.processWatermark(watermark); }, [&] { return fmt::format("watermark {}", watermark); });
  }

  void deliverWatermarkStatus(InputBase& input, WatermarkStatus& last, WatermarkStatus status,
                              std::string_view method) {
    requireOpen(method);
    if (status == last) {
      throw std::invalid_argument(fmt::format("{}({}): the input already has this status; "
                                              "the runtime only forwards changes",
                                              method, status == WatermarkStatus::IDLE ? "IDLE" : "ACTIVE"));
    }
    last = status;
    guarded([&] { input.processWatermarkStatus(status); }, [] { return std::string("a watermark status"); });
  }

 private:
  enum class State { CREATED, OPEN, FINISHED, CLOSED, FAILED };

  static OperatorTestHarnessOptions validated(OperatorTestHarnessOptions options) {
    if (options.max_parallelism < 1 || options.max_parallelism > kUpperBoundMaxParallelism) {
      throw std::invalid_argument(fmt::format("test harness: max parallelism {} is not in [1, {}]",
                                              options.max_parallelism, kUpperBoundMaxParallelism));
    }
    if (options.parallelism < 1 || options.parallelism > options.max_parallelism) {
      throw std::invalid_argument(fmt::format("test harness: parallelism {} is not in [1, max parallelism {}]",
                                              options.parallelism, options.max_parallelism));
    }
    if (options.subtask_index < 0 || options.subtask_index >= options.parallelism) {
      throw std::invalid_argument(fmt::format("test harness: subtask index {} is not in [0, {})",
                                              options.subtask_index, options.parallelism));
    }
    return options;
  }

  void requireOpen(std::string_view method) const {
    switch (state_) {
      case State::OPEN:
        return;
      case State::CREATED:
        throw std::logic_error(fmt::format("{} before open(): call open() first", method));
      case State::FINISHED:
        throw std::logic_error(fmt::format("{} after endInput(): the input has ended", method));
      case State::CLOSED:
        throw std::logic_error(fmt::format("{} after close()", method));
      case State::FAILED:
        throw std::logic_error(fmt::format("{} after open() failed", method));
    }
  }

  std::size_t count(const std::function<std::size_t()>& counter, std::string_view method) const {
    if (!counter) {
      throw std::logic_error(fmt::format("{}: {} does not report this (keyed operators do)", method,
                                         operator_->context().description()));
    }
    if (state_ == State::CREATED || state_ == State::FAILED) {
      throw std::logic_error(fmt::format("{} needs an opened operator: call open() first", method));
    }
    return counter();
  }

  // Wraps a failure exactly as the runtime does (the same helper).
  template <class Call, class What>
  void guarded(Call&& call, What&& what) {
    callNamingFailures([this] { return operator_->context().description(); }, std::forward<What>(what), std::forward<Call>(call));
  }

  OperatorTestHarnessOptions options_;
  ManualProcessingTimeService clock_;
  std::unique_ptr<OperatorTimeService> time_service_;
  TestHarnessOutput<OUT> output_;
  CapturingOutput<OUT> main_output_{output_};
  TestHarnessSideOutputs side_outputs_;
  // Declared after everything it points into, so it is destroyed first.
  std::unique_ptr<OperatorBase> operator_;
  std::function<std::size_t()> event_time_timers_;
  std::function<std::size_t()> processing_time_timers_;
  std::function<std::size_t()> state_entries_;
  State state_ = State::CREATED;
};

}  // namespace internal

/// Drives a one-input operator by hand (see the file comment).
template <class IN, class OUT>
class OneInputStreamOperatorTestHarness : public internal::OperatorTestHarnessBase<OUT> {
 public:
  using Operator = internal::OneInputOperator<IN, OUT>;

  /// Run a ProcessFunction<IN, OUT> subclass (copied, as the API copies it).
  template <class Fn>
    requires std::derived_from<Fn, ProcessFunction<IN, OUT>>
  explicit OneInputStreamOperatorTestHarness(Fn function, OperatorTestHarnessOptions options = {})
      : OneInputStreamOperatorTestHarness(
            std::make_unique<internal::ProcessOperator<IN, OUT>>(std::make_unique<Fn>(std::move(function))),
            internal::withDefaultName(std::move(options), "Process")) {
    this->reportNoTimers();
  }

  /// Run any one-input operator. Counters the operator offers (timers, keyed
  /// state entries) are found through its static type Op.
  template <class Op>
    requires std::derived_from<Op, Operator>
  explicit OneInputStreamOperatorTestHarness(std::unique_ptr<Op> op, OperatorTestHarnessOptions options = {})
      : internal::OperatorTestHarnessBase<OUT>(std::move(op), internal::withDefaultName(std::move(options), "operator")),
        input_(static_cast<Op&>(this->operatorBase())) {
    this->detectCounters(static_cast<Op&>(this->operatorBase()));
  }

  /// Push an element with an event timestamp.
  void processElement(IN value, Timestamp timestamp) {
    processElement(StreamRecord<IN>::withTimestamp(std::move(value), timestamp));
  }
  /// Push an element without a timestamp (ctx.timestamp() is empty).
  void processElement(IN value) { processElement(StreamRecord<IN>::withoutTimestamp(std::move(value))); }
  void processElement(StreamRecord<IN> record) { this->deliverElement(input_, record); }

  /// Advance event time; event-time timers fire before the watermark is forwarded.
  void processWatermark(Timestamp watermark) {
    this->deliverWatermark(input_, last_watermark_, watermark, "processWatermark");
  }
  void processWatermarkStatus(WatermarkStatus status) {
    this->deliverWatermarkStatus(input_, last_status_, status, "processWatermarkStatus");
  }

  /// The last watermark pushed (kMinWatermark before any).
  Timestamp getCurrentWatermark() const { return last_watermark_; }

  Operator& getOperator() { return input_; }

 private:
  Operator& input_;
  Timestamp last_watermark_ = kMinWatermark;
  WatermarkStatus last_status_ = WatermarkStatus::ACTIVE;
};

template <class Fn>
  requires std::derived_from<Fn, ProcessFunction<typename Fn::InputType, typename Fn::OutputType>>
OneInputStreamOperatorTestHarness(Fn) -> OneInputStreamOperatorTestHarness<typename Fn::InputType, typename Fn::OutputType>;

template <class Fn>
  requires std::derived_from<Fn, ProcessFunction<typename Fn::InputType, typename Fn::OutputType>>
OneInputStreamOperatorTestHarness(Fn, OperatorTestHarnessOptions)
    -> OneInputStreamOperatorTestHarness<typename Fn::InputType, typename Fn::OutputType>;

template <class Op>
  requires std::derived_from<Op, internal::OneInputOperator<typename Op::InputType, typename Op::OutputType>>
OneInputStreamOperatorTestHarness(std::unique_ptr<Op>)
    -> OneInputStreamOperatorTestHarness<typename Op::InputType, typename Op::OutputType>;

template <class Op>
  requires std::derived_from<Op, internal::OneInputOperator<typename Op::InputType, typename Op::OutputType>>
OneInputStreamOperatorTestHarness(std::unique_ptr<Op>, OperatorTestHarnessOptions)
    -> OneInputStreamOperatorTestHarness<typename Op::InputType, typename Op::OutputType>;

}  // namespace tidemark
