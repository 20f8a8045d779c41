// How a window operator's keyed state goes into one snapshot. The operator
// keeps two backends keyed by the same key: its own (window contents,
// merging-window sets, the window function's per-window state) and its
// trigger's (a backend of erased keys, since a Trigger<T, W> has no key type).
// Both are cut by key group alike, so the snapshot holds them as one keyed
// state, the trigger's states under the prefix "trigger/", and a restore at
// any parallelism splits them again.
//
// Contract:
// - withTriggerStates(operator's, trigger's, name) is the operator's keyed
//   state with the trigger's added under the prefix, sorted by name. A state
//   of the operator's own whose name begins with the prefix is refused
//   (InvalidProgramException naming it and the operator `name`): a restore
//   could not tell it from the trigger's.
// - splitTriggerStates(snapshots) undoes it for every snapshot restored from,
//   the trigger's states with the prefix taken off again.
#pragma once

#include <string_view>
#include <vector>

#include "tidemark/internal/backends/keyed_state_snapshot.h"
#include "tidemark/internal/operators/operator_snapshot.h"

namespace tidemark::internal {

inline constexpr std::string_view kTriggerStatePrefix = "trigger/";

KeyedStateSnapshot withTriggerStates(KeyedStateSnapshot operator_states, const KeyedStateSnapshot& trigger_states,
                                     std::string_view operator_name);

struct SplitWindowStates {
  std::vector<KeyedStateSnapshot> operator_states;
  std::vector<KeyedStateSnapshot> trigger_states;
};

SplitWindowStates splitTriggerStates(std::vector<OperatorSnapshot> snapshots);

}  // namespace tidemark::internal
