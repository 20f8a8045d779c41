// Keyed state holding one value for the current key.
//
// Contract:
// - Every call reads or writes the entry of the key the backend is currently
//   set to (and, inside a window, of the current window); switching keys
//   switches entries.
// - value() of an unset entry is the descriptor's default value when one was
//   given, else std::nullopt. update() never stores the default implicitly.
// - clear() removes the entry, so a cleared key holds no memory.
// - The object is owned by the keyed state backend and lives as long as it;
//   keep the reference (e.g. from open()) instead of asking for it per record.
// - Not thread-safe: only the task thread that owns the backend may use it.
//
// Example:
//   ValueState<long>& count = backend.getState(ValueStateDescriptor<long>("count", 0L));
//   backend.setCurrentKey(user);
//   count.update(*count.value() + 1);
#pragma once

#include <optional>

namespace tidemark {

template <class V>
class ValueState {
 public:
  ValueState() = default;
  virtual ~ValueState() = default;
  ValueState(const ValueState&) = delete;
  ValueState& operator=(const ValueState&) = delete;

  /// The current key's value, or the default (else std::nullopt) when unset.
  virtual std::optional<V> value() const = 0;
  /// Replace the current key's value.
  virtual void update(V value) = 0;
  /// Remove the current key's entry.
  virtual void clear() = 0;
};

}  // namespace tidemark
