// The keyed interval join (Flink's IntervalJoinOperator): joins each element
// with the other input's elements of the same key whose timestamps lie in an
// interval around its own, and forgets elements once no future element can
// join them.
//
// Contract (bounds after exclusiveness: an exclusive lower bound is lower + 1,
// an exclusive upper bound is upper - 1):
// - A left element l and a right element r of the same key join iff
//   l.ts + lower <= r.ts <= l.ts + upper. The pair goes to the
//   ProcessJoinFunction with both timestamps; its results carry max(l.ts, r.ts).
// - An element without a timestamp (or with kMinWatermark, the "no timestamp"
//   marker) fails the job: the join is defined on event time only.
// - An element is late when its timestamp is below the operator's current
//   watermark (ts == watermark is not late; while the watermark is MIN nothing
//   is). A late element is neither buffered nor joined; it goes to the left /
//   right late-data side output when one was set, and is dropped otherwise.
// - Otherwise, in this order: the element is added to its side's buffer
//   (per key: timestamp -> elements in arrival order); it is joined with the
//   other side's buffered elements in ascending timestamp order, arrival order
//   within a timestamp; and a cleanup timer is registered for its timestamp.
// - Cleanup times, as in Flink: a left element at t is dropped when the
//   watermark reaches t + upper if upper > 0, else t; a right element at t
//   when it reaches t - lower if lower < 0, else t. A cleanup timer removes
//   the whole timestamp bucket of one side for one key; timers are a set, so
//   one bucket has one timer. Once the watermark has passed every cleanup
//   time, buffers and timers are empty.
// - Flink's boundary, reproduced as is: the late test is `ts < watermark`
//   while a timer fires at `time <= watermark`, so an element whose timestamp
//   equals the watermark is accepted but no longer meets partners whose
//   cleanup time is that watermark (e.g. bounds [-1, 1], right element at 2
//   dropped at watermark 3, then a left element at 3 arrives: it would have
//   matched, and does not).
// - Event time is the minimum of both inputs' watermarks (docs/semantics.md 2.3);
//   cleanup timers fire before the watermark is forwarded.
//
// Storage: each side's buffer is one keyed ValueState per key holding an
// ordered map (timestamp -> elements), changed in place, so adding an element
// and finding the joinable range cost O(log buckets), not a copy of the
// buffer. (Flink keeps a MapState<Long, List<...>>; the entries and the timer
// set are the same, and the timer's namespace names the bucket it drops
// instead of recomputing it from the timer's time, which also keeps
// saturated times near MIN/MAX exact.)
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tidemark/core/output_tag.h"
#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"
#include "tidemark/core/void_namespace.h"
#include "tidemark/functions/process_join_function.h"
#include "tidemark/functions/runtime_context.h"
#include "tidemark/internal/operators/internal_timer_service.h"
#include "tidemark/internal/operators/operator_snapshot.h"
#include "tidemark/internal/operators/side_outputs_through.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/operators/timer_snapshot.h"
#include "tidemark/internal/operators/timestamped_collector.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

/// The namespace of an interval-join cleanup timer: which side's bucket to drop.
struct IntervalJoinCleanup {
  bool left = true;
  Timestamp bucket = 0;

  /// What a snapshot writes of a cleanup timer's namespace.
  auto fields() { return std::tie(left, bucket); }

  friend bool operator==(const IntervalJoinCleanup&, const IntervalJoinCleanup&) = default;
  template <class H>
  friend H AbslHashValue(H h, const IntervalJoinCleanup& cleanup) {
    return H::combine(std::move(h), cleanup.left, cleanup.bucket);
  }
};

/// One side's buffer for one key: timestamp -> elements in arrival order.
template <class T>
using IntervalJoinBuffer = std::map<Timestamp, std::vector<T>>;

/// `t - d` without wrapping (saturates at kMinWatermark / kMaxWatermark).
constexpr Timestamp saturatingSubtract(Timestamp t, Duration d) {
  Timestamp result = 0;
  if (__builtin_sub_overflow(t, d, &result)) {
    return d > 0 ? kMinWatermark : kMaxWatermark;
  }
  return result;
}

/// The join's side of ProcessJoinContext: the timestamps of the pair being joined.
class ProcessJoinContextImpl final : public SideOutputsThrough<ProcessJoinContext> {
 public:
  explicit ProcessJoinContextImpl(OperatorBase& op) : SideOutputsThrough(op) {}

  Timestamp getLeftTimestamp() const override { return left_timestamp_; }
  Timestamp getRightTimestamp() const override { return right_timestamp_; }

  void setTimestamps(Timestamp left, Timestamp right) {
    left_timestamp_ = left;
    right_timestamp_ = right;
  }

 private:
  Timestamp left_timestamp_ = kMinWatermark;
  Timestamp right_timestamp_ = kMinWatermark;
};

template <class K, class IN1, class IN2, class OUT, class KeySelector1, class KeySelector2>
class IntervalJoinOperator final : public TwoInputOperator<IN1, IN2, OUT>,
                                   public TimerTarget<K, IntervalJoinCleanup> {
 public:
  using Function = ProcessJoinFunction<IN1, IN2, OUT>;

  /// Throws std::invalid_argument when lower_bound > upper_bound (checked on
  /// the bounds as given, before exclusiveness, as Flink does).
  IntervalJoinOperator(Duration lower_bound, Duration upper_bound, bool lower_bound_inclusive,
                       bool upper_bound_inclusive, std::unique_ptr<Function> function, KeySelector1 key_selector1,
                       KeySelector2 key_selector2, std::optional<OutputTag<IN1>> left_late_data_tag = std::nullopt,
                       std::optional<OutputTag<IN2>> right_late_data_tag = std::nullopt)
      : function_(std::move(function)),
        key_selector1_(std::move(key_selector1)),
        key_selector2_(std::move(key_selector2)),
        left_late_data_tag_(std::move(left_late_data_tag)),
        right_late_data_tag_(std::move(right_late_data_tag)) {
    if (lower_bound > upper_bound) {
      throw std::invalid_argument("interval join: the lower bound (" + std::to_string(lower_bound) +
                                  " ms) must not exceed the upper bound (" + std::to_string(upper_bound) + " ms)");
    }
    if (function_ == nullptr) throw std::invalid_argument("interval join: the ProcessJoinFunction is null");
    // Exclusive bounds move inwards by 1 ms, so only inclusive checks remain.
    // An exclusive bound already at the end of the range admits nothing.
    lower_ = lower_bound;
    upper_ = upper_bound;
    if (!lower_bound_inclusive) {
      if (lower_ == kMaxWatermark) {
        never_joins_ = true;
      } else {
        ++lower_;
      }
    }
    if (!upper_bound_inclusive) {
      if (upper_ == kMinWatermark) {
        never_joins_ = true;
      } else {
        --upper_;
      }
    }
  }

  void open() override {
    backend_ = std::make_unique<HeapKeyedStateBackend<K>>(this->context().key_group_range,
                                                          this->context().max_parallelism);
    timers_ = std::make_unique<InternalTimerService<K, IntervalJoinCleanup>>(this->processingTimeService(), *this);
    // Before the buffers are asked for: they fill from the snapshots then.
    if (this->isRestored()) restore(this->takeRestoredSnapshots());
    left_buffer_ = &backend_->template getPartitionedState<VoidNamespace>(
        ValueStateDescriptor<IntervalJoinBuffer<IN1>>("LEFT_BUFFER"));
    right_buffer_ = &backend_->template getPartitionedState<VoidNamespace>(
        ValueStateDescriptor<IntervalJoinBuffer<IN2>>("RIGHT_BUFFER"));
    collector_.setOutput(&this->output());
    runtime_context_ = this->context().runtimeContext();
    function_->setRuntimeContext(&runtime_context_);
    function_->open();
  }

  void close() override { function_->close(); }

  void processElement1(StreamRecord<IN1>& record) override {
    const Timestamp ts = requireTimestamp(record, "left");
    if (isLate(ts)) {
      if (left_late_data_tag_) this->emitSideOutput(*left_late_data_tag_, record);
      return;
    }
    backend_->setCurrentKey(key_selector1_(std::as_const(record.value)));
    left_buffer_->findOrCreate([] { return IntervalJoinBuffer<IN1>(); })[ts].push_back(record.value);

    // Right elements r with ts + lower <= r.ts <= ts + upper.
    if (!never_joins_) {
      forEachInRange(*right_buffer_, saturatingAdd(ts, lower_), saturatingAdd(ts, upper_),
                     [&](Timestamp right_ts, const IN2& right) { collect(record.value, right, ts, right_ts); });
    }

    const Timestamp cleanup_time = upper_ > 0 ? saturatingAdd(ts, upper_) : ts;
    timers_->registerEventTimeTimer(backend_->getCurrentKey(), IntervalJoinCleanup{true, ts}, cleanup_time);
  }

  void processElement2(StreamRecord<IN2>& record) override {
    const Timestamp ts = requireTimestamp(record, "right");
    if (isLate(ts)) {
      if (right_late_data_tag_) this->emitSideOutput(*right_late_data_tag_, record);
      return;
    }
    backend_->setCurrentKey(key_selector2_(std::as_const(record.value)));
    right_buffer_->findOrCreate([] { return IntervalJoinBuffer<IN2>(); })[ts].push_back(record.value);

    // Left elements l with l.ts + lower <= ts <= l.ts + upper.
    if (!never_joins_) {
      forEachInRange(*left_buffer_, saturatingSubtract(ts, upper_), saturatingSubtract(ts, lower_),
                     [&](Timestamp left_ts, const IN1& left) { collect(left, record.value, left_ts, ts); });
    }

    const Timestamp cleanup_time = lower_ < 0 ? saturatingSubtract(ts, lower_) : ts;
    timers_->registerEventTimeTimer(backend_->getCurrentKey(), IntervalJoinCleanup{false, ts}, cleanup_time);
  }

  void processWatermark(Timestamp watermark) override {
    timers_->advanceWatermark(watermark);
    this->emitWatermarkToAll(watermark);
  }

  void onEventTime(const TimerEntry<K, IntervalJoinCleanup>& timer) override {
    backend_->setCurrentKey(timer.key);
    if (timer.ns.left) {
      dropBucket(*left_buffer_, timer.ns.bucket);
    } else {
      dropBucket(*right_buffer_, timer.ns.bucket);
    }
  }

  void onProcessingTime(const TimerEntry<K, IntervalJoinCleanup>&) override {}

  /// Pending cleanup timers and live buffer entries (one per key and side),
  /// for the test harness and metrics.
  std::size_t numEventTimeTimers() const { return timers_ ? timers_->numEventTimeTimers() : 0; }
  std::size_t numProcessingTimeTimers() const { return timers_ ? timers_->numProcessingTimeTimers() : 0; }
  std::size_t numStateEntries() const { return backend_ ? backend_->numStateEntries() : 0; }

  /// The timestamps buffered for `key` on the left or right side, ascending
  /// (for tests; a scan over all keys).
  std::vector<Timestamp> bufferedTimestamps(bool left, const K& key) const {
    std::vector<Timestamp> result;
    auto collect_keys = [&](const K& k, const VoidNamespace&, const auto& buffer) {
      if (!(k == key)) return;
      for (const auto& bucket : buffer) result.push_back(bucket.first);
    };
    if (left && left_buffer_ != nullptr) left_buffer_->forEachEntry(collect_keys);
    if (!left && right_buffer_ != nullptr) right_buffer_->forEachEntry(collect_keys);
    return result;
  }

  /// The bounds in effect (exclusive bounds already moved inwards).
  Duration effectiveLowerBound() const { return lower_; }
  Duration effectiveUpperBound() const { return upper_; }

  /// Both buffers, the cleanup timers, and the event time.
  OperatorSnapshot snapshotState(std::int64_t checkpoint_id) const override {
    this->requireOpenedForSnapshot(backend_.get());
    return {checkpoint_id, backend_->snapshot(),
            snapshotTimers(*timers_, KeyGroupAssigner(backend_->getMaxParallelism())), timers_->currentWatermark()};
  }

 private:
  void restore(const std::vector<OperatorSnapshot>& snapshots) {
    backend_->restore(keyedStatesOf(snapshots));
    restoreTimers(*timers_, timersOf(snapshots), this->context().key_group_range,
                  KeyGroupAssigner(backend_->getMaxParallelism()));
    timers_->restoreWatermark(restoredWatermark(snapshots));
  }

  template <class T>
  using BufferState = InternalValueState<K, VoidNamespace, IntervalJoinBuffer<T>>;

  template <class T>
  static Timestamp requireTimestamp(const StreamRecord<T>& record, const char* side) {
    if (!record.has_timestamp || record.timestamp == kMinWatermark) {
      throw std::runtime_error(std::string("interval join: a ") + side +
                               " element has no timestamp; elements of an interval join need event timestamps "
                               "(assign them with assignTimestampsAndWatermarks or collectWithTimestamp)");
    }
    return record.timestamp;
  }

  bool isLate(Timestamp ts) const {
    const Timestamp watermark = timers_->currentWatermark();
    return watermark != kMinWatermark && ts < watermark;
  }

  /// Call f(ts, element) for the current key's buffered elements with
  /// from <= ts <= to, ascending by timestamp, in arrival order within one.
  template <class T, class F>
  static void forEachInRange(BufferState<T>& state, Timestamp from, Timestamp to, F&& f) {
    if (from > to) return;
    IntervalJoinBuffer<T>& buffer = state.findOrCreate([] { return IntervalJoinBuffer<T>(); });
    if (buffer.empty()) {
      state.clear();  // looking must not leave an entry behind
      return;
    }
    for (auto it = buffer.lower_bound(from); it != buffer.end() && it->first <= to; ++it) {
      for (const T& element : it->second) f(it->first, element);
    }
  }

  template <class T>
  static void dropBucket(BufferState<T>& state, Timestamp bucket) {
    IntervalJoinBuffer<T>& buffer = state.findOrCreate([] { return IntervalJoinBuffer<T>(); });
    buffer.erase(bucket);
    if (buffer.empty()) state.clear();
  }

  void collect(const IN1& left, const IN2& right, Timestamp left_ts, Timestamp right_ts) {
    context_.setTimestamps(left_ts, right_ts);
    collector_.setTimestamp(context_.getTimestamp());
    function_->processElement(left, right, context_, collector_);
  }

  std::unique_ptr<Function> function_;
  KeySelector1 key_selector1_;
  KeySelector2 key_selector2_;
  std::optional<OutputTag<IN1>> left_late_data_tag_;
  std::optional<OutputTag<IN2>> right_late_data_tag_;
  Duration lower_ = 0;
  Duration upper_ = 0;
  bool never_joins_ = false;

  std::unique_ptr<HeapKeyedStateBackend<K>> backend_;
  BufferState<IN1>* left_buffer_ = nullptr;
  BufferState<IN2>* right_buffer_ = nullptr;
  std::unique_ptr<InternalTimerService<K, IntervalJoinCleanup>> timers_;
  TimestampedCollector<OUT> collector_;
  ProcessJoinContextImpl context_{*this};
  RuntimeContext runtime_context_;
};

}  // namespace tidemark::internal
