// WindowOperator: keyed windows with a trigger, allowed lateness and a late
// side output (docs/semantics.md 4.3 - 4.10), for any assigner, trigger, contents
// policy (window_contents.h) and window function (internal_window_function.h).
//
// Per element: assign windows; for a merging assigner, merge them into the
// key's live sessions first; skip windows that are already late; add the
// element to each remaining window, ask the trigger, emit and/or purge, and
// register the window's cleanup timer. A (non-merging) window's cleanup timer
// is registered by its first element only, and the built-in time triggers
// are not asked again while they would only register their timer again
// (WindowEndTimerTrigger). An element that every window skipped
// and that is itself late goes to the late side output, or is dropped and
// counted (numLateRecordsDropped).
// Per timer: ask the trigger, emit and/or purge, and at the window's cleanup
// time remove everything the window holds: contents, trigger state, the
// window function's per-window state, its place in the merging set.
//
// Results are stamped with the window's maxTimestamp(). Not thread-safe: one
// task thread runs it, like every operator.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/output_tag.h"
#include "tidemark/core/void_namespace.h"
#include "tidemark/functions/runtime_context.h"
#include "tidemark/functions/window_context.h"
#include "tidemark/internal/window/window_context_impl.h"
#include "tidemark/internal/operators/internal_timer_service.h"
#include "tidemark/internal/operators/keyed_operator_stats.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/operators/timestamped_collector.h"
#include "tidemark/internal/operators/operator_snapshot.h"
#include "tidemark/internal/operators/timer_snapshot.h"
#include "tidemark/internal/window/merging_window_set.h"
#include "tidemark/internal/window/window_state_snapshot.h"
#include "tidemark/internal/window/window_trigger_context.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"
#include "tidemark/windowing/evictor.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark::internal {

/// What a window operator is configured with, besides its contents and function.
template <class K, class IN, class W>
struct WindowOperatorSettings {
  std::function<K(const IN&)> key_selector;
  std::unique_ptr<WindowAssigner<IN, W>> assigner;
  std::unique_ptr<Trigger<IN, W>> trigger;
  Duration allowed_lateness = 0;
  std::optional<OutputTag<IN>> late_data_tag;
};

template <class K, class IN, class W, class Contents, class Function>
class WindowOperator final : public OneInputOperator<IN, typename Function::OutputType>,
                             public TimerTarget<K, W>,
                             public KeyedOperatorStats,
                             private WindowAssignerContext,
                             private EvictorContext {
 public:
  using OUT = typename Function::OutputType;
  using Value = typename Contents::Value;
  using Mapping = typename MergingWindowSet<W>::Mapping;
  /// Builds the contents policy once the operator's state backend exists.
  using ContentsFactory = std::function<Contents(HeapKeyedStateBackend<K>&, const EvictorContext&)>;

  WindowOperator(WindowOperatorSettings<K, IN, W> settings, ContentsFactory contents_factory, Function function)
      : settings_(std::move(settings)), contents_factory_(std::move(contents_factory)), function_(std::move(function)) {
    if (settings_.allowed_lateness < 0) {
      throw std::invalid_argument(fmt::format("allowed lateness must be >= 0, not {}", settings_.allowed_lateness));
    }
    merging_assigner_ = dynamic_cast<MergingWindowAssigner<IN, W>*>(settings_.assigner.get());
    if (merging_assigner_ != nullptr && !settings_.trigger->canMerge()) {
      throw std::invalid_argument(fmt::format("a merging window assigner ({}) needs a trigger that can merge, and {} cannot",
                                              settings_.assigner->toString(), settings_.trigger->toString()));
    }
    is_event_time_ = settings_.assigner->isEventTime();
    window_end_trigger_ = dynamic_cast<const WindowEndTimerTrigger<W>*>(settings_.trigger.get());
    // The trigger's timer and the cleanup timer are one timer when both are
    // at the window's end in the same time domain (no allowed lateness on
    // event time; processing-time windows have none).
    trigger_clear_deletes_cleanup_timer_ = window_end_trigger_ != nullptr &&
                                           window_end_trigger_->timerIsEventTime() == is_event_time_ &&
                                           (!is_event_time_ || settings_.allowed_lateness == 0);
  }

  void open() override {
    const OperatorContext& context = this->context();
    backend_ = std::make_unique<HeapKeyedStateBackend<K>>(context.key_group_range, context.max_parallelism);
    timers_ = std::make_unique<InternalTimerService<K, W>>(this->processingTimeService(), *this);
    trigger_context_ = std::make_unique<WindowTriggerContext<K, W>>(*timers_, *backend_, current_watermark_);
    // Before anything asks for state: the states fill from the snapshots then.
    if (this->isRestored()) restore(this->takeRestoredSnapshots());
    contents_.emplace(contents_factory_(*backend_, *this));
    runtime_context_ = std::make_unique<KeyedRuntimeContext<K>>(context.runtimeContext(), *backend_);
    window_context_ = std::make_unique<WindowContextImpl<K, W>>(*this, *backend_, current_window_, current_watermark_,
                                                            merging_assigner_ != nullptr);
    collector_.setOutput(&this->output());
    if (merging_assigner_ != nullptr) {
      merging_windows_ = &backend_->template getPartitionedState<VoidNamespace>(
          ValueStateDescriptor<Mapping>("merging-window-set"));
    }
    function_.open(*runtime_context_);
  }

  void close() override { function_.close(); }

  void processElement(StreamRecord<IN>& record) override {
    setCurrentKey(settings_.key_selector(std::as_const(record.value)));
    windows_.clear();
    settings_.assigner->assignWindows(record.value, record.has_timestamp ? record.timestamp : kMinWatermark, *this,
                                      windows_);
    const bool skipped = merging_assigner_ != nullptr ? addToMergingWindows(record) : addToWindows(record);
    if (skipped && isElementLate(record)) {
      if (settings_.late_data_tag) {
        this->emitSideOutput(*settings_.late_data_tag, record);
      } else {
        ++num_late_records_dropped_;
      }
    }
  }

  void processWatermark(Timestamp watermark) override {
    current_watermark_ = watermark;
    timers_->advanceWatermark(watermark);
    this->emitWatermarkToAll(watermark);
  }

  void onEventTime(const TimerEntry<K, W>& timer) override { onTimer(timer, /*event_time=*/true); }
  void onProcessingTime(const TimerEntry<K, W>& timer) override { onTimer(timer, /*event_time=*/false); }

  /// Late elements neither added to a window nor sent to a late side output.
  std::uint64_t numLateRecordsDropped() const { return num_late_records_dropped_; }
  /// Live keyed state entries: contents, trigger state, merging sets, function state.
  std::size_t numStateEntries() const override {
    return backend_->numStateEntries() + trigger_context_->numStateEntries();
  }
  std::size_t numEventTimeTimers() const override { return timers_->numEventTimeTimers(); }
  std::size_t numProcessingTimeTimers() const override { return timers_->numProcessingTimeTimers(); }

  void reportCounters(CounterReport& report) const override {
    report.add("numLateRecordsDropped", num_late_records_dropped_);
  }

  /// Everything a window holds (window_state_snapshot.h), its timers, and
  /// the operator's event time. The late-record counter is a metric, not state.
  OperatorSnapshot snapshotState(std::int64_t checkpoint_id) const override {
    this->requireOpenedForSnapshot(backend_.get());
    return {checkpoint_id,
            withTriggerStates(backend_->snapshot(), trigger_context_->snapshot(), this->context().name),
            snapshotTimers(*timers_, KeyGroupAssigner(backend_->getMaxParallelism())), current_watermark_};
  }

 private:
  void restore(std::vector<OperatorSnapshot> snapshots) {
    restoreTimers(*timers_, timersOf(snapshots), this->context().key_group_range,
                  KeyGroupAssigner(backend_->getMaxParallelism()));
    current_watermark_ = restoredWatermark(snapshots);
    timers_->restoreWatermark(current_watermark_);
    SplitWindowStates states = splitTriggerStates(std::move(snapshots));
    backend_->restore(states.operator_states);
    trigger_context_->restore(states.trigger_states);
  }

  // ---- element path ----

  // Returns whether every window skipped the element (docs/semantics.md 4.4).
  bool addToWindows(const StreamRecord<IN>& record) {
    bool skipped = true;
    for (const W& window : windows_) {
      if (isWindowLate(window)) continue;
      skipped = false;
      contents_->setWindow(window);
      const bool first_element = contents_->add(record);
      if (first_element || !triggerRepeatsOnElement(window)) {
        trigger_context_->setWindow(window);
        const TriggerResult result =
            settings_.trigger->onElement(record.value, record.timestamp, window, *trigger_context_);
        applyTriggerResult(result, window);
      }
      // The cleanup timer the first element registered stays until the
      // window is cleared, and clearing drops the contents.
      if (first_element) registerCleanupTimer(window);
    }
    return skipped;
  }

  bool triggerRepeatsOnElement(const W& window) const {
    return window_end_trigger_ != nullptr && window_end_trigger_->repeatsOnElement(window, *trigger_context_);
  }

  // docs/semantics.md 4.5. The key's merging set is edited in place in its state
  // entry; nothing else writes that state while this runs.
  bool addToMergingWindows(const StreamRecord<IN>& record) {
    Mapping& mapping = merging_windows_->findOrCreate([] { return Mapping{}; });
    MergingWindowSet<W> set(mapping);
    bool skipped = true;
    for (const W& window : windows_) {
      const W actual = set.addWindow(window, *merging_assigner_, merge_scratch_,
                                     [&](const W& result, const std::vector<W>& merged, const W& state_window,
                                         const std::vector<W>& merged_state_windows) {
                                       onMerge(result, merged, state_window, merged_state_windows);
                                     });
      if (isWindowLate(actual)) {
        set.retireWindow(actual);
        continue;
      }
      skipped = false;
      const W state_window = *set.getStateWindow(actual);
      contents_->setWindow(state_window);
      contents_->add(record);
      trigger_context_->setWindow(actual);
      const TriggerResult result = settings_.trigger->onElement(record.value, record.timestamp, actual, *trigger_context_);
      applyTriggerResult(result, actual);
      registerCleanupTimer(actual);
    }
    if (mapping.empty()) merging_windows_->clear();
    return skipped;
  }

  void onMerge(const W& result, const std::vector<W>& merged, const W& state_window,
               const std::vector<W>& merged_state_windows) {
    if (is_event_time_ && saturatingAdd(result.maxTimestamp(), settings_.allowed_lateness) <= current_watermark_) {
      throw std::logic_error(fmt::format(
          "merging windows moved the end of an event-time window behind the watermark (watermark {}, window end {})",
          current_watermark_, result.maxTimestamp()));
    }
    if (!is_event_time_ && result.maxTimestamp() <= timers_->currentProcessingTime()) {
      throw std::logic_error(fmt::format(
          "merging windows moved the end of a processing-time window behind the current processing time ({}, window end {})",
          timers_->currentProcessingTime(), result.maxTimestamp()));
    }
    trigger_context_->setWindow(result);
    trigger_context_->setMergedWindows(merged);
    settings_.trigger->onMerge(result, *trigger_context_);
    for (const W& window : merged) {
      trigger_context_->setWindow(window);
      settings_.trigger->clear(window, *trigger_context_);
      // A session that grows merges on almost every element; deleting the
      // timer the trigger just deleted would cost two failed lookups.
      if (!trigger_clear_deletes_cleanup_timer_) deleteCleanupTimer(window);
    }
    contents_->merge(state_window, merged_state_windows);
  }

  // ---- timer path (docs/semantics.md 4.6) ----

  void onTimer(const TimerEntry<K, W>& timer, bool event_time) {
    setCurrentKey(timer.key);
    const W& window = timer.ns;
    Mapping* mapping = nullptr;
    if (merging_assigner_ != nullptr) {
      mapping = merging_windows_->peek();
      const W* state_window = mapping != nullptr ? MergingWindowSet<W>(*mapping).getStateWindow(window) : nullptr;
      if (state_window == nullptr) return;  // the window was merged away
      contents_->setWindow(*state_window);
    } else {
      contents_->setWindow(window);
    }
    trigger_context_->setWindow(window);
    const TriggerResult result =
        event_time ? settings_.trigger->onEventTime(timer.timestamp, window, *trigger_context_)
                   : settings_.trigger->onProcessingTime(timer.timestamp, window, *trigger_context_);
    applyTriggerResult(result, window);
    if (event_time == is_event_time_ && timer.timestamp == cleanupTime(window)) clearAllState(window, mapping);
  }

  void clearAllState(const W& window, Mapping* mapping) {
    contents_->clear();
    trigger_context_->setWindow(window);
    settings_.trigger->clear(window, *trigger_context_);
    current_window_ = &window;
    function_.clear(*window_context_);
    if (mapping != nullptr) {
      MergingWindowSet<W>(*mapping).retireWindow(window);
      if (mapping->empty()) merging_windows_->clear();
    }
  }

  // ---- shared ----

  void applyTriggerResult(TriggerResult result, const W& window) {
    if (isFire(result)) {
      contents_->emit(window, [&](std::span<const Value> values) { emitWindowContents(window, values); });
    }
    if (isPurge(result)) contents_->clear();
  }

  void emitWindowContents(const W& window, std::span<const Value> values) {
    collector_.setTimestamp(window.maxTimestamp());
    current_window_ = &window;
    function_.process(backend_->getCurrentKey(), window, *window_context_, values, collector_);
  }

  void setCurrentKey(const K& key) {
    backend_->setCurrentKey(key);
    trigger_context_->keyChanged();
  }

  // Event time: maxTimestamp + lateness, MAX when that overflows (never
  // registered then); processing time: maxTimestamp.
  Timestamp cleanupTime(const W& window) const {
    if (!is_event_time_) return window.maxTimestamp();
    return saturatingAdd(window.maxTimestamp(), settings_.allowed_lateness);
  }

  void registerCleanupTimer(const W& window) {
    const Timestamp time = cleanupTime(window);
    if (time == kMaxWatermark) return;
    if (is_event_time_) {
      timers_->registerEventTimeTimer(backend_->getCurrentKey(), window, time);
    } else {
      timers_->registerProcessingTimeTimer(backend_->getCurrentKey(), window, time);
    }
  }

  void deleteCleanupTimer(const W& window) {
    const Timestamp time = cleanupTime(window);
    if (time == kMaxWatermark) return;
    if (is_event_time_) {
      timers_->deleteEventTimeTimer(backend_->getCurrentKey(), window, time);
    } else {
      timers_->deleteProcessingTimeTimer(backend_->getCurrentKey(), window, time);
    }
  }

  bool isWindowLate(const W& window) const { return is_event_time_ && cleanupTime(window) <= current_watermark_; }

  bool isElementLate(const StreamRecord<IN>& record) const {
    return is_event_time_ && saturatingAdd(record.timestamp, settings_.allowed_lateness) <= current_watermark_;
  }

  Timestamp getCurrentProcessingTime() const override { return this->processingTimeService().currentProcessingTime(); }
  Timestamp getCurrentWatermark() const override { return current_watermark_; }

  WindowOperatorSettings<K, IN, W> settings_;
  ContentsFactory contents_factory_;
  Function function_;
  MergingWindowAssigner<IN, W>* merging_assigner_ = nullptr;
  /// The trigger, when it is a built-in one whose onElement can be skipped.
  const WindowEndTimerTrigger<W>* window_end_trigger_ = nullptr;
  /// Whether the trigger's clear() deletes the window's cleanup timer too.
  bool trigger_clear_deletes_cleanup_timer_ = false;
  bool is_event_time_ = true;

  std::unique_ptr<HeapKeyedStateBackend<K>> backend_;
  std::unique_ptr<InternalTimerService<K, W>> timers_;
  std::unique_ptr<WindowTriggerContext<K, W>> trigger_context_;
  std::optional<Contents> contents_;
  std::unique_ptr<KeyedRuntimeContext<K>> runtime_context_;
  std::unique_ptr<WindowContextImpl<K, W>> window_context_;
  HeapValueState<K, VoidNamespace, Mapping>* merging_windows_ = nullptr;
  typename MergingWindowSet<W>::Scratch merge_scratch_;
  TimestampedCollector<OUT> collector_;

  Timestamp current_watermark_ = kMinWatermark;
  const W* current_window_ = nullptr;
  std::vector<W> windows_;
  std::uint64_t num_late_records_dropped_ = 0;
};

}  // namespace tidemark::internal
