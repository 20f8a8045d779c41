// Keyed state that keeps one value for the current key by reducing every
// added value into it.
//
// Contract:
// - Every call reads or writes the entry of the key the backend is currently
//   set to (and, inside a window, of the current window).
// - The first add() stores the value as is; each later add(v) stores
//   reduce(stored, v), so a non-commutative function sees values in the order
//   they were added.
// - get() of an unset entry is std::nullopt; clear() removes the entry.
// - The object is owned by the keyed state backend and lives as long as it.
// - Not thread-safe: only the task thread that owns the backend may use it.
//
// Example:
//   ReducingState<long>& sum = backend.getReducingState(ReducingStateDescriptor<long>(
//       "sum", [](const long& a, const long& b) { return a + b; }));
//   sum.add(amount);
//   long total = sum.get().value_or(0);
#pragma once

#include <optional>

namespace tidemark {

template <class V>
class ReducingState {
 public:
  ReducingState() = default;
  virtual ~ReducingState() = default;
  ReducingState(const ReducingState&) = delete;
  ReducingState& operator=(const ReducingState&) = delete;

  /// The reduced value, or std::nullopt when nothing was added.
  virtual std::optional<V> get() const = 0;
  /// Reduce `value` into the stored value.
  virtual void add(V value) = 0;
  /// Remove the current key's entry.
  virtual void clear() = 0;
};

}  // namespace tidemark
