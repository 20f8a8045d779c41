// A bounded channel between one producer subtask and one consumer subtask.
//
// It carries batches (batch.h). Capacity is counted in batches. In real-thread
// execution a producer pushing into a full channel blocks until the consumer
// takes a batch (backpressure: a slow sink slows the source, and memory stays
// bounded). In simulated execution nothing blocks: the deterministic scheduler
// asks hasSpace() and does not run a producer whose channel is full.
//
// Thread-safety: one producer thread, one consumer thread; cancel() from any.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "tidemark/internal/runtime/batch.h"
#include "tidemark/internal/runtime/task_wakeup.h"

namespace tidemark::internal {

class ChannelBase {
 public:
  virtual ~ChannelBase() = default;
  virtual bool hasSpace() const = 0;
  virtual bool hasData() const = 0;
  /// Wake and release a blocked producer; later pushes are dropped.
  virtual void cancel() = 0;
};

template <class T>
class Channel final : public ChannelBase {
 public:
  Channel(std::size_t capacity_batches, bool blocking) : capacity_(capacity_batches), blocking_(blocking) {}

  void setConsumerWakeup(TaskWakeup* wakeup) { consumer_wakeup_ = wakeup; }

  /// An empty batch for the producer to fill: a recycled one when available.
  std::unique_ptr<Batch<T>> takeEmptyBatch() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) return std::make_unique<Batch<T>>();
    auto batch = std::move(free_.back());
    free_.pop_back();
    return batch;
  }

  /// Enqueue a batch. Blocks while full (real threads). False if cancelled.
  bool push(std::unique_ptr<Batch<T>> batch) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (blocking_) {
        space_cv_.wait(lock, [this] { return cancelled_ || queue_.size() < capacity_; });
      }
      if (cancelled_) return false;
      queue_.push_back(std::move(batch));
    }
    if (consumer_wakeup_ != nullptr) consumer_wakeup_->notify();
    return true;
  }

  /// The oldest batch, or null when there is none.
  std::unique_ptr<Batch<T>> tryPop() {
    std::unique_ptr<Batch<T>> batch;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (queue_.empty()) return nullptr;
      batch = std::move(queue_.front());
      queue_.pop_front();
    }
    space_cv_.notify_one();
    return batch;
  }

  /// Give a consumed batch back for reuse.
  void recycle(std::unique_ptr<Batch<T>> batch) {
    batch->clear();
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < capacity_ + 2) free_.push_back(std::move(batch));
  }

  bool hasSpace() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.size() < capacity_;
  }
  bool hasData() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return !queue_.empty();
  }
  void cancel() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      cancelled_ = true;
    }
    space_cv_.notify_all();
  }

 private:
  const std::size_t capacity_;
  const bool blocking_;
  TaskWakeup* consumer_wakeup_ = nullptr;
  mutable std::mutex mutex_;
  std::condition_variable space_cv_;
  std::deque<std::unique_ptr<Batch<T>>> queue_;
  std::vector<std::unique_ptr<Batch<T>>> free_;
  bool cancelled_ = false;
};

}  // namespace tidemark::internal
