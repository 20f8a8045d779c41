// The CEP operator (Flink's CepOperator): runs a compiled pattern per key.
//
// Event time (docs/semantics.md 6.3):
// - An element is late when its timestamp is at or below the current
//   watermark: it goes to the late-data side output when one is set, else it
//   is counted in numLateRecordsDropped. An element without a timestamp fails
//   the job (event-time CEP is defined on timestamps).
// - Other elements wait in the key's buffer, ordered by timestamp and, within
//   a timestamp, by arrival. A wake-up at the buffer's earliest timestamp
//   wakes the key when the watermark passes it (keys wake in timestamp
//   order, ties in registration order, as timers fire).
// - On such a timer, every buffered timestamp <= watermark is taken in
//   ascending order: advanceTime(ts) (timeouts), then its elements in arrival
//   order, or sorted by the comparator (a stable sort), each fed to the NFA;
//   finally advanceTime(watermark).
// - When an event starts a partial match and the pattern has within(w), a
//   wake-up at ts + w makes sure the timeout is seen even if the key gets no
//   more events.
// - Matches carry the timestamp of the event that completed them; timeouts
//   carry first event + w. All outputs of a watermark precede it.
// Processing time: each element is fed on arrival at the current processing
// time (buffered until the next millisecond when a comparator is set);
// timeouts are checked on each element and by a processing-time timer at
// first event + w + 1; outputs carry no timestamp.
//
// A key's state (buffer, partial matches, shared buffer) is one hash-map
// entry, dropped as soon as nothing is buffered and no partial match is
// alive, so a key that cannot match any more costs nothing. The CEP state is
// the operator's own, not keyed state of a backend: nothing else (no user
// function) reads it, and a plain map keeps the per-event cost low.
// Event-time wake-ups are kept in a MonotonicTimerQueue (appends for
// in-order timestamps, no deduplication: waking a key twice at one watermark
// does nothing the second time); processing-time timers use the timer
// service.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/inlined_vector.h>
#include <fmt/format.h>

#include "tidemark/core/output_tag.h"
#include "tidemark/internal/cep/cep_snapshot.h"
#include "tidemark/internal/cep/nfa.h"
#include "tidemark/cep/pattern_process_function.h"
#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"
#include "tidemark/core/void_namespace.h"
#include "tidemark/internal/operators/internal_timer_service.h"
#include "tidemark/internal/operators/keyed_operator_stats.h"
#include "tidemark/internal/operators/monotonic_timer_queue.h"
#include "tidemark/internal/operators/operator_snapshot.h"
#include "tidemark/internal/operators/side_outputs_through.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/operators/timer_snapshot.h"
#include "tidemark/internal/operators/timestamped_collector.h"
#include "tidemark/core/key_group.h"
#include "tidemark/internal/state/state_table.h"

namespace tidemark::internal {

/// Orders two events of the same timestamp: negative when `a` comes first.
template <class T>
using EventComparator = std::function<int(const T&, const T&)>;

/// Hashes a key as the keyed state backend does.
template <class K>
struct CepKeyHash {
  std::size_t operator()(const K& key) const { return hashStateKey(key, VoidNamespace{}); }
};

/// The CEP operator's side of PatternContext.
class PatternContextImpl final : public SideOutputsThrough<PatternContext> {
 public:
  PatternContextImpl(OperatorBase& op, bool event_time) : SideOutputsThrough(op), event_time_(event_time) {}

  Timestamp timestamp() const override { return timestamp_; }
  Timestamp currentProcessingTime() const override {
    return owner().processingTimeService().currentProcessingTime();
  }

  void setTimestamp(Timestamp timestamp) { timestamp_ = timestamp; }

 protected:
  std::optional<Timestamp> sideOutputTimestamp() const override {
    return event_time_ ? std::optional<Timestamp>(timestamp_) : std::nullopt;
  }

 private:
  bool event_time_;
  Timestamp timestamp_ = kMinWatermark;
};

template <class K, class IN, class OUT, class KeySelector>
class CepOperator final : public OneInputOperator<IN, OUT>,
                          public TimerTarget<K, VoidNamespace>,
                          public KeyedOperatorStats {
 public:
  using Function = PatternProcessFunction<IN, OUT>;

  CepOperator(std::shared_ptr<const CompiledPattern<IN>> pattern, bool processing_time,
              EventComparator<IN> comparator, std::unique_ptr<Function> function, KeySelector key_selector,
              std::optional<OutputTag<IN>> late_data_tag)
      : function_(std::move(function)),
        timeout_handler_(dynamic_cast<TimedOutPartialMatchHandler<IN>*>(function_.get())),
        nfa_(std::move(pattern), timeout_handler_ != nullptr),
        processing_time_(processing_time),
        comparator_(std::move(comparator)),
        key_selector_(std::move(key_selector)),
        late_data_tag_(std::move(late_data_tag)) {
    if (function_ == nullptr) throw std::invalid_argument("CEP: the pattern process function is null");
  }

  void open() override {
    timers_ = std::make_unique<InternalTimerService<K, VoidNamespace>>(this->processingTimeService(), *this);
    if (this->isRestored()) restore(this->takeRestoredSnapshots());
    collector_.setOutput(&this->output());
    runtime_context_ = this->context().runtimeContext();
    function_->setRuntimeContext(&runtime_context_);
    function_->open();
  }

  void close() override { function_->close(); }

  void processElement(StreamRecord<IN>& record) override {
    const K key = key_selector_(std::as_const(record.value));
    requireOwnedKey(key);
    if (processing_time_) {
      processElementInProcessingTime(key, record);
      return;
    }
    if (!record.has_timestamp || record.timestamp == kMinWatermark) {
      throw std::runtime_error(this->context().description() +
                               ": CEP in event time needs element timestamps; this element has none (assign them "
                               "with assignTimestampsAndWatermarks, or use inProcessingTime())");
    }
    if (record.timestamp <= timers_->currentWatermark()) {
      if (late_data_tag_) {
        this->emitSideOutput(*late_data_tag_, record);
      } else {
        ++late_records_dropped_;
      }
      return;
    }
    bufferElement(key, record.value, record.timestamp);
  }

  void processWatermark(Timestamp watermark) override {
    timers_->advanceWatermark(watermark);  // the watermark the late check sees
    while (auto wake = wakes_.pollAtOrBefore(watermark)) onEventTime(wake->key);
    this->emitWatermarkToAll(watermark);
  }

  // Event-time wake-ups go through wakes_, not the timer service.
  void onEventTime(const TimerEntry<K, VoidNamespace>& timer) override { onEventTime(timer.key); }

  void onEventTime(const K& key) {
    const Timestamp watermark = timers_->currentWatermark();
    wake(key, watermark, watermark);
  }

  // Processing time: the buffer holds only comparator-ordered elements of
  // earlier milliseconds, so all of it is due.
  void onProcessingTime(const TimerEntry<K, VoidNamespace>& timer) override {
    wake(timer.key, kMaxWatermark, timers_->currentProcessingTime());
  }

  /// numLateRecordsDropped, and the CEP state size: partial matches and
  /// events held (shared buffer + element buffer), now and at their peak,
  /// summed over subtasks.
  void reportCounters(CounterReport& report) const override {
    report.add("numLateRecordsDropped", late_records_dropped_);
    report.add("numPartialMatches", live_.partial_matches);
    report.add("peakPartialMatches", peak_.partial_matches);
    report.add("numBufferedEvents", live_.events);
    report.add("peakBufferedEvents", peak_.events);
  }

  // KeyedOperatorStats: one state entry per key with buffered elements or live partial matches.
  std::size_t numStateEntries() const override { return keys_.size(); }
  std::size_t numEventTimeTimers() const override { return wakes_.size(); }
  std::size_t numProcessingTimeTimers() const override { return timers_ ? timers_->numProcessingTimeTimers() : 0; }

  std::uint64_t numLateRecordsDropped() const { return late_records_dropped_; }
  /// Partial matches alive over all keys (start states not counted).
  std::size_t numPartialMatches() const { return live_.partial_matches; }
  /// Events held by the shared buffers and element buffers over all keys.
  std::size_t numBufferedEvents() const { return live_.events; }
  std::size_t peakPartialMatches() const { return peak_.partial_matches; }
  std::size_t peakBufferedEvents() const { return peak_.events; }

  /// Every key's buffer, partial matches and shared buffer, the event-time
  /// wake-ups and processing-time timers, and the watermark (cep_snapshot.h).
  /// The counters are metrics, not state.
  OperatorSnapshot snapshotState(std::int64_t checkpoint_id) const override {
    this->requireOpenedForSnapshot(timers_.get());
    const OperatorContext& context = this->context();
    const KeyGroupAssigner groups(context.max_parallelism);
    KeyedStateSnapshot keyed{context.max_parallelism, {}};
    keyed.states.push_back(writeCepKeys<K, IN>(
        [this](auto&& f) {
          for (const auto& [key, state] : keys_) f(key, state);
        },
        nfa_.pattern(), groups, context.name));
    keyed.states.push_back(
        writeCepWakes<K, IN>([this](auto&& f) { wakes_.forEachEntry(f); }, nfa_.pattern(), groups, context.name));
    return {checkpoint_id, std::move(keyed), snapshotTimers(*timers_, groups), timers_->currentWatermark()};
  }

 private:
  void restore(const std::vector<OperatorSnapshot>& snapshots) {
    const OperatorContext& context = this->context();
    const KeyGroupAssigner groups(context.max_parallelism);
    const std::vector<KeyedStateSnapshot> keyed = keyedStatesOf(snapshots);
    readCepKeys<K, IN>(keyed, nfa_.pattern(), context.key_group_range, groups, context.name,
                       [this](K key, CepKeyState<IN> state) {
                         account({0, 0}, sizeOf(state));
                         keys_.insert_or_assign(std::move(key), std::move(state));
                       });
    // In firing order, so that they keep it; all in one lane, where they
    // are appends.
    for (const auto& wake : readCepWakes<K, IN>(keyed, nfa_.pattern(), context.key_group_range, groups, context.name)) {
      wakes_.add(wake.key, wake.timestamp, kBufferLane);
    }
    restoreTimers(*timers_, timersOf(snapshots), context.key_group_range, groups);
    timers_->restoreWatermark(restoredWatermark(snapshots));
  }

  struct StateSize {
    std::size_t partial_matches = 0;
    std::size_t events = 0;
  };
  static StateSize sizeOf(const CepKeyState<IN>& s) {
    if (!s.nfa) return {0, s.buffer.size()};
    return {s.nfa->numPartialMatches(), s.nfa->buffer.numEvents() + s.buffer.size()};
  }
  // Moves the live totals from `before` to the key's size now.
  void account(const StateSize& before, const StateSize& after) {
    live_.partial_matches += after.partial_matches - before.partial_matches;
    live_.events += after.events - before.events;
    peak_.partial_matches = std::max(peak_.partial_matches, live_.partial_matches);
    peak_.events = std::max(peak_.events, live_.events);
  }

  // Feed the key's buffered elements up to `drain_up_to`, then advance its
  // NFA to `now` (timeouts), and keep or drop its state.
  void wake(const K& key, Timestamp drain_up_to, Timestamp now) {
    auto it = keys_.find(key);
    if (it == keys_.end()) return;
    CepKeyState<IN>& key_state = it->second;
    const StateSize before = sizeOf(key_state);
    drainBuffer(key, key_state, drain_up_to);
    advanceTime(key_state, now);
    afterUpdate(it, before);
  }

  // As in any keyed operator, a key must belong to this subtask's key groups.
  void requireOwnedKey(const K& key) const {
    const int group = assignToKeyGroup(key, this->context().max_parallelism);
    if (!this->context().key_group_range.contains(group)) {
      throw std::logic_error(fmt::format("{}: key group {} of this element's key is not in this subtask's range",
                                         this->context().description(), group));
    }
  }

  void bufferElement(const K& key, const IN& value, Timestamp ts) {
    CepKeyState<IN>& key_state = keys_[key];
    auto& buffer = key_state.buffer;
    account({0, 0}, {0, 1});
    const bool new_earliest = buffer.empty() || ts < buffer.front().timestamp;
    if (buffer.empty() || buffer.back().timestamp <= ts) {
      buffer.push_back({ts, value});
    } else {
      auto at = std::upper_bound(buffer.begin(), buffer.end(), ts,
                                 [](Timestamp t, const auto& b) { return t < b.timestamp; });
      buffer.insert(at, {ts, value});
    }
    if (new_earliest) registerTimer(key, ts, kBufferLane);
  }

  void processElementInProcessingTime(const K& key, StreamRecord<IN>& record) {
    const Timestamp now = timers_->currentProcessingTime();
    auto it = keys_.try_emplace(key).first;
    CepKeyState<IN>& key_state = it->second;
    if (comparator_) {
      const bool was_empty = key_state.buffer.empty();
      key_state.buffer.push_back({now, record.value});
      account({0, 0}, {0, 1});
      if (was_empty) registerTimer(key, now, kBufferLane);
      return;
    }
    const StateSize before = sizeOf(key_state);
    advanceTime(key_state, now);
    processEvent(key, key_state, record.value, now);
    afterUpdate(it, before);
  }

  // Feed every buffered element with timestamp <= `up_to`, timestamp by timestamp.
  void drainBuffer(const K& key, CepKeyState<IN>& key_state, Timestamp up_to) {
    auto& buffer = key_state.buffer;
    std::size_t begin = 0;
    while (begin < buffer.size() && buffer[begin].timestamp <= up_to) {
      std::size_t end = begin;
      const Timestamp ts = buffer[begin].timestamp;
      while (end < buffer.size() && buffer[end].timestamp == ts) ++end;
      advanceTime(key_state, ts);
      if (comparator_ && end - begin > 1) {
        std::stable_sort(buffer.begin() + static_cast<std::ptrdiff_t>(begin),
                         buffer.begin() + static_cast<std::ptrdiff_t>(end),
                         [this](const auto& a, const auto& b) { return comparator_(a.value, b.value) < 0; });
      }
      for (std::size_t i = begin; i < end; ++i) processEvent(key, key_state, buffer[i].value, ts);
      begin = end;
    }
    if (begin == buffer.size()) {
      buffer.clear();
    } else {
      buffer.erase(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(begin));
    }
  }

  void processEvent(const K& key, CepKeyState<IN>& key_state, const IN& value, Timestamp ts) {
    matches_.clear();
    const bool started = nfa_.process(key_state.nfa, value, ts, clock(), matches_);
    if (nfa_.windowTime() > 0 && started) {
      registerTimer(key, saturatingAdd(ts, nfa_.windowTime()), kTimeoutLane);
    }
    emitMatches(ts);
  }

  void advanceTime(CepKeyState<IN>& key_state, Timestamp ts) {
    if (!key_state.nfa) return;  // no partial match: nothing to time out
    matches_.clear();
    timeouts_.clear();
    nfa_.advanceTime(key_state.nfa, ts, matches_, timeouts_);
    emitMatches(ts);
    for (const TimedOutMatch<IN>& timed_out : timeouts_) {
      context_.setTimestamp(timed_out.timestamp);
      timeout_handler_->processTimedOutMatch(timed_out.match, context_);
    }
  }

  void emitMatches(Timestamp ts) {
    if (!matches_.empty()) emitNonEmptyMatches(ts);
  }
  void emitNonEmptyMatches(Timestamp ts) {
    context_.setTimestamp(ts);
    if (processing_time_) {
      collector_.eraseTimestamp();
    } else {
      collector_.setTimestamp(ts);
    }
    for (const Match<IN>& match : matches_) function_->processMatch(match, context_, collector_);
  }

  // Keep the key's timers right and drop its state when nothing is left.
  template <class It>
  void afterUpdate(It it, const StateSize& before) {
    CepKeyState<IN>& key_state = it->second;
    account(before, sizeOf(key_state));
    if (!key_state.buffer.empty()) {
      registerTimer(it->first, key_state.buffer.front().timestamp, kBufferLane);
      return;
    }
    if (key_state.nfa && key_state.nfa->idle()) nfa_.releaseState(std::move(key_state.nfa));
    if (!key_state.nfa) keys_.erase(it);
  }

  ProcessingClock clock() const {
    return {this, [](const void* self) {
              return static_cast<const CepOperator*>(self)->timers_->currentProcessingTime();
            }};
  }

  void registerTimer(const K& key, Timestamp ts, std::size_t lane) {
    if (processing_time_) {
      timers_->registerProcessingTimeTimer(key, VoidNamespace{}, saturatingAdd(ts, 1));
    } else {
      wakes_.add(key, ts, lane);
    }
  }

  std::unique_ptr<Function> function_;
  TimedOutPartialMatchHandler<IN>* timeout_handler_;
  Nfa<IN> nfa_;
  bool processing_time_;
  EventComparator<IN> comparator_;
  KeySelector key_selector_;
  std::optional<OutputTag<IN>> late_data_tag_;
  std::uint64_t late_records_dropped_ = 0;
  StateSize live_;
  StateSize peak_;

  // Per key; a key without buffered elements or partial matches has no entry.
  absl::flat_hash_map<K, CepKeyState<IN>, CepKeyHash<K>> keys_;
  std::unique_ptr<InternalTimerService<K, VoidNamespace>> timers_;  // processing time, and the watermark
  // Event-time wake-ups: at a key's earliest buffered timestamp and at each
  // partial match's timeout. A key woken twice at one watermark does nothing
  // the second time, so duplicates need no dedup.
  static constexpr std::size_t kBufferLane = 0;
  static constexpr std::size_t kTimeoutLane = 1;
  MonotonicTimerQueue<K, 2> wakes_;
  TimestampedCollector<OUT> collector_;
  PatternContextImpl context_{*this, !processing_time_};
  RuntimeContext runtime_context_;
  std::vector<Match<IN>> matches_;
  std::vector<TimedOutMatch<IN>> timeouts_;
};

}  // namespace tidemark::internal
