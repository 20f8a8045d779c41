// KeyedStateSnapshot: the keyed state of one backend at one checkpoint, cut
// by key group so that it can be restored at another parallelism: a subtask
// takes, from every snapshot, the key groups in its own range.
//
// Contract:
// - One StateSnapshot per state, with its kind and the serializer signatures
//   of its key, namespace and stored value; a restore into another kind or
//   other types is refused (StateMigrationException), never misread.
// - key_groups maps a key group (absolute, in [0, max_parallelism)) to the
//   bytes of that group's entries; a group without entries is left out.
// - The whole snapshot is Serializable (serializeToBytes / deserializeFromBytes).
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "tidemark/internal/state/state_object.h"
#include "tidemark/serialization/type_serializer.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

struct StateSnapshot {
  std::string name;
  StateKind kind = StateKind::VALUE;
  StateTypes types;
  std::map<int, std::string> key_groups;

  auto fields() { return std::tie(name, kind, types, key_groups); }
};

struct KeyedStateSnapshot {
  int max_parallelism = 0;
  std::vector<StateSnapshot> states;

  auto fields() { return std::tie(max_parallelism, states); }
};

}  // namespace tidemark::internal
