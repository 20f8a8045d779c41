#include "tidemark/internal/time/watermark_valve.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace tidemark::internal {
namespace {

// `what` names one element: "channel" or "input".
std::size_t checkedCount(int count, std::string_view what) {
  if (count < 1) {
    throw std::invalid_argument(fmt::format("need at least one {}, got {}", what, count));
  }
  return static_cast<std::size_t>(count);
}

void checkIndex(int index, std::size_t count, std::string_view what) {
  if (index < 0 || static_cast<std::size_t>(index) >= count) {
    throw std::out_of_range(fmt::format("{} index {} is out of range for {} {}{}", what, index,
                                        count, what, count == 1 ? "" : "s"));
  }
}

}  // namespace

bool WatermarkUpdate::empty() const { return !watermark.has_value() && !status.has_value(); }

// ---------------------------------------------------------------------------------------------
// WatermarkValve

WatermarkValve::WatermarkValve(int num_channels)
    : channels_(checkedCount(num_channels, "channel")) {}

WatermarkValve::ChannelState& WatermarkValve::channelAt(int channel) {
  checkIndex(channel, channels_.size(), "channel");
  return channels_[static_cast<std::size_t>(channel)];
}

const WatermarkValve::ChannelState& WatermarkValve::channelAt(int channel) const {
  checkIndex(channel, channels_.size(), "channel");
  return channels_[static_cast<std::size_t>(channel)];
}

Timestamp WatermarkValve::channelWatermark(int channel) const {
  return channelAt(channel).watermark;
}

bool WatermarkValve::isChannelIdle(int channel) const { return channelAt(channel).idle; }

bool WatermarkValve::allChannelsIdle() const {
  return std::all_of(channels_.begin(), channels_.end(),
                     [](const ChannelState& c) { return c.idle; });
}

ValveSnapshot WatermarkValve::snapshot() const {
  return ValveSnapshot{channels_, last_output_watermark_, last_output_status_};
}

void WatermarkValve::restore(const ValveSnapshot& snapshot) {
  if (snapshot.channels.size() != channels_.size()) {
    throw std::invalid_argument(
        fmt::format("a valve snapshot of {} channels cannot restore a valve of {}",
                    snapshot.channels.size(), channels_.size()));
  }
  channels_ = snapshot.channels;
  last_output_watermark_ = snapshot.last_output_watermark;
  last_output_status_ = snapshot.last_output_status;
}

void WatermarkValve::startAt(Timestamp watermark) {
  for (ChannelState& c : channels_) c = ChannelState{watermark, false, true};
  last_output_watermark_ = watermark;
  last_output_status_ = WatermarkStatus::ACTIVE;
}

WatermarkUpdate WatermarkValve::inputWatermark(int channel, Timestamp watermark) {
  ChannelState& state = channelAt(channel);
  // An idle channel promised to send nothing; whatever it sends anyway must not
  // move event time, nor be remembered as its position for when it comes back.
  if (last_output_status_ == WatermarkStatus::IDLE || state.idle || watermark <= state.watermark) {
    return {};
  }
  state.watermark = watermark;
  if (!state.aligned && watermark >= last_output_watermark_) {
    state.aligned = true;
  }
  return WatermarkUpdate{.watermark = advanceToMinOfAligned(), .status = std::nullopt};
}

WatermarkUpdate WatermarkValve::inputWatermarkStatus(int channel, WatermarkStatus status) {
  ChannelState& state = channelAt(channel);
  if (status == WatermarkStatus::IDLE && !state.idle) {
    return markIdle(state);
  }
  if (status == WatermarkStatus::ACTIVE && state.idle) {
    return markActive(state);
  }
  return {};
}

WatermarkUpdate WatermarkValve::markIdle(ChannelState& state) {
  state.idle = true;
  state.aligned = false;
  // Only a channel sitting exactly at the emitted watermark can have been the
  // one holding it back; if it was above, dropping it cannot raise the min.
  const bool was_holding_back = state.watermark == last_output_watermark_;
  WatermarkUpdate output;
  if (allChannelsIdle()) {
    // Nobody will advance any more, so event time jumps to the furthest point
    // any channel reached before the input goes quiet.
    if (was_holding_back) {
      output.watermark = advanceToMaxOfAll();
    }
    last_output_status_ = WatermarkStatus::IDLE;
    output.status = WatermarkStatus::IDLE;
  } else if (was_holding_back) {
    output.watermark = advanceToMinOfAligned();
  }
  return output;
}

WatermarkUpdate WatermarkValve::markActive(ChannelState& state) {
  state.idle = false;
  // No recompute: joining the min can only lower it, and a channel at or above
  // the emitted watermark cannot lower it below what is already out.
  state.aligned = state.watermark >= last_output_watermark_;
  if (last_output_status_ == WatermarkStatus::ACTIVE) {
    return {};
  }
  last_output_status_ = WatermarkStatus::ACTIVE;
  return WatermarkUpdate{.watermark = std::nullopt, .status = WatermarkStatus::ACTIVE};
}

std::optional<Timestamp> WatermarkValve::advanceToMinOfAligned() {
  std::optional<Timestamp> min;
  for (const ChannelState& c : channels_) {
    if (c.aligned) {
      min = min.has_value() ? std::min(*min, c.watermark) : c.watermark;
    }
  }
  // With no aligned channel there is no min; treating it as MAX would emit a
  // watermark no channel has reached.
  return min.has_value() ? advanceTo(*min) : std::nullopt;
}

std::optional<Timestamp> WatermarkValve::advanceToMaxOfAll() {
  const auto max = std::max_element(
      channels_.begin(), channels_.end(),
      [](const ChannelState& a, const ChannelState& b) { return a.watermark < b.watermark; });
  return advanceTo(max->watermark);
}

std::optional<Timestamp> WatermarkValve::advanceTo(Timestamp candidate) {
  if (candidate <= last_output_watermark_) {
    return std::nullopt;
  }
  last_output_watermark_ = candidate;
  return candidate;
}

// ---------------------------------------------------------------------------------------------
// CombinedWatermark

CombinedWatermark::CombinedWatermark(int num_inputs) : inputs_(checkedCount(num_inputs, "input")) {}

CombinedWatermark::InputState& CombinedWatermark::inputAt(int input) {
  checkIndex(input, inputs_.size(), "input");
  return inputs_[static_cast<std::size_t>(input)];
}

CombinedWatermarkSnapshot CombinedWatermark::snapshot() const {
  return CombinedWatermarkSnapshot{inputs_, combined_watermark_, idle_};
}

void CombinedWatermark::restore(const CombinedWatermarkSnapshot& snapshot) {
  if (snapshot.inputs.size() != inputs_.size()) {
    throw std::invalid_argument(
        fmt::format("a combined watermark snapshot of {} inputs cannot restore one of {}",
                    snapshot.inputs.size(), inputs_.size()));
  }
  inputs_ = snapshot.inputs;
  combined_watermark_ = snapshot.combined_watermark;
  idle_ = snapshot.idle;
}

void CombinedWatermark::startAt(Timestamp watermark) {
  for (InputState& in : inputs_) in = InputState{watermark, false};
  combined_watermark_ = watermark;
  idle_ = false;
}

WatermarkUpdate CombinedWatermark::updateWatermark(int input, Timestamp watermark) {
  InputState& state = inputAt(input);
  // A watermark proves the input is producing again. Valves never emit one while
  // idle, but if it happens the idle flag and the reported status must agree.
  state.idle = false;
  state.watermark = std::max(state.watermark, watermark);
  return recombine();
}

WatermarkUpdate CombinedWatermark::updateStatus(int input, WatermarkStatus status) {
  inputAt(input).idle = status == WatermarkStatus::IDLE;
  return recombine();
}

WatermarkUpdate CombinedWatermark::recombine() {
  std::optional<Timestamp> min;
  for (const InputState& in : inputs_) {
    if (!in.idle) {
      min = min.has_value() ? std::min(*min, in.watermark) : in.watermark;
    }
  }
  WatermarkUpdate output;
  // All idle: keep the combined value; the valves already flushed their inputs.
  if (min.has_value() && *min > combined_watermark_) {
    combined_watermark_ = *min;
    output.watermark = *min;
  }
  const bool now_idle = !min.has_value();
  if (now_idle != idle_) {
    idle_ = now_idle;
    output.status = now_idle ? WatermarkStatus::IDLE : WatermarkStatus::ACTIVE;
  }
  return output;
}

}  // namespace tidemark::internal
