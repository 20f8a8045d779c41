// StateObject: what a keyed state backend knows of every state it holds,
// whatever its kind and types: the kind, how much it holds, and how to write
// and read the entries of one key group for a snapshot.
//
// Contract:
// - A backend owns its states through this base and hands them to callers as
//   the typed interface they asked for (dynamic_cast, checked by the
//   StateRequest that asked), so the same name asked for as another kind or
//   type is reported, never reinterpreted.
// - types() names the key, namespace and stored-value formats (their
//   TypeSerializer signatures); a snapshot records them, and a restore into
//   other types is refused by name. A type without a serializer has an empty
//   signature, and writing or reading such a state throws
//   InvalidProgramException naming the state and the type.
// - writeKeyGroup(index, out) writes the entries of the backend's index-th key
//   group; readKeyGroup(index, in) adds the entries it reads to that group,
//   replacing entries with the same key and namespace. Key groups are the unit
//   a snapshot is redistributed by when the parallelism changes.
#pragma once

#include <cstddef>
#include <string>

#include "tidemark/serialization/data_input.h"
#include "tidemark/serialization/data_output.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

/// The serializer signatures of a state's key, namespace and stored value.
struct StateTypes {
  std::string key;
  std::string ns;
  std::string value;

  friend bool operator==(const StateTypes&, const StateTypes&) = default;
  auto fields() { return std::tie(key, ns, value); }
};

class StateObject {
 public:
  StateObject() = default;
  virtual ~StateObject() = default;
  StateObject(const StateObject&) = delete;
  StateObject& operator=(const StateObject&) = delete;

  virtual const std::string& name() const = 0;
  virtual StateKind kind() const = 0;
  virtual StateTypes types() const = 0;
  /// Live entries: one per key and namespace that holds a value.
  virtual std::size_t numEntries() const = 0;
  /// Distinct keys that hold an entry.
  virtual std::size_t numKeys() const = 0;

  virtual void writeKeyGroup(int index, DataOutput& out) const = 0;
  virtual void readKeyGroup(int index, DataInput& in) = 0;
};

}  // namespace tidemark::internal
