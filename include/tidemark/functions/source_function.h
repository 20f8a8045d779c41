// SourceFunction: a user-defined source, as in Flink's legacy source API.
//
// run(ctx) emits records through the context and returns when the input ends
// (a bounded source); the runtime then sends the MAX watermark, which fires
// every pending event-time timer downstream. cancel() is called from another
// thread when the job stops; run() should return soon after (ctx.isCancelled()
// tells, and ctx.sleep() / ctx.collect() throw to unwind a source that keeps
// going).
//
// A source that waits must wait through the context (ctx.sleep,
// ctx.waitReadable): that is how the same source runs in real time and in
// simulated time, where a 5 s sleep costs no wall time, and how the task keeps
// emitting periodic watermarks while the source waits.
//
// Every parallel subtask runs its own copy of the function (user functions are
// copied, the way Flink serializes them), so a parallel source reads
// ctx.getIndexOfThisSubtask() to pick its share.
//
// Example:
//   class Counter : public tidemark::SourceFunction<int64_t> {
//    public:
//     void run(tidemark::SourceContext<int64_t>& ctx) override {
//       for (int64_t i = 0; i < 10 && !ctx.isCancelled(); ++i) {
//         ctx.collectWithTimestamp(i, i * 1000);
//         ctx.sleep(1000);
//       }
//     }
//   };
//   env.addSource(Counter{}).print();
#pragma once

#include <cstdint>
#include <utility>

#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"
#include "tidemark/internal/operators/output.h"

namespace tidemark {

namespace internal {

/// What a source context needs from its task; real-thread and simulated
/// execution implement it differently.
class SourceHooks {
 public:
  virtual ~SourceHooks() = default;
  /// Called every kTickRecords records: fire due timers, flush on buffer
  /// timeout, throw TaskCancelled when the job stopped.
  virtual void tick() = 0;
  virtual void sleep(Duration millis) = 0;
  /// Wait until `fd` is readable or `max_wait` passed; true when readable.
  virtual bool waitReadable(int fd, Duration max_wait) = 0;
  virtual Timestamp currentProcessingTime() const = 0;
  virtual bool isCancelled() const = 0;
};

inline constexpr std::uint32_t kTickRecords = 64;

}  // namespace internal

template <class T>
class SourceContext {
 public:
  SourceContext(internal::Output<T>& output, internal::SourceHooks& hooks, int subtask_index, int parallelism)
      : output_(output), hooks_(hooks), subtask_index_(subtask_index), parallelism_(parallelism) {}

  /// Emit a record without a timestamp (a timestamp assigner may give it one).
  void collect(T value) {
    StreamRecord<T> record{std::move(value), kMinWatermark, false};
    emit(record);
  }

  /// Emit a record with an event timestamp.
  void collectWithTimestamp(T value, Timestamp timestamp) {
    StreamRecord<T> record{std::move(value), timestamp, true};
    emit(record);
  }

  /// Emit a watermark from the source itself. Like every watermark, it only
  /// goes downstream when larger than the last one.
  void emitWatermark(Timestamp watermark) {
    if (watermark <= last_watermark_) return;
    last_watermark_ = watermark;
    reactivate();
    output_.emitWatermark(watermark);
  }

  /// Tell downstream not to wait for this source's watermarks until it emits again.
  void markAsTemporarilyIdle() {
    if (!idle_) {
      idle_ = true;
      output_.emitWatermarkStatus(WatermarkStatus::IDLE);
    }
  }

  /// Sleep on the job's clock (virtual in simulated time).
  void sleep(Duration millis) { hooks_.sleep(millis); }

  /// Wait until `fd` is readable; timers keep firing meanwhile. True when readable.
  bool waitReadable(int fd, Duration max_wait) { return hooks_.waitReadable(fd, max_wait); }

  Timestamp currentProcessingTime() const { return hooks_.currentProcessingTime(); }
  bool isCancelled() const { return hooks_.isCancelled(); }
  int getIndexOfThisSubtask() const { return subtask_index_; }
  /// The last watermark this source emitted itself (kMinWatermark if none).
  Timestamp lastEmittedWatermark() const { return last_watermark_; }
  int getNumberOfParallelSubtasks() const { return parallelism_; }

 private:
  void emit(StreamRecord<T>& record) {
    reactivate();
    output_.collect(record);
    if (++since_tick_ == internal::kTickRecords) {
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

  internal::Output<T>& output_;
  internal::SourceHooks& hooks_;
  int subtask_index_;
  int parallelism_;
  std::uint32_t since_tick_ = 0;
  Timestamp last_watermark_ = kMinWatermark;
  bool idle_ = false;
};

template <class T>
class SourceFunction {
 public:
  using OutputType = T;
  virtual ~SourceFunction() = default;
  virtual void open() {}
  virtual void run(SourceContext<T>& ctx) = 0;
  virtual void cancel() {}
  virtual void close() {}
};

}  // namespace tidemark
