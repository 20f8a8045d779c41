// Collect a stream into memory, for tests and small programs.
//
// DataStream::collectToMemory() returns a handle to a CollectedRecords<T>;
// after execute() it holds every record (value and timestamp) the sink's
// subtasks received, in arrival order per subtask. Safe to read after
// execute() returns; appends from parallel subtasks are serialized.
//
// Across restarts it holds each record once: a job that restarts from a
// checkpoint replays what came after it, so the sink first takes back what
// it collected after that checkpoint (everything, when the job restarts
// from the beginning). With EXACTLY_ONCE checkpoints the collection then
// equals a run without failures.
//
// Example:
//   auto results = stream.collectToMemory();
//   env.execute();
//   EXPECT_EQ(results->values(), (std::vector<int>{1, 2, 3}));
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "tidemark/core/stream_record.h"
#include "tidemark/functions/checkpointed_function.h"
#include "tidemark/functions/sink_function.h"

namespace tidemark {

template <class T>
class CollectedRecords {
 public:
  /// `epoch`: the last checkpoint the adding subtask took before (0: none).
  void add(const T& value, std::optional<Timestamp> timestamp, std::int64_t epoch = 0) {
    std::lock_guard<std::mutex> lock(mutex_);
    records_.push_back(StreamRecord<T>{value, timestamp.value_or(kMinWatermark), timestamp.has_value()});
    epochs_.push_back(epoch);
  }
  /// For restart `attempt` of the job, restored from checkpoint
  /// `checkpoint_id` (0: none): removes every record added after its subtask
  /// took that checkpoint (0: every record), keeping the others in order.
  /// Only the first call for an attempt does so: the others come from
  /// subtasks that may open after the first records of the attempt came.
  void takeBackForAttempt(int attempt, std::int64_t checkpoint_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (attempt <= taken_back_for_attempt_) return;
    taken_back_for_attempt_ = attempt;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < records_.size(); ++i) {
      if (epochs_[i] >= checkpoint_id) continue;
      if (kept != i) {  // a self-move would empty the value
        records_[kept] = std::move(records_[i]);
        epochs_[kept] = epochs_[i];
      }
      ++kept;
    }
    records_.resize(kept);
    epochs_.resize(kept);
  }
  std::vector<StreamRecord<T>> records() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return records_;
  }
  std::vector<T> values() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<T> out;
    out.reserve(records_.size());
    for (const auto& r : records_) out.push_back(r.value);
    return out;
  }
  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return records_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<StreamRecord<T>> records_;
  std::vector<std::int64_t> epochs_;  // per record: see add()
  int taken_back_for_attempt_ = 0;
};

/// A CheckpointedFunction only to learn of checkpoints and restarts: it
/// keeps no state of its own in them.
template <class T>
class CollectSinkFunction final : public SinkFunction<T>, public CheckpointedFunction {
 public:
  explicit CollectSinkFunction(std::shared_ptr<CollectedRecords<T>> target) : target_(std::move(target)) {}
  void invoke(const T& value, const typename SinkFunction<T>::Context& context) override {
    target_->add(value, context.timestamp, epoch_);
  }
  void snapshotState(const FunctionSnapshotContext& context) override { epoch_ = context.getCheckpointId(); }
  void initializeState(FunctionInitializationContext& context) override {
    epoch_ = context.getRestoredCheckpointId().value_or(0);
    if (context.getAttemptNumber() > 0) target_->takeBackForAttempt(context.getAttemptNumber(), epoch_);
  }

 private:
  std::shared_ptr<CollectedRecords<T>> target_;
  std::int64_t epoch_ = 0;
};

}  // namespace tidemark
