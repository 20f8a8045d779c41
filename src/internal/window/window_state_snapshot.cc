#include "tidemark/internal/window/window_state_snapshot.h"

#include <algorithm>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "tidemark/core/job_execution_result.h"

namespace tidemark::internal {

KeyedStateSnapshot withTriggerStates(KeyedStateSnapshot operator_states, const KeyedStateSnapshot& trigger_states,
                                     std::string_view operator_name) {
  for (const StateSnapshot& state : operator_states.states) {
    if (state.name.starts_with(kTriggerStatePrefix)) {
      throw InvalidProgramException(fmt::format(
          "window operator '{}' cannot be snapshotted: its state '{}' begins with '{}', which names the trigger's "
          "state in a snapshot; rename the state",
          operator_name, state.name, kTriggerStatePrefix));
    }
  }
  for (StateSnapshot state : trigger_states.states) {
    state.name.insert(0, kTriggerStatePrefix);
    operator_states.states.push_back(std::move(state));
  }
  std::sort(operator_states.states.begin(), operator_states.states.end(),
            [](const StateSnapshot& a, const StateSnapshot& b) { return a.name < b.name; });
  return operator_states;
}

SplitWindowStates splitTriggerStates(std::vector<OperatorSnapshot> snapshots) {
  SplitWindowStates split;
  for (OperatorSnapshot& snapshot : snapshots) {
    if (!snapshot.keyed_state) continue;
    KeyedStateSnapshot& own = split.operator_states.emplace_back();
    KeyedStateSnapshot& trigger = split.trigger_states.emplace_back();
    own.max_parallelism = trigger.max_parallelism = snapshot.keyed_state->max_parallelism;
    for (StateSnapshot& state : snapshot.keyed_state->states) {
      if (state.name.starts_with(kTriggerStatePrefix)) {
        state.name.erase(0, kTriggerStatePrefix.size());
        trigger.states.push_back(std::move(state));
      } else {
        own.states.push_back(std::move(state));
      }
    }
  }
  return split;
}

}  // namespace tidemark::internal
