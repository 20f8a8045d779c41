// The source task's side of SourceContext: records go to the source
// operator's output, and every hooks.tickRecords() records the task gets
// control back (to fire timers, flush buffers, notice cancellation, take a
// snapshot).
#pragma once

#include <cstdint>
#include <utility>

#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"
#include "tidemark/functions/source_function.h"
#include "tidemark/internal/operators/output.h"

namespace tidemark::internal {

inline constexpr std::uint32_t kTickRecords = 64;

/// What a source context needs from its task; real-thread and simulated
/// execution implement it differently.
class SourceHooks {
 public:
  virtual ~SourceHooks() = default;
  /// Called every tickRecords() records: fire due timers, flush on buffer
  /// timeout, throw TaskCancelled when the job stopped.
  virtual void tick() = 0;
  /// How many records go out between two ticks.
  virtual std::uint32_t tickRecords() const { return kTickRecords; }
  virtual void sleep(Duration millis) = 0;
  /// Wait until `fd` is readable or `max_wait` passed; true when readable.
  virtual bool waitReadable(int fd, Duration max_wait) = 0;
  virtual Timestamp currentProcessingTime() const = 0;
  virtual bool isCancelled() const = 0;

  /// The lock the source holds while a snapshot must wait (SourceContext::getCheckpointLock).
  CheckpointLock& checkpointLock() { return checkpoint_lock_; }

 private:
  CheckpointLock checkpoint_lock_;
};

template <class T>
class SourceContextImpl final : public SourceContext<T> {
 public:
  /// `last_watermark`: what the source emitted before a restore (kMinWatermark on a fresh start).
  SourceContextImpl(Output<T>& output, SourceHooks& hooks, int subtask_index, int parallelism,
                    Timestamp last_watermark = kMinWatermark)
      : output_(output),
        hooks_(hooks),
        tick_records_(hooks.tickRecords()),
        subtask_index_(subtask_index),
        parallelism_(parallelism),
        last_watermark_(last_watermark) {}

  void collect(T value) override {
    StreamRecord<T> record{std::move(value), kMinWatermark, false};
    emit(record);
  }

  void collectWithTimestamp(T value, Timestamp timestamp) override {
    StreamRecord<T> record{std::move(value), timestamp, true};
    emit(record);
  }

  void emitWatermark(Timestamp watermark) override {
    if (watermark <= last_watermark_) return;
    last_watermark_ = watermark;
    reactivate();
    output_.emitWatermark(watermark);
  }

  void markAsTemporarilyIdle() override {
    if (!idle_) {
      idle_ = true;
      output_.emitWatermarkStatus(WatermarkStatus::IDLE);
    }
  }

  void sleep(Duration millis) override { hooks_.sleep(millis); }
  bool waitReadable(int fd, Duration max_wait) override { return hooks_.waitReadable(fd, max_wait); }
  Timestamp currentProcessingTime() const override { return hooks_.currentProcessingTime(); }
  bool isCancelled() const override { return hooks_.isCancelled(); }
  int getIndexOfThisSubtask() const override { return subtask_index_; }
  int getNumberOfParallelSubtasks() const override { return parallelism_; }
  Timestamp lastEmittedWatermark() const override { return last_watermark_; }
  CheckpointLock& getCheckpointLock() override { return hooks_.checkpointLock(); }

 private:
  void emit(StreamRecord<T>& record) {
    reactivate();
    output_.collect(record);
    if (++since_tick_ == tick_records_) {
      since_tick_ = 0;
      hooks_.tick();
    }
  }

  void reactivate() {
    if (idle_) {
      idle_ = false;
      output_.emitWatermarkStatus(WatermarkStatus::ACTIVE);
    }
  }

  Output<T>& output_;
  SourceHooks& hooks_;
  std::uint32_t tick_records_;
  int subtask_index_;
  int parallelism_;
  std::uint32_t since_tick_ = 0;
  Timestamp last_watermark_ = kMinWatermark;
  bool idle_ = false;
};

}  // namespace tidemark::internal
