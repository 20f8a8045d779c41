// Keyed state holding a list of values for the current key.
//
// Contract:
// - Every call reads or writes the entry of the key the backend is currently
//   set to (and, inside a window, of the current window).
// - get() of an unset entry is an empty vector; values come back in the order
//   they were added.
// - An entry exists only while its list is non-empty: update({}) and clear()
//   remove it, and addAll({}) on an unset entry does not create one.
// - The object is owned by the keyed state backend and lives as long as it.
// - Not thread-safe: only the task thread that owns the backend may use it.
//
// Example:
//   ListState<Event>& buffer = backend.getListState(ListStateDescriptor<Event>("buffer"));
//   buffer.add(event);
//   for (const Event& e : buffer.get()) emit(e);
//   buffer.forEach([&](const Event& e) { emit(e); });  // the same without a copy
//   buffer.clear();
#pragma once

#include <vector>

#include <absl/functional/function_ref.h>

namespace tidemark {

template <class V>
class ListState {
 public:
  ListState() = default;
  virtual ~ListState() = default;
  ListState(const ListState&) = delete;
  ListState& operator=(const ListState&) = delete;

  /// A copy of the current key's list; empty when unset.
  virtual std::vector<V> get() const = 0;
  /// Calls `visit(value)` for each value, in order, without copying the list.
  /// `visit` must not change this state.
  virtual void forEach(absl::FunctionRef<void(const V&)> visit) const = 0;
  /// Append one value.
  virtual void add(V value) = 0;
  /// Append all `values`, in order.
  virtual void addAll(std::vector<V> values) = 0;
  /// Replace the list with `values` (an empty vector clears the entry).
  virtual void update(std::vector<V> values) = 0;
  /// Remove the current key's entry.
  virtual void clear() = 0;
};

}  // namespace tidemark
