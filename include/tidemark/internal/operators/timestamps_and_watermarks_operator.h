// assignTimestampsAndWatermarks: stamps records and generates watermarks.
//
// Per docs/semantics.md 1.2: the record is emitted before the generator sees it (so a
// punctuated watermark follows its event); periodic emission runs every
// auto-watermark interval of processing time, starting one interval after
// open; watermarks from upstream are ignored except MAX (end of input must
// pass); at end of input the generator emits one last time. Only strictly
// increasing watermarks leave the operator.
//
// Snapshots hold the last watermark it emitted (as the operator's current
// watermark), and in its operator state the generator's state and whether
// the stream was idle. Restored at the same parallelism, it goes on where it
// was: a restored job emits no watermark lower than one the failed job did.
// Restored idle, it says so again at its first periodic emit unless the
// generator made it active by then: a task downstream restored at another
// parallelism starts every channel active, and would otherwise wait for this
// one (one restored at the same parallelism knows already, and takes the
// second IDLE as a no-op). No record pays for this.
// Rescaled, each generator starts afresh (it has one subtask's state), from
// the least watermark of the old subtasks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tidemark/eventtime/watermark_strategy.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/serialization/data_input.h"
#include "tidemark/serialization/data_output.h"
#include "tidemark/serialization/serialization_error.h"

namespace tidemark::internal {

template <class T>
class TimestampsAndWatermarksOperator final : public OneInputOperator<T, T>, private tidemark::WatermarkOutput {
 public:
  explicit TimestampsAndWatermarksOperator(WatermarkStrategy<T> strategy) : strategy_(std::move(strategy)) {}

  OperatorSnapshot snapshotState(std::int64_t checkpoint_id) const override {
    this->requireOpenedForSnapshot(generator_.get());
    DataOutput generator_bytes;
    generator_->snapshotState(generator_bytes);
    // The list belongs to the operator state store, not to this operator's
    // own state: writing it here leaves the operator as it was.
    generator_state_->update({GeneratorState{generator_bytes.takeBytes(), idle_}});
    return {checkpoint_id, {}, {}, last_emitted_, {}};
  }

  void open() override {
    auto& time = this->processingTimeService();
    generator_ = strategy_.createWatermarkGenerator(
        WatermarkGeneratorContext([&time] { return time.currentProcessingTime(); }));
    generator_state_ =
        &this->operatorStateStore().getListState(ListStateDescriptor<GeneratorState>("watermark-generator"));
    if (this->isRestored()) restore();
    interval_ = this->context().auto_watermark_interval;
    if (interval_ > 0) schedulePeriodicEmit(time.currentProcessingTime() + interval_);
  }

  void processElement(StreamRecord<T>& record) override {
    const Timestamp previous = record.has_timestamp ? record.timestamp : kMinWatermark;
    const Timestamp timestamp = strategy_.extractTimestamp(std::as_const(record.value), previous);
    record.timestamp = timestamp;
    record.has_timestamp = true;
    // The generator sees the event before it is emitted (emitting may move the
    // value), but what it emits is held back until the record has gone out.
    deferring_ = true;
    generator_->onEvent(std::as_const(record.value), timestamp, *this);
    deferring_ = false;
    this->output().collect(record);
    if (deferred_) emitWatermark(*std::exchange(deferred_, std::nullopt));
  }

  void processWatermark(Timestamp watermark) override {
    if (watermark == kMaxWatermark) emitWatermark(kMaxWatermark);
  }

  void processWatermarkStatus(WatermarkStatus) override {}

  void finish() override { generator_->onPeriodicEmit(*this); }

 private:
  struct GeneratorState {
    std::string bytes;  // what the generator's snapshotState() wrote
    bool idle = false;
    auto fields() { return std::tie(bytes, idle); }
  };

  void restore() {
    const std::vector<OperatorSnapshot> snapshots = this->takeRestoredSnapshots();
    const OperatorSnapshot* own = ownSnapshot(snapshots, this->context().subtask_index, this->context().parallelism);
    const std::vector<GeneratorState> restored = generator_state_->get();
    if (own == nullptr || restored.size() != 1) {  // rescaled
      generator_state_->clear();
      last_emitted_ = restoredWatermark(snapshots);
      return;
    }
    last_emitted_ = own->current_watermark;
    DataInput in(restored.front().bytes);
    try {
      generator_->restoreState(in);
      in.expectEnd("the watermark generator's state");
    } catch (const SerializationError& error) {
      throw SerializationError("restoring the watermark generator of " + this->context().description() + ": " +
                               error.what());
    }
    idle_ = restored.front().idle;
    announce_restored_idleness_ = idle_;
  }

  void schedulePeriodicEmit(Timestamp at) {
    this->processingTimeService().registerTimer(at, [this](Timestamp now) {
      generator_->onPeriodicEmit(*this);
      // After the generator: a watermark it emitted made the stream active.
      if (std::exchange(announce_restored_idleness_, false) && idle_) {
        this->emitWatermarkStatusToAll(WatermarkStatus::IDLE);
      }
      schedulePeriodicEmit(now + interval_);
    });
  }

  // WatermarkOutput
  void emitWatermark(Timestamp watermark) override {
    if (deferring_) {
      deferred_ = std::max(deferred_.value_or(kMinWatermark), watermark);
      return;
    }
    if (watermark <= last_emitted_) return;
    last_emitted_ = watermark;
    markActive();
    this->emitWatermarkToAll(watermark);
  }
  void markIdle() override {
    if (!idle_) {
      idle_ = true;
      this->emitWatermarkStatusToAll(WatermarkStatus::IDLE);
    }
  }
  void markActive() override {
    if (idle_) {
      idle_ = false;
      this->emitWatermarkStatusToAll(WatermarkStatus::ACTIVE);
    }
  }

  WatermarkStrategy<T> strategy_;
  std::unique_ptr<WatermarkGenerator<T>> generator_;
  ListState<GeneratorState>* generator_state_ = nullptr;
  Duration interval_ = 0;
  Timestamp last_emitted_ = kMinWatermark;
  bool idle_ = false;
  bool announce_restored_idleness_ = false;  // restored idle: say so again at the first periodic emit
  bool deferring_ = false;
  std::optional<Timestamp> deferred_;
};

}  // namespace tidemark::internal
