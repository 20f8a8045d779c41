// TriggerContext: what a trigger may do while it decides about one window of
// one key: read both clocks, register and delete timers for that key and
// window, and keep state scoped to the key and window.
//
// Contract:
// - Timers registered here call back the trigger with the same window; a
//   timer registered twice for the same time fires once.
// - getPartitionedState(descriptor) returns the state of the current key and
//   this window; call it in every callback rather than keeping the reference,
//   because it is pointed at the window of the call when it is returned.
//   Window state of a trigger must be removed in Trigger::clear(); the window
//   operator calls clear() when the window is cleaned up.
// - OnMergeContext is handed to onMerge(): window() is the merged window, and
//   mergePartitionedState(descriptor) folds the state the merged windows held
//   into it (reducing and aggregating state only: a value cannot be merged).
#pragma once

#include <vector>

#include "tidemark/core/time.h"
#include "tidemark/internal/state/erased_key.h"
#include "tidemark/functions/keyed_state_backend.h"

namespace tidemark {

template <class W>
class TriggerContext {
 public:
  virtual ~TriggerContext() = default;

  virtual Timestamp getCurrentProcessingTime() const = 0;
  virtual Timestamp getCurrentWatermark() const = 0;
  virtual void registerEventTimeTimer(Timestamp time) = 0;
  virtual void registerProcessingTimeTimer(Timestamp time) = 0;
  virtual void deleteEventTimeTimer(Timestamp time) = 0;
  virtual void deleteProcessingTimeTimer(Timestamp time) = 0;

  /// The window the current callback is about.
  const W& window() const { return *window_; }

  template <class V>
  ValueState<V>& getPartitionedState(const ValueStateDescriptor<V>& descriptor) {
    return scoped(stateBackend().template getPartitionedState<W>(descriptor));
  }
  template <class V>
  ListState<V>& getPartitionedState(const ListStateDescriptor<V>& descriptor) {
    return scoped(stateBackend().template getPartitionedState<W>(descriptor));
  }
  template <class UK, class UV>
  MapState<UK, UV>& getPartitionedState(const MapStateDescriptor<UK, UV>& descriptor) {
    return scoped(stateBackend().template getPartitionedState<W>(descriptor));
  }
  template <class V>
  ReducingState<V>& getPartitionedState(const ReducingStateDescriptor<V>& descriptor) {
    return scoped(stateBackend().template getPartitionedState<W>(descriptor));
  }
  template <class IN, class ACC, class OUT>
  AggregatingState<IN, OUT>& getPartitionedState(const AggregatingStateDescriptor<IN, ACC, OUT>& descriptor) {
    return scoped(stateBackend().template getPartitionedState<W>(descriptor));
  }

  /// Runtime use: the window of the next callback.
  void setWindow(const W& window) { window_ = &window; }

 protected:
  /// Keyed by the operator's current key, with windows as namespaces.
  virtual KeyedStateBackend<internal::ErasedKey>& stateBackend() = 0;

 private:
  template <class S>
  S& scoped(S& state) {
    state.setCurrentNamespace(*window_);
    return state;
  }

  const W* window_ = nullptr;
};

template <class W>
class OnMergeContext : public TriggerContext<W> {
 public:
  /// Fold the state `descriptor` names of every merged window into window().
  template <class V>
  void mergePartitionedState(const ReducingStateDescriptor<V>& descriptor) {
    this->stateBackend().template getPartitionedState<W>(descriptor).mergeNamespaces(this->window(), mergedWindows());
  }
  template <class IN, class ACC, class OUT>
  void mergePartitionedState(const AggregatingStateDescriptor<IN, ACC, OUT>& descriptor) {
    this->stateBackend().template getPartitionedState<W>(descriptor).mergeNamespaces(this->window(), mergedWindows());
  }
  template <class V>
  void mergePartitionedState(const ListStateDescriptor<V>& descriptor) {
    this->stateBackend().template getPartitionedState<W>(descriptor).mergeNamespaces(this->window(), mergedWindows());
  }

  /// The windows that were merged into window().
  virtual const std::vector<W>& mergedWindows() const = 0;
};

}  // namespace tidemark
