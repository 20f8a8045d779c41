// One logical input of a task: the channels from every upstream subtask (of
// every unioned stream), the watermark valve over them, and the operator input
// they feed.
//
// processOneBatch() takes at most one batch, from the next channel in round
// robin order that has one, and delivers its records, watermarks and status
// changes in order. Watermarks and status pass through the valve, so the
// operator only sees the minimum over active channels, strictly increasing.
//
// Barriers and ends of channels go to the task's CheckpointBarrierHandler.
// A channel it blocks keeps the rest of its batch here (the batch and where
// to resume) and is skipped until the handler releases it; then that batch
// goes on before any other.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/describe.h"
#include "tidemark/internal/core/operator_failure.h"
#include "tidemark/internal/operators/output.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/runtime/channel.h"
#include "tidemark/internal/runtime/checkpoint_barrier_handler.h"
#include "tidemark/internal/time/watermark_valve.h"

namespace tidemark::internal {

class InputProcessor {
 public:
  enum class Result { PROCESSED, NOTHING_AVAILABLE, ENDED };
  virtual ~InputProcessor() = default;
  virtual Result processOneBatch() = 0;
  virtual bool ended() const = 0;
  /// Barriers and ends of this input's channels go to `handler` from now on.
  virtual void attachBarrierHandler(CheckpointBarrierHandler& handler) = 0;
  /// The event time of this input's channels: snapshotted with the task's
  /// head operator, restored before the task runs.
  virtual WatermarkValve& valve() = 0;
};

template <class T>
class ChannelInputProcessor final : public InputProcessor {
 public:
  ChannelInputProcessor(std::vector<Channel<T>*> channels, Input<T>& target, OperatorBase& target_operator)
      : channels_(std::move(channels)),
        channel_ended_(channels_.size(), false),
        held_(channels_.size()),
        valve_(static_cast<int>(channels_.size())),
        target_(target),
        target_operator_(target_operator) {}

  Result processOneBatch() override {
    if (ended()) return Result::ENDED;
    if (held_count_ > 0 && resumeReleasedChannel()) return Result::PROCESSED;
    const std::size_t n = channels_.size();
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t c = (next_channel_ + k) % n;
      if (channel_ended_[c] || held_[c].batch != nullptr) continue;
      if (auto batch = channels_[c]->tryPop()) {
        next_channel_ = (c + 1) % n;
        target_operator_.addRecordsIn(batch->records.size());
        deliver(c, std::move(batch), 0, 0);
        return Result::PROCESSED;
      }
    }
    return ended() ? Result::ENDED : Result::NOTHING_AVAILABLE;
  }

  bool ended() const override { return ended_channels_ == channels_.size(); }

  void attachBarrierHandler(CheckpointBarrierHandler& handler) override {
    barriers_ = &handler;
    first_channel_ = handler.addChannels(channels_.size());
  }

  WatermarkValve& valve() override { return valve_; }

 private:
  /// The rest of a batch whose channel a barrier blocked.
  struct HeldBatch {
    std::unique_ptr<Batch<T>> batch;
    std::size_t record = 0;
    std::size_t control = 0;
  };

  /// Goes on with a held batch whose channel the handler released, if any.
  bool resumeReleasedChannel() {
    for (std::size_t c = 0; c < held_.size(); ++c) {
      if (held_[c].batch == nullptr || barriers_->isBlocked(first_channel_ + c)) continue;
      HeldBatch held = std::move(held_[c]);
      held_[c] = HeldBatch{};
      --held_count_;
      deliver(c, std::move(held.batch), held.record, held.control);
      return true;
    }
    return false;
  }

  /// Delivers `batch` from record `i` and control `next_control` on, until
  /// its end or until a barrier blocks the channel (then the rest is held).
  void deliver(std::size_t channel, std::unique_ptr<Batch<T>> owned, std::size_t i, std::size_t next_control) {
    Batch<T>& batch = *owned;
    bool blocked = false;
    auto what = [&] {
      return i < batch.records.size() ? describeElement(batch.records[i].value)
                                      : std::string("a watermark status change");
    };
    callNamingFailures([this] { return target_operator_.context().description(); }, what, [&] {
      // The records up to the next control in a loop of their own: the
      // per-record path tests nothing but the end of the run.
      const std::size_t records = batch.records.size();
      const std::size_t controls = batch.controls.size();
      while (true) {
        const std::size_t run_end = next_control < controls ? batch.controls[next_control].position : records;
        for (; i < run_end; ++i) target_.processElement(batch.records[i]);
        if (next_control == controls) return;
        if (!handleControl(channel, batch.controls[next_control++])) {
          blocked = true;
          return;
        }
      }
    });
    if (blocked) {
      held_[channel] = HeldBatch{std::move(owned), i, next_control};
      ++held_count_;
      return;
    }
    channels_[channel]->recycle(std::move(owned));
  }

  /// False when the control blocked the channel.
  bool handleControl(std::size_t channel, const ControlElement& control) {
    const int c = static_cast<int>(channel);
    switch (control.kind) {
      case ControlKind::WATERMARK:
        deliverWatermarkUpdate(valve_.inputWatermark(c, control.watermark));
        break;
      case ControlKind::STATUS:
        deliverWatermarkUpdate(valve_.inputWatermarkStatus(c, control.status));
        break;
      case ControlKind::BARRIER:
        return barriers_ == nullptr || !barriers_->onBarrier(first_channel_ + channel, control.checkpoint_id);
      case ControlKind::END_OF_INPUT:
        channel_ended_[channel] = true;
        ++ended_channels_;
        if (barriers_ != nullptr) barriers_->onEndOfChannel(first_channel_ + channel);
        break;
    }
    return true;
  }

  void deliverWatermarkUpdate(const WatermarkUpdate& output) {
    if (output.watermark) {
      callNamingFailures(
          [this] { return target_operator_.context().description(); }, [&] { return fmt::format("watermark {}", *output.watermark); },
          [&] { target_.processWatermark(*output.watermark); });
    }
    if (output.status) target_.processWatermarkStatus(*output.status);
  }

  std::vector<Channel<T>*> channels_;
  std::vector<bool> channel_ended_;
  std::size_t ended_channels_ = 0;
  std::size_t next_channel_ = 0;
  std::vector<HeldBatch> held_;
  std::size_t held_count_ = 0;
  CheckpointBarrierHandler* barriers_ = nullptr;
  std::size_t first_channel_ = 0;
  WatermarkValve valve_;
  Input<T>& target_;
  OperatorBase& target_operator_;
};

}  // namespace tidemark::internal
