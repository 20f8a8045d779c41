// SlicingWindowOperator: the fast path for the most common windows, keyed
// tumbling or sliding event-time windows aggregated incrementally with the
// default trigger and no allowed lateness, with exactly the output of
// WindowOperator (same results, timestamps, order, late handling).
//
// Why it exists: the general operator keeps one state entry and one timer
// per (key, window), so each element costs a state lookup plus a timer
// registration, and a sliding window of size/slide windows costs size/slide
// of each. Here event time is cut into slices (panes) of gcd(size, slide);
// each element updates one accumulator in its pane, and a window is the
// combination of its panes when the watermark passes its end. No timers at
// all: a pane holds every key that has data in it, in arrival order.
//
// What makes it exact:
// - Tumbling windows are one pane, whose keys are kept in arrival order: the
//   order in which the general operator registers (and so fires) its
//   per-(key, window) timers. Any reduce or aggregate function qualifies.
// - Sliding windows combine several panes, which is only exact when the
//   combination cannot depend on arrival order: the API uses them for the
//   sum() shortcut only (the sum is commutative, and the element it reports
//   is the first to arrive, which each pane remembers by arrival number).
//   Keys are emitted by first arrival in the window, as the general path does.
// - A window function (tumbling windows only) is called per key and window
//   as the general operator calls it: a WindowFunction or
//   ProcessWindowFunction over all of a window's elements (apply(),
//   process(), and the coGroups and joins built on apply) gets them in
//   arrival order, from a small vector that holds a key's first element in
//   its pane entry; after reduce() or aggregate() it gets the one value. It
//   runs with the key current in a keyed state backend of its own, so keyed
//   state, per-window state (cleared by its clear() as the window is cleaned
//   up) and side outputs work as they do on the general path.
// - Lateness (allowed lateness 0): an element whose latest window already
//   fired (maxTimestamp <= watermark) is late; it goes to the late side
//   output or is counted in numLateRecordsDropped. A pane is released once
//   every window containing it has fired.
// - Snapshots (slicing_pane_snapshot.h) hold every pane's partial aggregates
//   by key group, with each key's place in arrival order, the window
//   function's keyed state, and the watermark; which windows have fired
//   follows from the watermark. A restore from several old subtasks starts at
//   the least of their watermarks, as the general operator does. With aligned
//   (exactly-once) checkpoints every subtask of a keyed operator holds the same
//   watermark at a barrier, since each reads the same upstream channels up to
//   it; at-least-once, a sliding window that a faster subtask had fired can
//   fire again for that subtask's keys.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "tidemark/core/output_tag.h"
#include "tidemark/internal/core/huge_page_allocator.h"
#include "tidemark/core/key_group.h"
#include "tidemark/functions/aggregate_function.h"
#include "tidemark/functions/runtime_context.h"
#include "tidemark/functions/window_context.h"
#include "tidemark/internal/operators/operator_snapshot.h"
#include "tidemark/internal/window/slicing_pane_snapshot.h"
#include "tidemark/internal/window/window_context_impl.h"
#include "tidemark/internal/operators/keyed_operator_stats.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/operators/timestamped_collector.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"
#include "tidemark/internal/state/state_table.h"
#include "tidemark/serialization/serialization_error.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark::internal {

/// The windows a slicing operator computes: [offset + k*slide, ... + size).
struct SliceGrid {
  Duration size = 0;
  Duration slide = 0;
  Duration offset = 0;
  bool isTumbling() const { return size == slide; }
  Duration paneSize() const { return std::gcd(size, slide); }
};

/// Incremental aggregation by a reduce function: the accumulator is the
/// reduced element. combine(a, b) folds b into a, a having arrived first.
template <class IN, class Reduce>
struct SlicingReduce {
  using Accumulator = IN;
  using Result = IN;
  IN first(const IN& value) const { return value; }
  void add(IN& accumulator, const IN& value) const { accumulator = reduce(std::as_const(accumulator), value); }
  void combine(IN& earlier, const IN& later) const { earlier = reduce(std::as_const(earlier), later); }
  const IN& result(const IN& accumulator) const { return accumulator; }
  Reduce reduce;
};

/// Incremental aggregation by an AggregateFunction (tumbling windows only).
template <class IN, class ACC, class R>
struct SlicingAggregate {
  using Accumulator = ACC;
  using Result = R;
  ACC first(const IN& value) const { return function->add(value, function->createAccumulator()); }
  void add(ACC& accumulator, const IN& value) const { accumulator = function->add(value, std::move(accumulator)); }
  void combine(ACC& earlier, const ACC& later) const { earlier = function->merge(std::move(earlier), later); }
  R result(const ACC& accumulator) const { return function->getResult(accumulator); }
  std::shared_ptr<AggregateFunction<IN, ACC, R>> function;
};

/// Every element of a window, in arrival order, for a window function that
/// reads them all (tumbling windows only). A key with one element in a window
/// keeps it in its pane entry.
template <class IN>
struct SlicingElements {
  using Accumulator = absl::InlinedVector<IN, 1>;
  Accumulator first(const IN& value) const { return Accumulator{value}; }
  void add(Accumulator& elements, const IN& value) const { elements.push_back(value); }
  // Only the sliding path combines panes, and the API never gives it a window
  // function; the operator needs the call to compile.
  void combine(Accumulator& earlier, const Accumulator& later) const {
    earlier.insert(earlier.end(), later.begin(), later.end());
  }
  std::span<const IN> values(const Accumulator& elements) const { return {elements.data(), elements.size()}; }
};

/// A window function called per key and window (tumbling windows only), as
/// the general operator calls it: `Function` is that operator's adapter for a
/// WindowFunction or ProcessWindowFunction (internal_window_function.h), and
/// `Pre` what it is handed: every element (SlicingElements) or the one value
/// a reduce or aggregate function made of them (SlicingReduce,
/// SlicingAggregate). Each subtask has its own copy of the function.
template <class IN, class Pre, class Function>
struct SlicingWindowFunction {
  using Accumulator = typename Pre::Accumulator;
  using Result = typename Function::OutputType;
  Accumulator first(const IN& value) const { return pre.first(value); }
  void add(Accumulator& accumulator, const IN& value) const { pre.add(accumulator, value); }
  void combine(Accumulator& earlier, const Accumulator& later) const { pre.combine(earlier, later); }

  template <class K, class Context>
  void emit(const K& key, const TimeWindow& window, const Accumulator& accumulator, Context& context,
            Collector<Result>& out) {
    if constexpr (requires { pre.values(accumulator); }) {
      function.process(key, window, context, pre.values(accumulator), out);
    } else {
      const auto& value = pre.result(accumulator);
      function.process(key, window, context, std::span(&value, 1), out);
    }
  }

  Pre pre;
  Function function;
};

template <class Aggregation>
inline constexpr bool kAppliesWindowFunction = false;
template <class IN, class Pre, class Function>
inline constexpr bool kAppliesWindowFunction<SlicingWindowFunction<IN, Pre, Function>> = true;

template <class K, class IN, class Aggregation>
class SlicingWindowOperator final : public OneInputOperator<IN, typename Aggregation::Result>,
                                    public KeyedOperatorStats {
 public:
  using OUT = typename Aggregation::Result;
  using ACC = typename Aggregation::Accumulator;
  static constexpr bool kAppliesFunction = kAppliesWindowFunction<Aggregation>;

  SlicingWindowOperator(std::function<K(const IN&)> key_selector, SliceGrid grid, Aggregation aggregation,
                        std::optional<OutputTag<IN>> late_data_tag, std::string assigner_name)
      : key_selector_(std::move(key_selector)),
        grid_(grid),
        pane_size_(grid.paneSize()),
        aggregation_(std::move(aggregation)),
        late_data_tag_(std::move(late_data_tag)),
        assigner_name_(std::move(assigner_name)) {}

  void open() override {
    collector_.setOutput(&this->output());
    std::vector<OperatorSnapshot> restored;
    if (this->isRestored()) restored = this->takeRestoredSnapshots();
    std::vector<StateSnapshot> restored_panes = takePanes(restored);
    if constexpr (kAppliesFunction) {
      const OperatorContext& context = this->context();
      backend_ = std::make_unique<HeapKeyedStateBackend<K>>(context.key_group_range, context.max_parallelism);
      if (this->isRestored()) backend_->restore(keyedStatesOf(restored));
      runtime_context_ = std::make_unique<KeyedRuntimeContext<K>>(context.runtimeContext(), *backend_);
      window_context_ = std::make_unique<WindowContextImpl<K, TimeWindow>>(*this, *backend_, emitting_window_, watermark_);
      aggregation_.function.open(*runtime_context_);
    }
    if (this->isRestored()) restorePanes(restored_panes, restoredWatermark(restored));
  }

  void close() override {
    if constexpr (kAppliesFunction) aggregation_.function.close();
  }

  void processElement(StreamRecord<IN>& record) override {
    requireEventTimestamp(record.has_timestamp ? record.timestamp : kMinWatermark, assigner_name_);
    const Timestamp timestamp = record.timestamp;
    Pane* pane = current_;
    if (pane == nullptr || timestamp < pane->start || timestamp >= pane->end) {
      // Another pane than the last element's: only then divide to find it.
      const Timestamp latest_end =
          TimeWindow::getWindowStartWithOffset(timestamp, grid_.offset, grid_.slide) + grid_.size;
      if (latest_end - 1 <= watermark_) {
        onLateElement(record);
        return;
      }
      pane = &paneAt(TimeWindow::getWindowStartWithOffset(timestamp, grid_.offset, pane_size_));
    } else if (pane->latest_window_end - 1 <= watermark_) {
      onLateElement(record);
      return;
    }
    const std::uint64_t order = grid_.isTumbling() ? pane->slots.size() : next_arrival_++;
    pane->add(key_selector_(std::as_const(record.value)), record.value, order, aggregation_);
  }

  void processWatermark(Timestamp watermark) override {
    watermark_ = watermark;
    if (grid_.isTumbling()) {
      fireTumbling();
    } else {
      fireSliding();
    }
    this->emitWatermarkToAll(watermark);
  }

  std::uint64_t numLateRecordsDropped() const { return num_late_records_dropped_; }

  /// One entry per (key, pane) with data, plus the window function's keyed state.
  std::size_t numStateEntries() const override {
    return paneEntries() + (backend_ != nullptr ? backend_->numStateEntries() : 0);
  }
  /// The (key, window) firings still due: what the general operator holds as timers.
  std::size_t numEventTimeTimers() const override {
    if (grid_.isTumbling()) return paneEntries();
    struct PendingHash {
      std::size_t operator()(const std::pair<K, Timestamp>& p) const {
        return hashStatePart(p.first) ^ static_cast<std::size_t>(mix64(static_cast<std::uint64_t>(p.second)));
      }
    };
    absl::flat_hash_set<std::pair<K, Timestamp>, PendingHash> pending;
    for (const auto& pane : panes_) {
      for (Timestamp end = firstWindowEndAfter(pane->start); end - grid_.size <= pane->start; end += grid_.slide) {
        if (fired_end_ && end <= *fired_end_) continue;
        for (const auto& [key, slot] : pane->slots) pending.emplace(key, end);
      }
    }
    return pending.size();
  }
  std::size_t numProcessingTimeTimers() const override { return 0; }

  /// Bytes the panes hold now (tables and entries, by capacity).
  std::size_t stateBytes() const {
    std::size_t total = 0;
    for (const auto& pane : panes_) total += pane->bytes();
    return total;
  }

  void reportCounters(CounterReport& report) const override {
    report.add("numLateRecordsDropped", num_late_records_dropped_);
    report.add("windowStateBytesPeak", peak_state_bytes_);
    report.add("windowStateEntriesAtPeak", peak_state_entries_);
  }

  /// The panes, the window function's keyed state, and the watermark (see
  /// the file comment). Counters and peaks are metrics, not state.
  OperatorSnapshot snapshotState(std::int64_t checkpoint_id) const override {
    const OperatorContext& context = this->context();
    KeyedStateSnapshot keyed{context.max_parallelism, {}};
    if constexpr (kAppliesFunction) {
      this->requireOpenedForSnapshot(backend_.get());
      keyed = backend_->snapshot();
      for (const StateSnapshot& state : keyed.states) {
        if (state.name == kSlicingPanesStateName) {
          throw InvalidProgramException(fmt::format(
              "window operator '{}' cannot be snapshotted: its window function's state '{}' has the name of the "
              "window panes; rename the state",
              context.name, state.name));
        }
      }
    }
    keyed.states.push_back(writePanes<K, ACC>(
        [this](auto&& f) {
          for (const auto& pane : panes_) {
            for (const auto& [key, slot] : pane->slots) f(pane->start, key, slot.accumulator, slot.order);
          }
        },
        KeyGroupAssigner(context.max_parallelism), context.name));
    std::sort(keyed.states.begin(), keyed.states.end(),
              [](const StateSnapshot& a, const StateSnapshot& b) { return a.name < b.name; });
    return {checkpoint_id, std::move(keyed), std::nullopt, watermark_};
  }

 private:
  // The panes' entries of every snapshot, taken out of its keyed state; what
  // is left is the window function's.
  static std::vector<StateSnapshot> takePanes(std::vector<OperatorSnapshot>& snapshots) {
    std::vector<StateSnapshot> panes;
    for (OperatorSnapshot& snapshot : snapshots) {
      if (!snapshot.keyed_state) continue;
      auto& states = snapshot.keyed_state->states;
      auto it = std::find_if(states.begin(), states.end(),
                             [](const StateSnapshot& state) { return state.name == kSlicingPanesStateName; });
      if (it == states.end()) continue;
      panes.push_back(std::move(*it));
      states.erase(it);
    }
    return panes;
  }

  // Each key takes its place again in its pane (tumbling) or in arrival
  // order across panes (sliding); readPanes() returns them in that order.
  void restorePanes(std::span<const StateSnapshot> panes, Timestamp watermark) {
    const OperatorContext& context = this->context();
    for (auto& entry : readPanes<K, ACC>(panes, context.key_group_range, KeyGroupAssigner(context.max_parallelism),
                                         context.name)) {
      Pane& pane = paneAt(entry.pane_start);
      const std::uint64_t order = grid_.isTumbling() ? pane.slots.size() : next_arrival_++;
      if (!pane.slots.try_emplace(std::move(entry.key), Slot{std::move(entry.accumulator), order}).second) {
        throw SerializationError(fmt::format("window operator '{}': a key appears twice in the pane at {}",
                                             context.name, entry.pane_start));
      }
    }
    current_ = nullptr;
    watermark_ = watermark;
    if (!grid_.isTumbling()) closeWindowsUpToWatermark();  // what fireSliding() left at this watermark
  }

  // Arrival numbers count as dense while they span fewer than this many
  // numbers per entry. Behind combiners in P source subtasks a key arrives
  // about P times per pane, so the bound leaves room for a few; the scan of
  // the holes is sequential and costs far less than the sort it replaces.
  static constexpr std::uint64_t kDensity = 8;

  // A key's partial aggregate in a pane (or a sliding window) and where the
  // key stands in arrival order: in a tumbling pane its position among the
  // pane's keys (0, 1, 2, ...), elsewhere the arrival number of its first
  // element, which is what panes are combined and sorted by.
  struct Slot {
    ACC accumulator;
    std::uint64_t order;
  };

  struct KeyHash {
    std::size_t operator()(const K& key) const { return hashStatePart(key); }
  };

  // Large panes are probed at random across tens of megabytes: huge pages
  // keep those probes from also missing the TLB.
  using SlotTable = absl::flat_hash_map<K, Slot, KeyHash, std::equal_to<K>,
                                        HugePageAllocator<std::pair<const K, Slot>>>;
  using Entry = typename SlotTable::value_type;

  // One hash table per pane: one probe per element.
  struct Pane {
    Pane(Timestamp pane_start, const SliceGrid& grid)
        : start(pane_start),
          end(saturatingAdd(pane_start, grid.paneSize())),
          latest_window_end(TimeWindow::getWindowStartWithOffset(pane_start, grid.offset, grid.slide) + grid.size) {}
    Pane(const Pane&) = delete;
    Pane& operator=(const Pane&) = delete;

    void add(const K& key, const IN& value, std::uint64_t order, const Aggregation& aggregation) {
      auto [it, inserted] = slots.try_emplace(key);
      if (inserted) {
        it->second = Slot{aggregation.first(value), order};
      } else {
        aggregation.add(it->second.accumulator, value);
      }
    }

    std::size_t bytes() const { return sizeof(Pane) + slots.capacity() * (sizeof(typename SlotTable::slot_type) + 1); }

    Timestamp start;
    Timestamp end;
    /// The end of the last window that contains this pane.
    Timestamp latest_window_end;
    SlotTable slots;
  };

  std::size_t paneEntries() const {
    std::size_t total = 0;
    for (const auto& pane : panes_) total += pane->slots.size();
    return total;
  }

  // One key's result for the window [start, start + size): its aggregate,
  // or what the window function makes of it. The window is then cleaned up
  // (allowed lateness is 0), so the function's clear() follows at once, as
  // on the general operator, where the window's cleanup timer is its firing
  // timer.
  void emitEntry(const Entry& entry, Timestamp window_start) {
    if constexpr (kAppliesFunction) {
      backend_->setCurrentKey(entry.first);
      window_ = TimeWindow{window_start, window_start + grid_.size};
      aggregation_.emit(entry.first, window_, entry.second.accumulator, *window_context_, collector_);
      aggregation_.function.clear(*window_context_);
    } else {
      collector_.collect(aggregation_.result(entry.second.accumulator));
    }
  }

  void onLateElement(StreamRecord<IN>& record) {
    if (late_data_tag_) {
      this->emitSideOutput(*late_data_tag_, record);
    } else {
      ++num_late_records_dropped_;
    }
  }

  Pane& paneAt(Timestamp start) {
    auto it = std::lower_bound(panes_.begin(), panes_.end(), start,
                               [](const std::unique_ptr<Pane>& pane, Timestamp s) { return pane->start < s; });
    if (it == panes_.end() || (*it)->start != start) {
      // Keys recur from pane to pane: sizing the table like the last one
      // released saves growing it step by step (each step rehashes
      // everything). Only when no other pane is live, so that the tables'
      // peak memory is not doubled at pane boundaries.
      const bool alone = panes_.empty();
      it = panes_.insert(it, std::make_unique<Pane>(start, grid_));
      if (alone) (*it)->slots.reserve(last_released_size_);
    }
    current_ = it->get();
    return **it;
  }

  void notePeak() {
    const std::size_t bytes = stateBytes();
    if (bytes > peak_state_bytes_) {
      peak_state_bytes_ = bytes;
      peak_state_entries_ = numStateEntries();
    }
  }

  void releaseFrontPane() {
    last_released_size_ = panes_.front()->slots.size();
    if (current_ == panes_.front().get()) current_ = nullptr;
    panes_.erase(panes_.begin());
  }

  // Tumbling: a pane is a window; it fires when the watermark reaches its
  // maxTimestamp. Its keys' positions are dense, so arrival order is restored
  // by placing each accumulator at its position: no sort, and the table is
  // read front to back.
  void fireTumbling() {
    while (!panes_.empty() && panes_.front()->start + grid_.size - 1 <= watermark_) {
      notePeak();
      const Pane& pane = *panes_.front();
      collector_.setTimestamp(pane.start + grid_.size - 1);
      if constexpr (std::is_default_constructible_v<ACC> && !kAppliesFunction) {
        // Copies, so that emitting reads memory in order too.
        in_order_.resize(pane.slots.size());
        for (const auto& [key, slot] : pane.slots) in_order_[slot.order] = slot.accumulator;
        for (const ACC& accumulator : in_order_) collector_.collect(aggregation_.result(accumulator));
      } else {
        by_arrival_.resize(pane.slots.size());
        for (const Entry& entry : pane.slots) by_arrival_[entry.second.order] = &entry;
        for (const Entry* entry : by_arrival_) emitEntry(*entry, pane.start);
      }
      releaseFrontPane();
    }
  }

  // The first window end on the grid strictly after `t`.
  Timestamp firstWindowEndAfter(Timestamp t) const {
    const Timestamp end_grid_offset = grid_.offset + grid_.size;
    return TimeWindow::getWindowStartWithOffset(t, end_grid_offset, grid_.slide) + grid_.slide;
  }

  // Sliding: fire, in order, every window that ends at or before the
  // watermark and holds the front pane; drop panes no later window needs.
  void fireSliding() {
    while (!panes_.empty()) {
      Timestamp end = firstWindowEndAfter(panes_.front()->start);
      if (fired_end_) end = std::max(end, *fired_end_ + grid_.slide);
      if (end - 1 > watermark_) break;
      notePeak();
      emitSlidingWindow(end - grid_.size, end);
      fired_end_ = end;
      while (!panes_.empty() && panes_.front()->start < end + grid_.slide - grid_.size) releaseFrontPane();
    }
    closeWindowsUpToWatermark();
  }

  /// Every window that ends at or before the watermark is closed, with data
  /// or not: an element arriving later belongs only to windows after it (the
  /// general operator skips late windows the same way).
  void closeWindowsUpToWatermark() {
    if (watermark_ == kMinWatermark || watermark_ == kMaxWatermark) return;
    const Timestamp closed_end =
        TimeWindow::getWindowStartWithOffset(watermark_ + 1, grid_.offset + grid_.size, grid_.slide);
    if (!fired_end_ || closed_end > *fired_end_) fired_end_ = closed_end;
  }

  void emitSlidingWindow(Timestamp start, Timestamp end) {
    const Pane* only = nullptr;
    int panes_in_window = 0;
    for (const auto& pane : panes_) {
      if (pane->start < start) continue;
      if (pane->start >= end) break;
      only = pane.get();
      ++panes_in_window;
    }
    // A window with data in one pane only (the first and last windows of a
    // stream, sparse keys) is that pane: nothing to combine.
    const SlotTable& slots = panes_in_window == 1 ? only->slots : combinePanes(start, end);
    collector_.setTimestamp(end - 1);
    emitByArrival(slots, start);
  }

  // Emits a window's entries in arrival order (of each key's first element
  // in the window). Those arrival numbers are distinct and, when most
  // elements are the first of their key in their pane (always so behind a
  // combiner upstream), dense: then each entry is placed at its number and
  // the numbers are walked, two linear passes where a sort costs n log n
  // comparisons (an eighth of q5's time over 120M events). Sparse numbers
  // (many elements per key) are sorted instead, as the array would be
  // mostly holes.
  void emitByArrival(const SlotTable& slots, Timestamp window_start) {
    if (slots.empty()) return;
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t last = 0;
    for (const auto& [key, slot] : slots) {
      first = std::min(first, slot.order);
      last = std::max(last, slot.order);
    }
    if (last - first < kDensity * static_cast<std::uint64_t>(slots.size())) {
      by_arrival_.assign(last - first + 1, nullptr);
      for (const Entry& entry : slots) by_arrival_[entry.second.order - first] = &entry;
      for (const Entry* entry : by_arrival_) {
        if (entry != nullptr) emitEntry(*entry, window_start);
      }
      return;
    }
    // The arrival numbers sit next to the pointers, so sorting compares
    // without following a pointer into the table for every comparison.
    sliding_order_.clear();
    for (const Entry& entry : slots) sliding_order_.emplace_back(entry.second.order, &entry);
    std::sort(sliding_order_.begin(), sliding_order_.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [order, entry] : sliding_order_) emitEntry(*entry, window_start);
  }

  // The panes of [start, end) combined per key, in window_slots_.
  const SlotTable& combinePanes(Timestamp start, Timestamp end) {
    // Windows that follow each other hold mostly the same keys, so the last
    // window's table is emptied in place, keeping its memory: clear() would
    // free a large table, and the combination below would then regrow it
    // (rehashing step after step) or fault in fresh pages for a reserve().
    absl::erase_if(window_slots_, [](const auto&) { return true; });
    for (const auto& pane : panes_) {
      if (pane->start < start) continue;
      if (pane->start >= end) break;
      for (const auto& [key, slot] : pane->slots) combineIntoWindow(key, slot);
    }
    return window_slots_;
  }

  // Partial aggregates meet in the order their first elements arrived.
  void combineIntoWindow(const K& key, const Slot& slot) {
    auto [it, inserted] = window_slots_.try_emplace(key, slot);
    if (inserted) return;
    Slot& combined = it->second;
    if (slot.order < combined.order) {
      ACC earlier = slot.accumulator;
      aggregation_.combine(earlier, combined.accumulator);
      combined.accumulator = std::move(earlier);
      combined.order = slot.order;
    } else {
      aggregation_.combine(combined.accumulator, slot.accumulator);
    }
  }

  std::function<K(const IN&)> key_selector_;
  SliceGrid grid_;
  Duration pane_size_;
  Aggregation aggregation_;
  std::optional<OutputTag<IN>> late_data_tag_;
  std::string assigner_name_;
  TimestampedCollector<OUT> collector_;

  std::vector<std::unique_ptr<Pane>> panes_;  // by start
  Pane* current_ = nullptr;                   // the pane the last element went to
  Timestamp watermark_ = kMinWatermark;
  std::size_t last_released_size_ = 0;
  std::optional<Timestamp> fired_end_;        // sliding: end of the last window fired
  std::uint64_t next_arrival_ = 0;
  std::uint64_t num_late_records_dropped_ = 0;
  std::uint64_t peak_state_bytes_ = 0;
  std::uint64_t peak_state_entries_ = 0;

  // Scratch, reused across windows: a sliding window's combined panes, and
  // the entries of the window being emitted, in arrival order.
  SlotTable window_slots_;
  std::vector<std::pair<std::uint64_t, const Entry*>> sliding_order_;  // (arrival number, entry)
  // Entries by arrival position: a tumbling pane's, or a sliding window's
  // dense arrival numbers (nullptr where a number is not a key's first).
  std::vector<const Entry*> by_arrival_;
  std::vector<ACC> in_order_;

  // A window function's keyed state and context (none for aggregations):
  // the context reads the window being emitted through emitting_window_.
  std::unique_ptr<HeapKeyedStateBackend<K>> backend_;
  std::unique_ptr<KeyedRuntimeContext<K>> runtime_context_;
  std::unique_ptr<WindowContextImpl<K, TimeWindow>> window_context_;
  TimeWindow window_{0, 0};
  const TimeWindow* emitting_window_ = &window_;
};

}  // namespace tidemark::internal
