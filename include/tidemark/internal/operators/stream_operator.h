// The operator contract: what the runtime calls on an operator, in which order,
// from which thread.
//
// Lifecycle, all on the owning task's thread:
//   setup(context) -> open() -> { processElement | processWatermark |
//   processWatermarkStatus | timer callbacks }* -> finish() -> close().
// - finish() runs once every input has ended (after the final MAX watermark of
//   a bounded input); an operator may still emit in it. close() releases
//   resources and must not emit. close() also runs when the job fails, after
//   open() succeeded, and then finish() may not have run.
// - Event-time timers fire inside processWatermark, before the watermark is
//   forwarded, so their outputs precede it downstream.
// - Outputs: one main output and any number of side outputs, each consumed by
//   zero or more downstream operators. Watermarks and status go to all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/job_execution_result.h"
#include "tidemark/core/output_tag.h"
#include "tidemark/core/key_group.h"
#include "tidemark/core/time.h"
#include "tidemark/functions/checkpoint_listener.h"
#include "tidemark/functions/checkpointed_function.h"
#include "tidemark/functions/operator_state_store.h"
#include "tidemark/functions/runtime_context.h"
#include "tidemark/internal/operators/operator_snapshot.h"
#include "tidemark/internal/operators/output.h"
#include "tidemark/internal/time/processing_time_service.h"
#include "tidemark/internal/time/watermark_valve.h"

namespace tidemark::internal {

/// Where an operator instance runs; handed to it in setup().
struct OperatorContext {
  std::string name = "operator";
  int subtask_index = 0;
  int parallelism = 1;
  int max_parallelism = kDefaultMaxParallelism;
  KeyGroupRange key_group_range{0, kDefaultMaxParallelism - 1};
  Duration auto_watermark_interval = 200;
  bool checkpointing_enabled = false;  // the job takes checkpoints
  int attempt_number = 0;              // 0, then one more at each restart of the job
  ProcessingTimeService* time_service = nullptr;

  /// What a user function may learn about where it runs.
  RuntimeContext runtimeContext() const { return RuntimeContext(name, subtask_index, parallelism, max_parallelism); }

  /// "operator 'name' (subtask 1/2)": how errors name the operator.
  std::string description() const {
    return fmt::format("operator '{}' (subtask {}/{})", name, subtask_index + 1, parallelism);
  }
};

/// Named counters an operator reports when the job ends (for example a window
/// operator's numLateRecordsDropped); the job sums them over subtasks.
class CounterReport {
 public:
  void add(std::string name, std::uint64_t value) {
    for (auto& [existing, total] : counters_) {
      if (existing == name) {
        total += value;
        return;
      }
    }
    counters_.emplace_back(std::move(name), value);
  }
  const std::vector<std::pair<std::string, std::uint64_t>>& counters() const { return counters_; }

 private:
  std::vector<std::pair<std::string, std::uint64_t>> counters_;
};

class OperatorBase {
 public:
  virtual ~OperatorBase() = default;

  void setup(OperatorContext context) { context_ = std::move(context); }
  virtual void open() {}
  virtual void finish() {}
  virtual void close() {}

  const OperatorContext& context() const { return context_; }
  ProcessingTimeService& processingTimeService() const { return *context_.time_service; }

  /// The element type of the main output (for the planner's type checks).
  virtual std::type_index outputType() const = 0;

  /// Records this operator received (a metric; read after the job ended).
  std::uint64_t recordsIn() const { return records_in_; }
  void addRecordsIn(std::uint64_t n) { records_in_ += n; }
  /// Add this operator's own counters to `report` (read after the job ended).
  virtual void reportCounters(CounterReport& report) const { (void)report; }

  /// Everything this operator needs to go on after a restore, taken between
  /// two records for checkpoint `checkpoint_id`, triggered at
  /// `checkpoint_timestamp`: snapshotState(), then its function's
  /// snapshotState() and the operator state (OperatorStateStore).
  OperatorSnapshot snapshot(std::int64_t checkpoint_id, Timestamp checkpoint_timestamp);

  /// The part of a snapshot this kind of operator holds itself; an operator
  /// without state has nothing to add.
  virtual OperatorSnapshot snapshotState(std::int64_t checkpoint_id) const {
    return {checkpoint_id, {}, {}, kMinWatermark, {}};
  }

  /// For an operator that combines its inputs' event time itself: adds that
  /// to `taken`, and goes on from `own` (this subtask's old snapshot, null
  /// when rescaled) or else from `restored`, the least old watermark.
  virtual void snapshotInputCombination(OperatorSnapshot& taken) const { (void)taken; }
  virtual void restoreInputCombination(const OperatorSnapshot* own, Timestamp restored) {
    (void)own;
    (void)restored;
  }

  /// After setup() and before open(): the snapshots of the old subtasks this
  /// subtask restores from (each takes its key groups from them, and its
  /// share of their operator state). open() restores from them.
  void initializeState(std::vector<OperatorSnapshot> snapshots);
  bool isRestored() const { return is_restored_; }

  /// The operator state of this subtask (created on first use, with what it restored).
  OperatorStateStore& operatorStateStore();

  /// Checkpoint `checkpoint_id` is complete (on the task thread, between two
  /// records): the function hears of it when it is a CheckpointListener.
  virtual void notifyCheckpointComplete(std::int64_t checkpoint_id) {
    if (checkpoint_listener_ != nullptr) checkpoint_listener_->notifyCheckpointComplete(checkpoint_id);
  }

  /// For open(), before the function's open(): a function that is a
  /// CheckpointedFunction gets its initializeState() now, and its
  /// snapshotState() at every snapshot; one that is a CheckpointListener
  /// hears of every completed checkpoint.
  template <class F>
  void initializeFunctionState(F& function) {
    if constexpr (std::is_polymorphic_v<F>) {
      checkpoint_listener_ = dynamic_cast<CheckpointListener*>(&function);
      checkpointed_function_ = dynamic_cast<CheckpointedFunction*>(&function);
      if (checkpointed_function_ != nullptr) {
        FunctionInitializationContext init(operatorStateStore(), is_restored_, restored_checkpoint_id_,
                                           context_.attempt_number);
        checkpointed_function_->initializeState(init);
      }
    }
  }

  /// For open(): hands the snapshots over, so that the operator does not keep
  /// a second copy of the state it restored for as long as it runs.
  std::vector<OperatorSnapshot> takeRestoredSnapshots() { return std::exchange(restored_, {}); }

  /// Wiring, done by the planner before open().
  void setMainOutput(OutputBase* output) { main_output_ = output; }
  void setSideOutput(int tag_id, OutputBase* output) { side_outputs_.emplace_back(tag_id, output); }

  /// Send `record` to the side output `tag`; dropped when nobody reads it.
  template <class X>
  void emitSideOutput(const OutputTag<X>& tag, StreamRecord<X>& record) {
    if (OutputBase* output = sideOutput(tag.internalId())) static_cast<Output<X>*>(output)->collect(record);
  }

  /// The same for a user context, which holds the record untyped: `record` is
  /// a StreamRecord of `type`. Throws std::logic_error when the side output
  /// with this tag id carries another type.
  void emitSideOutput(int tag_id, const std::type_info& type, void* record);

 protected:
  /// Forward a watermark to the main output and every side output.
  void emitWatermarkToAll(Timestamp watermark) {
    main_output_->emitWatermark(watermark);
    for (auto& side : side_outputs_) side.second->emitWatermark(watermark);
  }

  void emitWatermarkStatusToAll(WatermarkStatus status) {
    main_output_->emitWatermarkStatus(status);
    for (auto& side : side_outputs_) side.second->emitWatermarkStatus(status);
  }

  OutputBase* mainOutputBase() const { return main_output_; }
  /// The function initializeFunctionState() found to be a CheckpointedFunction, or null.
  CheckpointedFunction* checkpointedFunction() const { return checkpointed_function_; }

  /// For snapshotState() of an operator whose state exists from open() on:
  /// `opened` is that state, null before open(), which is a caller's bug.
  void requireOpenedForSnapshot(const void* opened) const {
    if (opened == nullptr) {
      throw std::logic_error(fmt::format("operator '{}' was asked for a snapshot before open()", context_.name));
    }
  }

  /// The side output wired for `tag_id`; null when nobody reads it.
  OutputBase* sideOutput(int tag_id) const {
    for (const auto& [id, output] : side_outputs_) {
      if (id == tag_id) return output;
    }
    return nullptr;
  }

 private:
  OperatorContext context_;
  std::uint64_t records_in_ = 0;
  OutputBase* main_output_ = nullptr;
  std::vector<std::pair<int, OutputBase*>> side_outputs_;
  std::vector<OperatorSnapshot> restored_;
  bool is_restored_ = false;
  std::int64_t restored_checkpoint_id_ = 0;
  std::vector<OperatorListStateSnapshot> restored_operator_state_;  // until the store takes it
  std::unique_ptr<OperatorStateStore> operator_state_store_;
  CheckpointedFunction* checkpointed_function_ = nullptr;
  CheckpointListener* checkpoint_listener_ = nullptr;
};

/// An operator with one input of type IN and a main output of type OUT.
template <class IN, class OUT>
class OneInputOperator : public OperatorBase, public Input<IN> {
 public:
  using InputType = IN;
  using OutputType = OUT;

  std::type_index outputType() const final { return typeid(OUT); }

  void processWatermark(Timestamp watermark) override { emitWatermarkToAll(watermark); }
  void processWatermarkStatus(WatermarkStatus status) override { emitWatermarkStatusToAll(status); }

 protected:
  Output<OUT>& output() { return *static_cast<Output<OUT>*>(mainOutputBase()); }
};

/// An operator with two inputs (connect): each input's watermark comes from
/// its own valve; the operator's event time is the minimum over the inputs
/// that are not idle (docs/semantics.md 2.3), and only strict increases go further.
template <class IN1, class IN2, class OUT>
class TwoInputOperator : public OperatorBase {
 public:
  using FirstInputType = IN1;
  using SecondInputType = IN2;
  using OutputType = OUT;

  std::type_index outputType() const final { return typeid(OUT); }

  virtual void processElement1(StreamRecord<IN1>& record) = 0;
  virtual void processElement2(StreamRecord<IN2>& record) = 0;

  void processWatermark1(Timestamp watermark) { apply(combined_.updateWatermark(0, watermark)); }
  void processWatermark2(Timestamp watermark) { apply(combined_.updateWatermark(1, watermark)); }
  void processWatermarkStatus1(WatermarkStatus status) { apply(combined_.updateStatus(0, status)); }
  void processWatermarkStatus2(WatermarkStatus status) { apply(combined_.updateStatus(1, status)); }

  /// The combined watermark advanced; keyed operators fire timers here first.
  virtual void processWatermark(Timestamp watermark) { emitWatermarkToAll(watermark); }

  void snapshotInputCombination(OperatorSnapshot& taken) const final { taken.combined_inputs = combined_.snapshot(); }
  void restoreInputCombination(const OperatorSnapshot* own, Timestamp restored) final {
    if (own != nullptr && own->combined_inputs && own->combined_inputs->inputs.size() == 2) {
      combined_.restore(*own->combined_inputs);
    } else {
      combined_.startAt(restored);
    }
  }

 protected:
  Output<OUT>& output() { return *static_cast<Output<OUT>*>(mainOutputBase()); }

 private:
  void apply(const WatermarkUpdate& combined) {
    if (combined.watermark) processWatermark(*combined.watermark);
    if (combined.status) emitWatermarkStatusToAll(*combined.status);
  }

  CombinedWatermark combined_{2};
};

/// Adapts one side of a TwoInputOperator to the Input interface.
template <class IN1, class IN2, class OUT>
class FirstInputOf final : public Input<IN1> {
 public:
  explicit FirstInputOf(TwoInputOperator<IN1, IN2, OUT>& op) : op_(op) {}
  void processElement(StreamRecord<IN1>& record) override { op_.processElement1(record); }
  void processWatermark(Timestamp watermark) override { op_.processWatermark1(watermark); }
  void processWatermarkStatus(WatermarkStatus status) override { op_.processWatermarkStatus1(status); }

 private:
  TwoInputOperator<IN1, IN2, OUT>& op_;
};

template <class IN1, class IN2, class OUT>
class SecondInputOf final : public Input<IN2> {
 public:
  explicit SecondInputOf(TwoInputOperator<IN1, IN2, OUT>& op) : op_(op) {}
  void processElement(StreamRecord<IN2>& record) override { op_.processElement2(record); }
  void processWatermark(Timestamp watermark) override { op_.processWatermark2(watermark); }
  void processWatermarkStatus(WatermarkStatus status) override { op_.processWatermarkStatus2(status); }

 private:
  TwoInputOperator<IN1, IN2, OUT>& op_;
};

}  // namespace tidemark::internal

namespace tidemark {

/// The operator interface DataStream::transform takes (Flink's
/// OneInputStreamOperator): override processElement(StreamRecord<IN>&) and,
/// as needed, processWatermark / processWatermarkStatus (call the base to
/// forward) and open / finish / close; emit with output().collect(record).
template <class IN, class OUT>
using OneInputStreamOperator = internal::OneInputOperator<IN, OUT>;

}  // namespace tidemark
