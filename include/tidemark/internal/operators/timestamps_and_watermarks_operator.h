// assignTimestampsAndWatermarks: stamps records and generates watermarks.
//
// Per docs/semantics.md 1.2: the record is emitted before the generator sees it (so a
// punctuated watermark follows its event); periodic emission runs every
// auto-watermark interval of processing time, starting one interval after
// open; watermarks from upstream are ignored except MAX (end of input must
// pass); at end of input the generator emits one last time. Only strictly
// increasing watermarks leave the operator.
#pragma once

#include <optional>
#include <utility>

#include "tidemark/eventtime/watermark_strategy.h"
#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark::internal {

template <class T>
class TimestampsAndWatermarksOperator final : public OneInputOperator<T, T>, private tidemark::WatermarkOutput {
 public:
  OperatorSnapshot snapshotState(std::int64_t) const override {
    return this->refuseSnapshot("watermark generator state");
  }

  explicit TimestampsAndWatermarksOperator(WatermarkStrategy<T> strategy) : strategy_(std::move(strategy)) {}

  void open() override {
    auto& time = this->processingTimeService();
    generator_ = strategy_.createWatermarkGenerator(
        WatermarkGeneratorContext([&time] { return time.currentProcessingTime(); }));
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
  void schedulePeriodicEmit(Timestamp at) {
    this->processingTimeService().registerTimer(at, [this](Timestamp now) {
      generator_->onPeriodicEmit(*this);
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
  Duration interval_ = 0;
  Timestamp last_emitted_ = kMinWatermark;
  bool idle_ = false;
  bool deferring_ = false;
  std::optional<Timestamp> deferred_;
};

}  // namespace tidemark::internal
