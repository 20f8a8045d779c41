// The tail of a task's chain: buffers records per downstream channel and hands
// full batches to the channels.
//
// When a batch is sent: when it is full (kBatchSize records), when the task
// flushes (before it waits for input, at the end of each simulated step, after
// the buffer timeout), or at end of input. With a buffer timeout of 0 every
// record is sent at once. Watermarks and status go to every channel; a
// checkpoint barrier too, after every record before it, and at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "tidemark/internal/core/operator_failure.h"
#include "tidemark/internal/operators/output.h"
#include "tidemark/internal/runtime/channel.h"

namespace tidemark::internal {

/// What the task needs of a writer regardless of element type.
class ChannelWriter {
 public:
  virtual ~ChannelWriter() = default;
  /// Send every non-empty buffered batch.
  virtual void flush() = 0;
  /// Append the barrier of `checkpoint_id` to every channel and send it.
  virtual void emitBarrier(std::int64_t checkpoint_id) = 0;
  /// Append end-of-input to every channel and flush.
  virtual void sendEndOfInput() = 0;
  /// Whether every channel can take another batch without blocking.
  virtual bool hasSpace() const = 0;
};

/// Told when a push filled a channel (simulated sources yield there).
class BackpressureListener {
 public:
  virtual ~BackpressureListener() = default;
  virtual void onChannelFull() = 0;
};

inline constexpr std::size_t kBatchSize = 1024;

template <class T, class Partitioner>
class RecordWriter final : public Output<T>, public ChannelWriter {
 public:
  RecordWriter(std::vector<Channel<T>*> channels, Partitioner partitioner, bool flush_every_record,
               BackpressureListener* backpressure)
      : channels_(std::move(channels)),
        partitioner_(std::move(partitioner)),
        flush_every_record_(flush_every_record),
        backpressure_(backpressure) {
    for (auto* channel : channels_) batches_.push_back(channel->takeEmptyBatch());
  }

  void collect(StreamRecord<T>& record) override {
    const int n = static_cast<int>(channels_.size());
    if constexpr (Partitioner::kBroadcast) {
      for (int c = 0; c + 1 < n; ++c) append(c, StreamRecord<T>(record));
      append(n - 1, std::move(record));
    } else {
      append(partitioner_.select(record.value, n), std::move(record));
    }
  }

  void emitWatermark(Timestamp watermark) override {
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      batches_[c]->addControl(ControlKind::WATERMARK, watermark);
      if (flush_every_record_) send(c);
    }
  }

  void emitWatermarkStatus(WatermarkStatus status) override {
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      batches_[c]->addControl(ControlKind::STATUS, kMinWatermark, status);
      if (flush_every_record_) send(c);
    }
  }

  void flush() override {
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      if (!batches_[c]->empty()) send(c);
    }
  }

  void emitBarrier(std::int64_t checkpoint_id) override {
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      batches_[c]->addControl(ControlKind::BARRIER, kMinWatermark, WatermarkStatus::ACTIVE, checkpoint_id);
      send(c);
    }
  }

  void sendEndOfInput() override {
    for (auto& batch : batches_) batch->addControl(ControlKind::END_OF_INPUT);
    flush();
  }

  bool hasSpace() const override {
    for (auto* channel : channels_) {
      if (!channel->hasSpace()) return false;
    }
    return true;
  }

 private:
  void append(int channel, StreamRecord<T>&& record) {
    auto& batch = *batches_[static_cast<std::size_t>(channel)];
    batch.records.push_back(std::move(record));
    if (flush_every_record_ || batch.records.size() >= kBatchSize) send(static_cast<std::size_t>(channel));
  }

  void send(std::size_t c) {
    auto full = std::exchange(batches_[c], channels_[c]->takeEmptyBatch());
    if (!channels_[c]->push(std::move(full))) throw TaskCancelled();
    if (backpressure_ != nullptr && !channels_[c]->hasSpace()) backpressure_->onChannelFull();
  }

  std::vector<Channel<T>*> channels_;
  std::vector<std::unique_ptr<Batch<T>>> batches_;
  Partitioner partitioner_;
  bool flush_every_record_;
  BackpressureListener* backpressure_;
};

}  // namespace tidemark::internal
