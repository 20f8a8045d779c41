// OperatorSnapshot: what one operator subtask needs to go on after a restore,
// as it stood between two records: its keyed state and timers, cut by key
// group, and its current event time.
//
// Contract:
// - checkpoint_id says which checkpoint took it.
// - keyed_state and timers are absent for an operator without keys. Restored
//   at another parallelism, each subtask takes the key groups of its range
//   from every snapshot of the old subtasks.
// - current_watermark is the operator's event time when the snapshot was
//   taken. A restored operator starts from it (the minimum over the
//   snapshots it restores), so an element that was late before the failure
//   is late after it too. Flink starts again from no watermark; this is
//   deliberate (docs/fault-tolerance.md).
// - operator_state holds the lists of the operator's functions (and its own)
//   that have no keys, with the subtask that wrote them; restored, they are
//   redistributed by redistributeOperatorState().
// - input_valves holds, for the head operator of a task, the watermark valve
//   of each of the task's inputs (which channel was idle, where each stood);
//   combined_inputs holds a two-input operator's combination of its inputs.
//   Restored at the same parallelism upstream and here, they go on as they
//   were, so that an input that was idle does not hold event time back until
//   it sends again; otherwise every channel starts at current_watermark.
// - The snapshot is Serializable; its bytes are what a checkpoint stores.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>
#include <optional>
#include <tuple>

#include "tidemark/core/time.h"
#include "tidemark/internal/backends/keyed_state_snapshot.h"
#include "tidemark/internal/state/operator_state_snapshot.h"
#include "tidemark/internal/operators/timer_snapshot.h"
#include "tidemark/internal/time/watermark_valve.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {

struct OperatorSnapshot {
  std::int64_t checkpoint_id = 0;
  std::optional<KeyedStateSnapshot> keyed_state;
  std::optional<TimerSnapshot> timers;
  Timestamp current_watermark = kMinWatermark;
  OperatorStateSnapshot operator_state;
  std::vector<ValveSnapshot> input_valves;
  std::optional<CombinedWatermarkSnapshot> combined_inputs;

  auto fields() {
    return std::tie(checkpoint_id, keyed_state, timers, current_watermark, operator_state, input_valves,
                    combined_inputs);
  }
};

/// The keyed states of `snapshots`, for HeapKeyedStateBackend::restore().
inline std::vector<KeyedStateSnapshot> keyedStatesOf(std::span<const OperatorSnapshot> snapshots) {
  std::vector<KeyedStateSnapshot> states;
  for (const OperatorSnapshot& snapshot : snapshots) {
    if (snapshot.keyed_state) states.push_back(*snapshot.keyed_state);
  }
  return states;
}

/// The timers of `snapshots`, for restoreTimers().
inline std::vector<TimerSnapshot> timersOf(std::span<const OperatorSnapshot> snapshots) {
  std::vector<TimerSnapshot> timers;
  for (const OperatorSnapshot& snapshot : snapshots) {
    if (snapshot.timers) timers.push_back(*snapshot.timers);
  }
  return timers;
}

/// The snapshot that subtask `subtask_index` of `parallelism` wrote itself,
/// null if none (rescaled): state that cannot be redistributed restores from it.
inline const OperatorSnapshot* ownSnapshot(std::span<const OperatorSnapshot> snapshots, int subtask_index,
                                           int parallelism) {
  for (const OperatorSnapshot& snapshot : snapshots) {
    if (snapshot.operator_state.subtask_index == subtask_index && snapshot.operator_state.parallelism == parallelism) {
      return &snapshot;
    }
  }
  return nullptr;
}

/// Where a restored operator's event time starts: the least of the snapshots'.
inline Timestamp restoredWatermark(std::span<const OperatorSnapshot> snapshots) {
  if (snapshots.empty()) return kMinWatermark;
  Timestamp least = kMaxWatermark;
  for (const OperatorSnapshot& snapshot : snapshots) least = std::min(least, snapshot.current_watermark);
  return least;
}

/// Gives the valve of input `input` of subtask `subtask_index` of
/// `parallelism` its state from `snapshots`: its own, when this subtask wrote
/// one over as many channels; else every channel starts at the restored
/// watermark (rescaled, the old channels do not map onto the new ones).
inline void restoreInputValve(WatermarkValve& valve, std::span<const OperatorSnapshot> snapshots, int subtask_index,
                              int parallelism, int input) {
  const OperatorSnapshot* own = ownSnapshot(snapshots, subtask_index, parallelism);
  const auto index = static_cast<std::size_t>(input);
  if (own != nullptr && index < own->input_valves.size() &&
      own->input_valves[index].channels.size() == static_cast<std::size_t>(valve.numChannels())) {
    valve.restore(own->input_valves[index]);
  } else {
    valve.startAt(restoredWatermark(snapshots));
  }
}

}  // namespace tidemark::internal
