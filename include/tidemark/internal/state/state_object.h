// StateObject: what a keyed state backend knows of every state it holds,
// whatever its kind and types: the kind, and how much it holds.
//
// Contract: a backend owns its states through this base and hands them to
// callers as the typed interface they asked for (dynamic_cast, checked by the
// StateRequest that asked), so the same name asked for as another kind or
// type is reported, never reinterpreted.
#pragma once

#include <cstddef>

#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

class StateObject {
 public:
  StateObject() = default;
  virtual ~StateObject() = default;
  StateObject(const StateObject&) = delete;
  StateObject& operator=(const StateObject&) = delete;

  virtual StateKind kind() const = 0;
  /// Live entries: one per key and namespace that holds a value.
  virtual std::size_t numEntries() const = 0;
  /// Distinct keys that hold an entry.
  virtual std::size_t numKeys() const = 0;
};

}  // namespace tidemark::internal
