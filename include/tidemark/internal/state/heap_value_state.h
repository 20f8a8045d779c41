// ValueState kept in memory, per (key, namespace), for the heap keyed state backend.
//
// Contract: as ValueState. value() and update() on an existing entry do not
// allocate beyond what copying or moving V does. Obtained from
// HeapKeyedStateBackend, never constructed by user code.
//
// Example:
//   InternalValueState<long, TimeWindow, long>& seen =
//       backend.getPartitionedState<TimeWindow>(ValueStateDescriptor<long>("seen"));
//   seen.setCurrentNamespace(window);
//   seen.update(seen.value().value_or(0) + 1);
#pragma once

#include <optional>
#include <utility>

#include "tidemark/internal/state/state_table.h"
#include "tidemark/state/namespaced_state.h"
#include "tidemark/state/state_descriptor.h"
#include "tidemark/state/value_state.h"

namespace tidemark::internal {

template <class K, class N, class V>
class HeapValueState final : public HeapStateBase<K, N, V, NamespacedState<N, ValueState<V>>> {
  using Base = HeapStateBase<K, N, V, NamespacedState<N, ValueState<V>>>;

 public:
  HeapValueState(const ValueStateDescriptor<V>& descriptor, const CurrentKeyContext<K>& context,
                 int num_key_groups)
      : Base(descriptor, context, num_key_groups),
        default_value_(descriptor.getDefaultValue()) {}

  std::optional<V> value() const override {
    if (const V* stored = this->table_.find(this->table_.currentNamespace())) {
      return *stored;
    }
    return default_value_;
  }

  void update(V value) override { this->table_.put(this->table_.currentNamespace(), std::move(value)); }

  /// The current key's value, created from `make()` when absent, in one
  /// lookup and without a copy: for operators that read-modify-write state
  /// per record, where value() + update() would probe the table twice.
  /// The current namespace's value without a copy; nullptr when empty.
  V* peek() { return this->table_.find(this->table_.currentNamespace()); }

  template <class Make>
  V& findOrCreate(Make&& make) {
    return this->table_.findOrCreate(this->table_.currentNamespace(), std::forward<Make>(make));
  }

  void clear() override { this->table_.erase(this->table_.currentNamespace()); }

 private:
  std::optional<V> default_value_;
};

/// The name operators use, so that a second backend can make it an interface
/// without touching them.
template <class K, class N, class V>
using InternalValueState = HeapValueState<K, N, V>;

}  // namespace tidemark::internal
