// Collect a stream into memory, for tests and small programs.
//
// DataStream::collectToMemory() returns a handle to a CollectedRecords<T>;
// after execute() it holds every record (value and timestamp) the sink's
// subtasks received, in arrival order per subtask. Safe to read after
// execute() returns; appends from parallel subtasks are serialized.
//
// Example:
//   auto results = stream.collectToMemory();
//   env.execute();
//   EXPECT_EQ(results->values(), (std::vector<int>{1, 2, 3}));
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "tidemark/core/stream_record.h"
#include "tidemark/functions/sink_function.h"

namespace tidemark {

template <class T>
class CollectedRecords {
 public:
  void add(const T& value, std::optional<Timestamp> timestamp) {
    std::lock_guard<std::mutex> lock(mutex_);
    records_.push_back(StreamRecord<T>{value, timestamp.value_or(kMinWatermark), timestamp.has_value()});
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
};

template <class T>
class CollectSinkFunction final : public SinkFunction<T> {
 public:
  explicit CollectSinkFunction(std::shared_ptr<CollectedRecords<T>> target) : target_(std::move(target)) {}
  void invoke(const T& value, const typename SinkFunction<T>::Context& context) override {
    target_->add(value, context.timestamp);
  }

 private:
  std::shared_ptr<CollectedRecords<T>> target_;
};

}  // namespace tidemark
