// KeyedStateBackend<K>: where the keyed state of one operator subtask lives,
// seen by the contexts a function receives (RuntimeContext, KeyedStateStore,
// TriggerContext). The heap backend implements it; a backend that keeps state
// elsewhere (on disk) implements the same interface, and the contexts and the
// functions using them do not change.
//
// Contract:
// - The backend owns the key groups in getKeyGroupRange() out of
//   getMaxParallelism(). The runtime sets the current key before each element
//   and timer; every state reads and writes the current key's entry.
// - A state is created on first request and owned by the backend; the
//   reference stays valid as long as the backend. Asking again with the same
//   name returns the same state (the new descriptor's default value or
//   function is ignored); the same name with another kind, value type or
//   namespace type throws std::logic_error naming the state.
// - getState() and friends are the state outside any namespace;
//   getPartitionedState<N>() is the state in namespaces of type N (windows),
//   pointed at one with setCurrentNamespace().
// - Not thread-safe: one task thread owns a backend and its states.
//
// Example:
//   ValueState<long>& count = backend.getState(ValueStateDescriptor<long>("count", 0L));
//   backend.setCurrentKey("alice", group);
//   count.update(*count.value() + 1);
#pragma once

#include "tidemark/core/key_group.h"
#include "tidemark/core/void_namespace.h"
#include "tidemark/internal/state/state_object.h"
#include "tidemark/internal/state/state_request.h"
#include "tidemark/state/namespaced_state.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark {

template <class K>
class KeyedStateBackend {
 public:
  KeyedStateBackend() = default;
  virtual ~KeyedStateBackend() = default;
  // States point at the backend's current key; a copy would leave them dangling.
  KeyedStateBackend(const KeyedStateBackend&) = delete;
  KeyedStateBackend& operator=(const KeyedStateBackend&) = delete;

  virtual KeyGroupRange getKeyGroupRange() const = 0;
  virtual int getMaxParallelism() const = 0;

  /// Make `key`, of key group `key_group`, current. Throws std::logic_error
  /// when the group is outside getKeyGroupRange().
  virtual void setCurrentKey(const K& key, int key_group) = 0;
  /// Throws std::logic_error before the first setCurrentKey().
  virtual const K& getCurrentKey() const = 0;
  /// Throws std::logic_error before the first setCurrentKey().
  virtual int getCurrentKeyGroup() const = 0;

  template <class V>
  ValueState<V>& getState(const ValueStateDescriptor<V>& descriptor) {
    return getPartitionedState<VoidNamespace>(descriptor);
  }
  template <class V>
  ListState<V>& getListState(const ListStateDescriptor<V>& descriptor) {
    return getPartitionedState<VoidNamespace>(descriptor);
  }
  template <class UK, class UV>
  MapState<UK, UV>& getMapState(const MapStateDescriptor<UK, UV>& descriptor) {
    return getPartitionedState<VoidNamespace>(descriptor);
  }
  template <class V>
  ReducingState<V>& getReducingState(const ReducingStateDescriptor<V>& descriptor) {
    return getPartitionedState<VoidNamespace>(descriptor);
  }
  template <class IN, class ACC, class OUT>
  AggregatingState<IN, OUT>& getAggregatingState(const AggregatingStateDescriptor<IN, ACC, OUT>& descriptor) {
    return getPartitionedState<VoidNamespace>(descriptor);
  }

  /// The state `descriptor` names, in namespaces of type N: a
  /// NamespacedState<N, ValueState<V>> for a ValueStateDescriptor<V>, a
  /// MergingNamespacedState for list, reducing and aggregating state.
  template <class N, class Descriptor>
  typename internal::TypedStateRequest<K, N, Descriptor>::Interface& getPartitionedState(
      const Descriptor& descriptor) {
    const internal::TypedStateRequest<K, N, Descriptor> request(descriptor);
    return request.as(getOrCreateState(request));
  }

 protected:
  /// The state registered under the request's name, or a new one the backend
  /// builds through the request; the caller checks its kind and types.
  virtual internal::StateObject& getOrCreateState(const internal::StateRequest<K>& request) = 0;
};

}  // namespace tidemark
