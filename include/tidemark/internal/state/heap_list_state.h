// ListState kept in memory, per (key, namespace), for the heap keyed state backend.
//
// Contract: as ListState, plus mergeNamespaces() for merging windows.
// Obtained from HeapKeyedStateBackend, never constructed by user code.
//
// Example:
//   InternalListState<long, TimeWindow, Event>& contents =
//       backend.getPartitionedState<TimeWindow>(ListStateDescriptor<Event>("contents"));
//   contents.setCurrentNamespace(window);
//   contents.add(event);
#pragma once

#include <iterator>
#include <utility>
#include <vector>

#include "tidemark/internal/state/state_table.h"
#include "tidemark/state/list_state.h"
#include "tidemark/state/namespaced_state.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

template <class K, class N, class V>
class HeapListState final : public HeapStateBase<K, N, std::vector<V>, MergingNamespacedState<N, ListState<V>>> {
  using Base = HeapStateBase<K, N, std::vector<V>, MergingNamespacedState<N, ListState<V>>>;

 public:
  HeapListState(const ListStateDescriptor<V>& descriptor, const CurrentKeyContext<K>& context, int num_key_groups)
      : Base(descriptor, context, num_key_groups) {}

  std::vector<V> get() const override {
    if (const std::vector<V>* stored = this->table_.find(this->table_.currentNamespace())) {
      return *stored;
    }
    return {};
  }

  void forEach(absl::FunctionRef<void(const V&)> visit) const override {
    if (const std::vector<V>* stored = this->table_.find(this->table_.currentNamespace())) {
      for (const V& value : *stored) {
        visit(value);
      }
    }
  }

  /// The current namespace's elements without a copy; nullptr when empty.
  /// Window operators read and edit (evict) contents in place through it.
  std::vector<V>* peek() { return this->table_.find(this->table_.currentNamespace()); }

  void add(V value) override { addReportingNew(std::move(value)); }

  /// add(value), and whether the current key had no entry in the current
  /// namespace before (this add made it). A window operator registers a
  /// window's timers on its first element only.
  bool addReportingNew(V value) {
    bool created = false;
    this->table_
        .findOrCreate(this->table_.currentNamespace(),
                      [&created] {
                        created = true;
                        return std::vector<V>();
                      })
        .push_back(std::move(value));
    return created;
  }

  void addAll(std::vector<V> values) override {
    if (values.empty()) {
      return;
    }
    const N& ns = this->table_.currentNamespace();
    if (std::vector<V>* stored = this->table_.find(ns)) {
      stored->insert(stored->end(), std::make_move_iterator(values.begin()), std::make_move_iterator(values.end()));
    } else {
      this->table_.put(ns, std::move(values));
    }
  }

  void update(std::vector<V> values) override {
    if (values.empty()) {
      clear();
    } else {
      this->table_.put(this->table_.currentNamespace(), std::move(values));
    }
  }

  void clear() override { this->table_.erase(this->table_.currentNamespace()); }

  /// For the current key: append the lists of `sources`, in order, to the list
  /// of `target` and remove the sources. A source equal to target is skipped.
  void mergeNamespaces(const N& target, const std::vector<N>& sources) override {
    this->table_.mergeInto(target, sources, [](std::vector<V>& merged, std::vector<V>&& source) {
      merged.insert(merged.end(), std::make_move_iterator(source.begin()), std::make_move_iterator(source.end()));
    });
  }
};

/// The name operators use, so that a second backend can make it an interface
/// without touching them.
template <class K, class N, class V>
using InternalListState = HeapListState<K, N, V>;

}  // namespace tidemark::internal
