// ReducingState kept in memory, per (key, namespace), for the heap keyed state backend.
//
// Contract: as ReducingState, plus mergeNamespaces() for merging windows.
// Obtained from HeapKeyedStateBackend, never constructed by user code.
//
// Example:
//   InternalReducingState<long, TimeWindow, long>& sum = backend.getPartitionedState<TimeWindow>(
//       ReducingStateDescriptor<long>("sum", [](const long& a, const long& b) { return a + b; }));
//   sum.setCurrentNamespace(window);
//   sum.add(3);
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "tidemark/internal/state/state_table.h"
#include "tidemark/state/reducing_state.h"
#include "tidemark/state/namespaced_state.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

template <class K, class N, class V>
class HeapReducingState final : public HeapStateBase<K, N, V, MergingNamespacedState<N, ReducingState<V>>> {
  using Base = HeapStateBase<K, N, V, MergingNamespacedState<N, ReducingState<V>>>;

 public:
  HeapReducingState(const ReducingStateDescriptor<V>& descriptor, const CurrentKeyContext<K>& context,
                    int num_key_groups)
      : Base(descriptor, context, num_key_groups),
        reduce_function_(descriptor.getReduceFunction()) {}

  std::optional<V> get() const override {
    if (const V* stored = this->table_.find(this->table_.currentNamespace())) {
      return *stored;
    }
    return std::nullopt;
  }

  /// The current namespace's value without a copy; nullptr when empty.
  const V* peek() const { return this->table_.find(this->table_.currentNamespace()); }

  void add(V value) override { addReportingNew(std::move(value)); }

  /// add(value), and whether the current key had no entry in the current
  /// namespace before (this add made it). A window operator registers a
  /// window's timers on its first element only.
  bool addReportingNew(V value) {
    const N& ns = this->table_.currentNamespace();
    if (V* stored = this->table_.find(ns)) {
      *stored = reduce_function_(*stored, value);
      return false;
    }
    this->table_.put(ns, std::move(value));
    return true;
  }

  void clear() override { this->table_.erase(this->table_.currentNamespace()); }

  /// For the current key: fold target's value, then each source's value in
  /// order, into target, and remove the sources. A source equal to target is skipped.
  void mergeNamespaces(const N& target, const std::vector<N>& sources) override {
    this->table_.mergeInto(target, sources, [&](V& merged, V&& source) { merged = reduce_function_(merged, source); });
  }

 private:
  typename ReducingStateDescriptor<V>::ReduceFunction reduce_function_;
};

/// The name operators use, so that a second backend can make it an interface
/// without touching them.
template <class K, class N, class V>
using InternalReducingState = HeapReducingState<K, N, V>;

}  // namespace tidemark::internal
