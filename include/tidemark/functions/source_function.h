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
// A source that implements CheckpointedFunction keeps its position in
// checkpoints, and a restored job goes on from there. A snapshot is taken
// only inside a call to the context (collect, emitWatermark, sleep,
// waitReadable), after that call's record went out; so a source either
// updates its position before it emits, or emits and updates the position
// under ctx.getCheckpointLock(). A source without CheckpointedFunction starts
// again from its beginning after a restore, as in Flink.
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

#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"
#include "tidemark/functions/checkpoint_lock.h"

namespace tidemark {

/// How a source function emits; the source task implements it.
template <class T>
class SourceContext {
 public:
  virtual ~SourceContext() = default;
  SourceContext(const SourceContext&) = delete;
  SourceContext& operator=(const SourceContext&) = delete;

  /// Emit a record without a timestamp (a timestamp assigner may give it one).
  virtual void collect(T value) = 0;
  /// Emit a record with an event timestamp.
  virtual void collectWithTimestamp(T value, Timestamp timestamp) = 0;

  /// Emit a watermark from the source itself. Like every watermark, it only
  /// goes downstream when larger than the last one.
  virtual void emitWatermark(Timestamp watermark) = 0;
  /// Tell downstream not to wait for this source's watermarks until it emits again.
  virtual void markAsTemporarilyIdle() = 0;

  /// Sleep on the job's clock (virtual in simulated time).
  virtual void sleep(Duration millis) = 0;
  /// Wait until `fd` is readable; timers keep firing meanwhile. True when readable.
  virtual bool waitReadable(int fd, Duration max_wait) = 0;

  virtual Timestamp currentProcessingTime() const = 0;
  virtual bool isCancelled() const = 0;
  virtual int getIndexOfThisSubtask() const = 0;
  virtual int getNumberOfParallelSubtasks() const = 0;
  /// The last watermark this source emitted itself (kMinWatermark if none).
  virtual Timestamp lastEmittedWatermark() const = 0;
  /// Hold it while emitting and recording the position (see the file comment).
  virtual CheckpointLock& getCheckpointLock() = 0;

 protected:
  SourceContext() = default;
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
