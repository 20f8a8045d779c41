// StateRequest: one keyed state, as a caller asks a backend for it, carrying
// the key, namespace and value types that only the caller knows.
//
// Why it exists: a backend sits behind a virtual interface
// (KeyedStateBackend<K>), and a virtual function cannot be a template, so the
// backend cannot name ValueState<V> for a V it has never seen. The typed
// request is made where the types are known, and the backend calls back into
// it to build its own kind of state: createOnHeap() builds the typed
// in-memory states of the heap backend. A backend that stores bytes adds its
// own create function here, built on the descriptor's serializers.
//
// Contract:
// - The backend looks the name up first; only a name it has not seen is
//   created. as<Interface>() then checks that the state found is of the kind
//   and types asked for, and throws std::logic_error naming the state when not.
#pragma once

#include <memory>
#include <string>

#include <fmt/format.h>

#include "tidemark/internal/state/heap_aggregating_state.h"
#include "tidemark/internal/state/heap_list_state.h"
#include "tidemark/internal/state/heap_map_state.h"
#include "tidemark/internal/state/heap_reducing_state.h"
#include "tidemark/internal/state/heap_value_state.h"
#include "tidemark/internal/state/state_object.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

template <class K>
class StateRequest {
 public:
  virtual const StateDescriptor& descriptor() const = 0;
  /// A new state held as typed objects in memory, reading the key from `key`.
  virtual std::unique_ptr<StateObject> createOnHeap(const CurrentKeyContext<K>& key, int num_key_groups) const = 0;

 protected:
  ~StateRequest() = default;
};

/// The state `name` was registered as `existing` and is now asked for as `requested`.
[[noreturn]] inline void throwStateMismatch(const std::string& name, StateKind existing, StateKind requested) {
  if (existing != requested) {
    throw std::logic_error(fmt::format("state '{}' is a {} and cannot also be used as a {}", name,
                                       stateKindName(existing), stateKindName(requested)));
  }
  throw std::logic_error(fmt::format("state '{}' is a {} of different value or namespace types than requested", name,
                                     stateKindName(existing)));
}

/// For each descriptor: the heap state that holds it, and the interface callers get.
template <class K, class N, class Descriptor>
struct HeapStateFor;
template <class K, class N, class V>
struct HeapStateFor<K, N, ValueStateDescriptor<V>> {
  using type = HeapValueState<K, N, V>;
  using interface = NamespacedState<N, ValueState<V>>;
};
template <class K, class N, class V>
struct HeapStateFor<K, N, ListStateDescriptor<V>> {
  using type = HeapListState<K, N, V>;
  using interface = MergingNamespacedState<N, ListState<V>>;
};
template <class K, class N, class UK, class UV>
struct HeapStateFor<K, N, MapStateDescriptor<UK, UV>> {
  using type = HeapMapState<K, N, UK, UV>;
  using interface = NamespacedState<N, MapState<UK, UV>>;
};
template <class K, class N, class V>
struct HeapStateFor<K, N, ReducingStateDescriptor<V>> {
  using type = HeapReducingState<K, N, V>;
  using interface = MergingNamespacedState<N, ReducingState<V>>;
};
template <class K, class N, class IN, class ACC, class OUT>
struct HeapStateFor<K, N, AggregatingStateDescriptor<IN, ACC, OUT>> {
  using type = HeapAggregatingState<K, N, IN, ACC, OUT>;
  using interface = MergingNamespacedState<N, AggregatingState<IN, OUT>>;
};

template <class K, class N, class Descriptor>
class TypedStateRequest final : public StateRequest<K> {
 public:
  using HeapState = typename HeapStateFor<K, N, Descriptor>::type;
  using Interface = typename HeapStateFor<K, N, Descriptor>::interface;

  explicit TypedStateRequest(const Descriptor& descriptor) : descriptor_(descriptor) {}

  const StateDescriptor& descriptor() const override { return descriptor_; }

  std::unique_ptr<StateObject> createOnHeap(const CurrentKeyContext<K>& key, int num_key_groups) const override {
    return std::make_unique<HeapState>(descriptor_, key, num_key_groups);
  }

  /// `state`, seen as the interface this request asks for.
  Interface& as(StateObject& state) const {
    if (auto* typed = dynamic_cast<Interface*>(&state)) return *typed;
    throwStateMismatch(descriptor_.getName(), state.kind(), descriptor_.getKind());
  }

 private:
  const Descriptor& descriptor_;
};

}  // namespace tidemark::internal
