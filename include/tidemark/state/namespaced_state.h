// The view of a keyed state that the runtime's contexts use: a state of the
// current key that is also pointed at a namespace (the window a trigger or
// window function is called for; VoidNamespace outside windows).
//
// Contract:
// - setCurrentNamespace(ns) points every later call at the entry of the
//   current key in `ns`, until the next call of it.
// - mergeNamespaces(target, sources), for the states that can merge (list,
//   reducing, aggregating), folds the current key's entries in `sources` into
//   the one in `target` and removes them; a source equal to target is skipped.
//   Session windows use it when windows merge.
// - Every state backend's states implement these, so contexts work the same
//   over any backend.
//
// Example:
//   NamespacedState<TimeWindow, ValueState<long>>& seen =
//       backend.getPartitionedState<TimeWindow>(ValueStateDescriptor<long>("seen"));
//   seen.setCurrentNamespace(window);
//   seen.update(seen.value().value_or(0) + 1);
#pragma once

#include <vector>

namespace tidemark {

/// State interface S (ValueState<V>, ListState<V>, ...) in namespaces of type N.
template <class N, class S>
class NamespacedState : public S {
 public:
  /// Point every later call at namespace `ns` of the current key.
  virtual void setCurrentNamespace(const N& ns) = 0;
};

/// A NamespacedState whose entries can be merged across namespaces.
template <class N, class S>
class MergingNamespacedState : public NamespacedState<N, S> {
 public:
  /// Fold the current key's entries in `sources` into `target`, in order, and remove them.
  virtual void mergeNamespaces(const N& target, const std::vector<N>& sources) = 0;
};

}  // namespace tidemark
