// Event time of one operator input that is fed by several upstream channels.
//
// A logical input of an operator receives watermarks and watermark statuses
// from N channels (one per upstream subtask; after `union`, one per subtask of
// every unioned stream). Event time may only advance to a point that every
// channel still able to send data has passed, so the valve reduces the N
// per-channel streams of watermarks and statuses to one stream for the
// operator (docs/semantics.md 2.1):
// - each channel's watermark is monotonic; a watermark not above the
//   channel's previous one is dropped;
// - the input's watermark is the min over the active channels that are
//   "aligned" (not lagging behind what was already emitted), and it is
//   emitted only when it strictly increases;
// - idle channels do not hold event time back; when every channel is idle the
//   valve flushes the max watermark it has seen and reports IDLE; the first
//   channel to come back reports ACTIVE.
//
// Two-input (and k-input) operators run one valve per input and then combine
// the valved results with CombinedWatermark (docs/semantics.md 2.3).
//
// Contract: not thread-safe. Each instance belongs to the task that owns the
// input and is called only from that task's thread. Every call returns what
// the operator must do now; when an output carries both a watermark and a
// status, the operator handles the watermark first.
//
// snapshot() and restore() hand a valve's or a combiner's whole state over, so
// that a restored one goes on where the original stood: a channel that was
// idle stays idle and holds nothing back, one that was not aligned stays out
// of the minimum. startAt() is for a restore at another parallelism, where
// channels do not map one to one: every channel starts at one watermark.
#pragma once

#include <optional>
#include <tuple>
#include <vector>

#include "tidemark/core/time.h"

namespace tidemark::internal {

/// What the valve (or the combiner) tells its operator to do. When both are
/// set, the watermark is emitted before the status.
struct WatermarkUpdate {
  std::optional<Timestamp> watermark;
  std::optional<WatermarkStatus> status;

  bool empty() const;
};

/// A valve's state in a checkpoint.
struct ValveSnapshot {
  struct Channel {
    Timestamp watermark = kMinWatermark;
    bool idle = false;
    // False while a channel that came back from idleness is still below what
    // the valve already emitted: letting it into the min would have to move
    // event time backwards, so it is left out until it catches up.
    bool aligned = true;

    auto fields() { return std::tie(watermark, idle, aligned); }
    friend bool operator==(const Channel&, const Channel&) = default;
  };
  std::vector<Channel> channels;
  Timestamp last_output_watermark = kMinWatermark;
  WatermarkStatus last_output_status = WatermarkStatus::ACTIVE;

  auto fields() { return std::tie(channels, last_output_watermark, last_output_status); }
  friend bool operator==(const ValveSnapshot&, const ValveSnapshot&) = default;
};

/// A CombinedWatermark's state in a checkpoint.
struct CombinedWatermarkSnapshot {
  struct Input {
    Timestamp watermark = kMinWatermark;
    bool idle = false;

    auto fields() { return std::tie(watermark, idle); }
    friend bool operator==(const Input&, const Input&) = default;
  };
  std::vector<Input> inputs;
  Timestamp combined_watermark = kMinWatermark;
  bool idle = false;

  auto fields() { return std::tie(inputs, combined_watermark, idle); }
  friend bool operator==(const CombinedWatermarkSnapshot&,
                         const CombinedWatermarkSnapshot&) = default;
};

/// One logical input of an operator receiving from N channels.
class WatermarkValve {
 public:
  /// Throws std::invalid_argument unless num_channels >= 1.
  explicit WatermarkValve(int num_channels);

  /// A watermark arrived on `channel`. Throws std::out_of_range for a bad index.
  [[nodiscard]] WatermarkUpdate inputWatermark(int channel, Timestamp watermark);
  /// A status arrived on `channel`. Throws std::out_of_range for a bad index.
  [[nodiscard]] WatermarkUpdate inputWatermarkStatus(int channel, WatermarkStatus status);

  /// The last watermark emitted (kMinWatermark before the first one).
  Timestamp lastOutputWatermark() const { return last_output_watermark_; }
  /// The last status emitted (ACTIVE initially).
  WatermarkStatus lastOutputStatus() const { return last_output_status_; }
  int numChannels() const { return static_cast<int>(channels_.size()); }

  Timestamp channelWatermark(int channel) const;
  bool isChannelIdle(int channel) const;

  ValveSnapshot snapshot() const;
  /// Goes on from `snapshot`. Throws std::invalid_argument when it was taken
  /// over another number of channels.
  void restore(const ValveSnapshot& snapshot);
  /// After a restore at another parallelism: every channel active at
  /// `watermark`, which counts as emitted already.
  void startAt(Timestamp watermark);

 private:
  // The channels' state is kept as its snapshot form, so that a snapshot and
  // a restore are plain copies.
  using ChannelState = ValveSnapshot::Channel;

  ChannelState& channelAt(int channel);
  const ChannelState& channelAt(int channel) const;
  bool allChannelsIdle() const;

  WatermarkUpdate markIdle(ChannelState& state);
  WatermarkUpdate markActive(ChannelState& state);
  std::optional<Timestamp> advanceToMinOfAligned();
  std::optional<Timestamp> advanceToMaxOfAll();
  std::optional<Timestamp> advanceTo(Timestamp candidate);

  std::vector<ChannelState> channels_;
  Timestamp last_output_watermark_ = kMinWatermark;
  WatermarkStatus last_output_status_ = WatermarkStatus::ACTIVE;
};

/// Combines the already-valved watermarks of k logical inputs (two-input
/// operators, docs/semantics.md 2.3). Same threading contract as WatermarkValve.
class CombinedWatermark {
 public:
  /// Throws std::invalid_argument unless num_inputs >= 1.
  explicit CombinedWatermark(int num_inputs);

  /// The valve of `input` emitted `watermark`. Throws std::out_of_range for a bad index.
  [[nodiscard]] WatermarkUpdate updateWatermark(int input, Timestamp watermark);
  /// The valve of `input` emitted `status`. Throws std::out_of_range for a bad index.
  [[nodiscard]] WatermarkUpdate updateStatus(int input, WatermarkStatus status);

  /// The last combined watermark emitted (kMinWatermark before the first one).
  Timestamp combinedWatermark() const { return combined_watermark_; }
  /// True while every input is idle.
  bool isIdle() const { return idle_; }

  CombinedWatermarkSnapshot snapshot() const;
  /// Goes on from `snapshot`. Throws std::invalid_argument when it was taken
  /// over another number of inputs.
  void restore(const CombinedWatermarkSnapshot& snapshot);
  /// After a restore at another parallelism: every input active at `watermark`.
  void startAt(Timestamp watermark);

 private:
  using InputState = CombinedWatermarkSnapshot::Input;

  InputState& inputAt(int input);
  WatermarkUpdate recombine();

  std::vector<InputState> inputs_;
  Timestamp combined_watermark_ = kMinWatermark;
  bool idle_ = false;
};

}  // namespace tidemark::internal
