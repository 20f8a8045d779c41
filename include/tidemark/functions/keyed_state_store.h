// KeyedStateStore<K, N>: state of the current key in one namespace, as a
// window function sees it: windowState() (namespace = the window being
// emitted, removed when the window is cleaned up) and globalState()
// (namespace-free, shared by every window of the key).
//
// Contract: the store reads its namespace at each call, so a state returned
// here must be used during the current call only; ask again in the next.
#pragma once

#include "tidemark/functions/keyed_state_backend.h"

namespace tidemark {

template <class K, class N>
class KeyedStateStore {
 public:
  /// `ns` is the runtime's slot for the current namespace.
  KeyedStateStore(KeyedStateBackend<K>& backend, const N* const& ns) : backend_(backend), ns_(ns) {}

  template <class V>
  ValueState<V>& getState(const ValueStateDescriptor<V>& descriptor) {
    return scoped(backend_.template getPartitionedState<N>(descriptor));
  }
  template <class V>
  ListState<V>& getListState(const ListStateDescriptor<V>& descriptor) {
    return scoped(backend_.template getPartitionedState<N>(descriptor));
  }
  template <class UK, class UV>
  MapState<UK, UV>& getMapState(const MapStateDescriptor<UK, UV>& descriptor) {
    return scoped(backend_.template getPartitionedState<N>(descriptor));
  }
  template <class V>
  ReducingState<V>& getReducingState(const ReducingStateDescriptor<V>& descriptor) {
    return scoped(backend_.template getPartitionedState<N>(descriptor));
  }
  template <class IN, class ACC, class OUT>
  AggregatingState<IN, OUT>& getAggregatingState(const AggregatingStateDescriptor<IN, ACC, OUT>& descriptor) {
    return scoped(backend_.template getPartitionedState<N>(descriptor));
  }

 private:
  template <class S>
  S& scoped(S& state) {
    state.setCurrentNamespace(*ns_);
    return state;
  }

  KeyedStateBackend<K>& backend_;
  const N* const& ns_;
};

}  // namespace tidemark
