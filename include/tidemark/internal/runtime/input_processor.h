// One logical input of a task: the channels from every upstream subtask (of
// every unioned stream), the watermark valve over them, and the operator input
// they feed.
//
// processOneBatch() takes at most one batch, from the next channel in round
// robin order that has one, and delivers its records, watermarks and status
// changes in order. Watermarks and status pass through the valve, so the
// operator only sees the minimum over active channels, strictly increasing.
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
#include "tidemark/internal/time/watermark_valve.h"

namespace tidemark::internal {

class InputProcessor {
 public:
  enum class Result { PROCESSED, NOTHING_AVAILABLE, ENDED };
  virtual ~InputProcessor() = default;
  virtual Result processOneBatch() = 0;
  virtual bool ended() const = 0;
};

template <class T>
class ChannelInputProcessor final : public InputProcessor {
 public:
  ChannelInputProcessor(std::vector<Channel<T>*> channels, Input<T>& target, OperatorBase& target_operator)
      : channels_(std::move(channels)),
        channel_ended_(channels_.size(), false),
        valve_(static_cast<int>(channels_.size())),
        target_(target),
        target_operator_(target_operator) {}

  Result processOneBatch() override {
    if (ended()) return Result::ENDED;
    const std::size_t n = channels_.size();
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t c = (next_channel_ + k) % n;
      if (channel_ended_[c]) continue;
      if (auto batch = channels_[c]->tryPop()) {
        next_channel_ = (c + 1) % n;
        target_operator_.addRecordsIn(batch->records.size());
        deliver(c, *batch);
        channels_[c]->recycle(std::move(batch));
        return Result::PROCESSED;
      }
    }
    return ended() ? Result::ENDED : Result::NOTHING_AVAILABLE;
  }

  bool ended() const override { return ended_channels_ == channels_.size(); }

 private:
  void deliver(std::size_t channel, Batch<T>& batch) {
    std::size_t i = 0;
    std::size_t next_control = 0;
    auto what = [&] {
      return i < batch.records.size() ? describeElement(batch.records[i].value)
                                      : std::string("a watermark status change");
    };
    callNamingFailures([this] { return target_operator_.context().description(); }, what, [&] {
      for (; i < batch.records.size(); ++i) {
        while (next_control < batch.controls.size() && batch.controls[next_control].position == i) {
          handleControl(channel, batch.controls[next_control++]);
        }
        target_.processElement(batch.records[i]);
      }
      while (next_control < batch.controls.size()) handleControl(channel, batch.controls[next_control++]);
    });
  }

  void handleControl(std::size_t channel, const ControlElement& control) {
    const int c = static_cast<int>(channel);
    switch (control.kind) {
      case ControlKind::WATERMARK:
        deliverWatermarkUpdate(valve_.inputWatermark(c, control.watermark));
        break;
      case ControlKind::STATUS:
        deliverWatermarkUpdate(valve_.inputWatermarkStatus(c, control.status));
        break;
      case ControlKind::END_OF_INPUT:
        channel_ended_[channel] = true;
        ++ended_channels_;
        break;
    }
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
  WatermarkValve valve_;
  Input<T>& target_;
  OperatorBase& target_operator_;
};

}  // namespace tidemark::internal
