// WatermarkStrategy: how a stream gets event timestamps and watermarks.
//
// A strategy combines a timestamp assigner (event -> timestamp) and a
// watermark generator (what event time has certainly passed). Apply it with
// DataStream::assignTimestampsAndWatermarks(strategy). Built-in generators
// follow Flink exactly:
// - forBoundedOutOfOrderness(d): watermark = max timestamp seen - d - 1,
//   emitted periodically (every auto-watermark interval, 200 ms by default);
//   nothing is emitted before the first event.
// - forMonotonousTimestamps(): the same with d = 0 (watermark = max - 1).
// - noWatermarks(): never emits; only the end-of-input MAX watermark flows.
// - forGenerator(supplier): your own WatermarkGenerator (periodic or
//   punctuated).
// - withIdleness(t): marks the stream idle when no event arrived for more
//   than t (checked at periodic emissions), so downstream operators stop
//   waiting for it; the next event makes it active again.
// Watermarks are forwarded only when strictly larger than the last one.
//
// A generator keeps its state in checkpoints when it overrides snapshotState
// and restoreState (the built-in ones do: the largest timestamp seen, and the
// idleness countdown on the processing-time clock); one that does not starts
// afresh after a restore, as every generator does in Flink. Rescaled, every
// generator starts afresh: its state belongs to the subtask that made it.
//
// Example:
//   auto strategy = tidemark::WatermarkStrategy<Event>::forBoundedOutOfOrderness(2000)
//                       .withTimestampAssigner([](const Event& e, tidemark::Timestamp) { return e.timestamp; });
//   auto timed = events.assignTimestampsAndWatermarks(strategy);
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "tidemark/core/time.h"
#include "tidemark/serialization/data_input.h"
#include "tidemark/serialization/data_output.h"

namespace tidemark {

/// Where a generator emits watermarks and idleness.
class WatermarkOutput {
 public:
  virtual ~WatermarkOutput() = default;
  virtual void emitWatermark(Timestamp watermark) = 0;
  virtual void markIdle() = 0;
  virtual void markActive() = 0;
};

template <class T>
class WatermarkGenerator {
 public:
  virtual ~WatermarkGenerator() = default;
  /// Called for every event, after it was emitted; punctuated generators emit here.
  virtual void onEvent(const T& event, Timestamp event_timestamp, WatermarkOutput& output) = 0;
  /// Called every auto-watermark interval (and once at end of input).
  virtual void onPeriodicEmit(WatermarkOutput& output) = 0;
  /// Write what a restored generator needs to go on (nothing by default).
  virtual void snapshotState(DataOutput& out) const { (void)out; }
  /// Read what snapshotState() wrote; a short or corrupt input throws SerializationError.
  virtual void restoreState(DataInput& in) { (void)in; }
};

/// What a generator may ask of its operator while it is created.
class WatermarkGeneratorContext {
 public:
  explicit WatermarkGeneratorContext(std::function<Timestamp()> processing_time)
      : processing_time_(std::move(processing_time)) {}
  /// The processing-time clock of the task (virtual in simulated time).
  Timestamp currentProcessingTime() const { return processing_time_(); }

 private:
  std::function<Timestamp()> processing_time_;
};

template <class T>
class BoundedOutOfOrdernessWatermarks final : public WatermarkGenerator<T> {
 public:
  explicit BoundedOutOfOrdernessWatermarks(Duration max_out_of_orderness)
      : out_of_orderness_(max_out_of_orderness),
        // Chosen so the first computed watermark is exactly kMinWatermark.
        max_timestamp_(kMinWatermark + max_out_of_orderness + 1) {
    if (max_out_of_orderness < 0) throw std::invalid_argument("max out-of-orderness must not be negative");
  }
  void onEvent(const T&, Timestamp event_timestamp, WatermarkOutput&) override {
    max_timestamp_ = std::max(max_timestamp_, event_timestamp);
  }
  void onPeriodicEmit(WatermarkOutput& output) override {
    output.emitWatermark(max_timestamp_ - out_of_orderness_ - 1);
  }
  void snapshotState(DataOutput& out) const override { out.writeFixed(max_timestamp_); }
  void restoreState(DataInput& in) override { max_timestamp_ = in.readFixed<Timestamp>("the largest timestamp seen"); }

 private:
  Duration out_of_orderness_;
  Timestamp max_timestamp_;
};

template <class T>
class NoWatermarksGenerator final : public WatermarkGenerator<T> {
 public:
  void onEvent(const T&, Timestamp, WatermarkOutput&) override {}
  void onPeriodicEmit(WatermarkOutput&) override {}
};

/// Wraps a generator: idle after `timeout` without events (see file comment).
template <class T>
class WatermarksWithIdleness final : public WatermarkGenerator<T> {
 public:
  WatermarksWithIdleness(std::unique_ptr<WatermarkGenerator<T>> inner, Duration timeout,
                         const WatermarkGeneratorContext& context)
      : inner_(std::move(inner)), timeout_(timeout), context_(context) {
    if (timeout <= 0) throw std::invalid_argument("idle timeout must be positive");
  }
  void onEvent(const T& event, Timestamp event_timestamp, WatermarkOutput& output) override {
    inner_->onEvent(event, event_timestamp, output);
    saw_event_ = true;
    countdown_started_ = false;
    idle_ = false;
  }
  void onPeriodicEmit(WatermarkOutput& output) override {
    if (saw_event_) {
      saw_event_ = false;
    } else if (!countdown_started_) {
      countdown_started_ = true;
      countdown_start_ = context_.currentProcessingTime();
    } else if (!idle_ && context_.currentProcessingTime() - countdown_start_ > timeout_) {
      idle_ = true;
      output.markIdle();
    }
    if (!idle_) inner_->onPeriodicEmit(output);
  }
  void snapshotState(DataOutput& out) const override {
    out.writeFixed(static_cast<std::uint8_t>((saw_event_ ? 1 : 0) | (countdown_started_ ? 2 : 0) | (idle_ ? 4 : 0)));
    out.writeFixed(countdown_start_);
    inner_->snapshotState(out);
  }
  void restoreState(DataInput& in) override {
    const auto flags = in.readFixed<std::uint8_t>("the idleness flags");
    if (flags > 7) in.fail("the idleness flags", "has bits no generator writes", in.position() - 1);
    saw_event_ = (flags & 1) != 0;
    countdown_started_ = (flags & 2) != 0;
    idle_ = (flags & 4) != 0;
    countdown_start_ = in.readFixed<Timestamp>("the idleness countdown's start");
    inner_->restoreState(in);
  }

 private:
  std::unique_ptr<WatermarkGenerator<T>> inner_;
  Duration timeout_;
  WatermarkGeneratorContext context_;
  bool saw_event_ = false;
  bool countdown_started_ = false;
  bool idle_ = false;
  Timestamp countdown_start_ = 0;
};

template <class T>
class WatermarkStrategy {
 public:
  using TimestampAssigner = std::function<Timestamp(const T&, Timestamp)>;
  using GeneratorSupplier =
      std::function<std::unique_ptr<WatermarkGenerator<T>>(const WatermarkGeneratorContext&)>;

  static WatermarkStrategy forBoundedOutOfOrderness(Duration max_out_of_orderness) {
    if (max_out_of_orderness < 0) throw std::invalid_argument("max out-of-orderness must not be negative");
    return WatermarkStrategy([max_out_of_orderness](const WatermarkGeneratorContext&) {
      return std::unique_ptr<WatermarkGenerator<T>>(
          std::make_unique<BoundedOutOfOrdernessWatermarks<T>>(max_out_of_orderness));
    });
  }
  template <class Rep, class Period>
  static WatermarkStrategy forBoundedOutOfOrderness(std::chrono::duration<Rep, Period> d) {
    return forBoundedOutOfOrderness(toMillis(d));
  }
  static WatermarkStrategy forMonotonousTimestamps() { return forBoundedOutOfOrderness(0); }
  static WatermarkStrategy noWatermarks() {
    return WatermarkStrategy([](const WatermarkGeneratorContext&) {
      return std::unique_ptr<WatermarkGenerator<T>>(std::make_unique<NoWatermarksGenerator<T>>());
    });
  }
  /// `supplier()` or `supplier(const WatermarkGeneratorContext&)` returning
  /// std::unique_ptr<WatermarkGenerator<T>>.
  template <class F>
  static WatermarkStrategy forGenerator(F supplier) {
    if constexpr (std::is_invocable_v<F&, const WatermarkGeneratorContext&>) {
      return WatermarkStrategy(GeneratorSupplier(std::move(supplier)));
    } else {
      return WatermarkStrategy(
          [s = std::move(supplier)](const WatermarkGeneratorContext&) mutable { return s(); });
    }
  }

  /// `assigner(event)` or `assigner(event, previous_timestamp)` returning the timestamp.
  template <class F>
  WatermarkStrategy withTimestampAssigner(F assigner) const {
    WatermarkStrategy copy = *this;
    if constexpr (std::is_invocable_v<F&, const T&, Timestamp>) {
      copy.assigner_ = std::move(assigner);
    } else {
      copy.assigner_ = [a = std::move(assigner)](const T& event, Timestamp) mutable { return a(event); };
    }
    return copy;
  }

  WatermarkStrategy withIdleness(Duration idle_timeout) const {
    if (idle_timeout <= 0) throw std::invalid_argument("idle timeout must be positive");
    WatermarkStrategy copy = *this;
    copy.supplier_ = [inner = supplier_, idle_timeout](const WatermarkGeneratorContext& context) {
      return std::unique_ptr<WatermarkGenerator<T>>(
          std::make_unique<WatermarksWithIdleness<T>>(inner(context), idle_timeout, context));
    };
    return copy;
  }
  template <class Rep, class Period>
  WatermarkStrategy withIdleness(std::chrono::duration<Rep, Period> d) const {
    return withIdleness(toMillis(d));
  }

  std::unique_ptr<WatermarkGenerator<T>> createWatermarkGenerator(const WatermarkGeneratorContext& context) const {
    return supplier_(context);
  }

  /// The record's new timestamp; without an assigner, the one it already has.
  Timestamp extractTimestamp(const T& event, Timestamp previous) const {
    return assigner_ ? assigner_(event, previous) : previous;
  }

 private:
  explicit WatermarkStrategy(GeneratorSupplier supplier) : supplier_(std::move(supplier)) {}

  GeneratorSupplier supplier_;
  TimestampAssigner assigner_;
};

}  // namespace tidemark
