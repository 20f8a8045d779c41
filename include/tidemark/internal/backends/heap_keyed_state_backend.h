// Keyed state of one operator subtask, kept in memory: the current key, and
// every state the operator registered, stored per key group. It implements
// KeyedStateBackend<K> for the contexts users see; the operators, which own
// it, also use its typed states directly (peek, findOrCreate) on the
// per-record path.
//
// Contract (besides KeyedStateBackend's):
// - The backend owns the key groups in `range` out of `max_parallelism`.
//   setCurrentKey() with a key whose group is outside the range throws
//   std::logic_error naming the group and the range: the record reached the
//   wrong subtask, which is a partitioning bug, not a user error to skip.
// - State objects are created on first request and owned by the backend;
//   the returned references stay valid as long as the backend. Asking again
//   with the same name returns the same object (the new descriptor's default
//   value or function is ignored); the same name with a different state kind,
//   value type or namespace type throws std::logic_error naming the state.
// - Every state reads and writes the entry of the current key. Using a state
//   before the first setCurrentKey() throws std::logic_error.
// - getState() and friends are getPartitionedState<VoidNamespace>() seen
//   through the public interface; window operators use getPartitionedState<W>()
//   and point the state at a window with setCurrentNamespace().
// - snapshot() writes every state, cut by key group (keyed_state_snapshot.h).
//   restore(snapshots), before any state is asked for, takes the key groups
//   of this backend's range from each snapshot; a state's entries come back
//   when the operator asks for it by name, and are checked against its kind
//   and types then. Restored states nobody asked for yet are kept, and go
//   into the next snapshot as they came.
// - Not thread-safe by design: one task thread owns a backend and all its
//   states, so there are no locks on the per-record path.
//
// Example:
//   HeapKeyedStateBackend<std::string> backend(KeyGroupRange{0, 127}, 128);
//   ValueState<long>& count = backend.getState(ValueStateDescriptor<long>("count", 0L));
//   backend.setCurrentKey("alice");
//   count.update(*count.value() + 1);   // alice: 1
//   backend.setCurrentKey("bob");
//   count.value();                      // 0, the default: bob has no entry
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "tidemark/core/key_group.h"
#include "tidemark/core/void_namespace.h"
#include "tidemark/core/job_execution_result.h"
#include "tidemark/functions/keyed_state_backend.h"
#include "tidemark/internal/backends/keyed_state_snapshot.h"
#include "tidemark/internal/state/state_object.h"
#include "tidemark/internal/state/state_request.h"
#include "tidemark/internal/state/state_table.h"
#include "tidemark/serialization/serialization_error.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

template <class K>
class HeapKeyedStateBackend final : public KeyedStateBackend<K> {
 public:
  /// Throws std::invalid_argument unless 1 <= max_parallelism <= kUpperBoundMaxParallelism
  /// and a non-empty `range` lies within [0, max_parallelism).
  HeapKeyedStateBackend(KeyGroupRange range, int max_parallelism)
      : HeapKeyedStateBackend(range, max_parallelism, CurrentKeyContext<K>{}) {}

  /// With what the states learn about their keys besides the current one: a
  /// backend of erased keys names the type they erase (erased_key.h).
  HeapKeyedStateBackend(KeyGroupRange range, int max_parallelism, CurrentKeyContext<K> key_context)
      : range_(range), key_groups_(max_parallelism), current_key_(std::move(key_context)) {
    if (max_parallelism < 1 || max_parallelism > kUpperBoundMaxParallelism) {
      throw std::invalid_argument(fmt::format("max parallelism {} is not in [1, {}]", max_parallelism,
                                              kUpperBoundMaxParallelism));
    }
    if (range.size() > 0 && (range.start < 0 || range.end >= max_parallelism)) {
      throw std::invalid_argument(fmt::format("key group range [{}, {}] is not within [0, {}]", range.start,
                                              range.end, max_parallelism - 1));
    }
  }

  KeyGroupRange getKeyGroupRange() const override { return range_; }
  int getMaxParallelism() const override { return key_groups_.maxParallelism(); }

  /// Make `key` current, computing its key group.
  void setCurrentKey(const K& key)
    requires StablyHashable<K>
  {
    setCurrentKey(key, key_groups_.keyGroupOf(key));
  }

  /// Make `key` current when the caller already knows its group (from the
  /// partitioner); the group is checked against the range, not recomputed.
  void setCurrentKey(const K& key, int key_group) override {
    if (!range_.contains(key_group)) {
      throw std::logic_error(fmt::format(
          "key group {} is outside this state backend's key group range [{}, {}] (max parallelism {}): "
          "the record was routed to the wrong subtask",
          key_group, range_.start, range_.end, key_groups_.maxParallelism()));
    }
    current_key_.key = key;
    current_key_.key_group_index = key_group - range_.start;
  }

  /// Throws std::logic_error before the first setCurrentKey().
  const K& getCurrentKey() const override {
    requireCurrentKey();
    return *current_key_.key;
  }

  /// Throws std::logic_error before the first setCurrentKey().
  int getCurrentKeyGroup() const override {
    requireCurrentKey();
    return range_.start + current_key_.key_group_index;
  }

  // getState() and its siblings come from KeyedStateBackend. The operators ask
  // for the heap's own state types, below, for their per-record paths.
  using KeyedStateBackend<K>::getState;
  using KeyedStateBackend<K>::getListState;
  using KeyedStateBackend<K>::getMapState;
  using KeyedStateBackend<K>::getReducingState;
  using KeyedStateBackend<K>::getAggregatingState;

  template <class N, class V>
  InternalValueState<K, N, V>& getPartitionedState(const ValueStateDescriptor<V>& descriptor) {
    return getOrCreate<HeapValueState<K, N, V>>(descriptor);
  }
  template <class N, class V>
  InternalListState<K, N, V>& getPartitionedState(const ListStateDescriptor<V>& descriptor) {
    return getOrCreate<HeapListState<K, N, V>>(descriptor);
  }
  template <class N, class UK, class UV>
  InternalMapState<K, N, UK, UV>& getPartitionedState(const MapStateDescriptor<UK, UV>& descriptor) {
    return getOrCreate<HeapMapState<K, N, UK, UV>>(descriptor);
  }
  template <class N, class V>
  InternalReducingState<K, N, V>& getPartitionedState(const ReducingStateDescriptor<V>& descriptor) {
    return getOrCreate<HeapReducingState<K, N, V>>(descriptor);
  }
  template <class N, class IN, class ACC, class OUT>
  InternalAggregatingState<K, N, IN, ACC, OUT>& getPartitionedState(
      const AggregatingStateDescriptor<IN, ACC, OUT>& descriptor) {
    return getOrCreate<HeapAggregatingState<K, N, IN, ACC, OUT>>(descriptor);
  }

  /// Live entries (one per key and namespace with a value) over all states;
  /// it returns to zero once every entry has been cleared.
  std::size_t numStateEntries() const {
    std::size_t total = 0;
    for (const auto& [name, state] : states_) {
      total += state->numEntries();
    }
    return total;
  }

  /// Live entries of one state; 0 for a name that was never registered.
  std::size_t numStateEntries(std::string_view state_name) const {
    auto it = states_.find(absl::string_view(state_name.data(), state_name.size()));
    return it == states_.end() ? 0 : it->second->numEntries();
  }

  /// Distinct keys holding an entry in one state; 0 for a name never registered.
  /// O(1) per key group for key-only state, O(entries) for namespaced state.
  std::size_t numKeys(std::string_view state_name) const {
    auto it = states_.find(absl::string_view(state_name.data(), state_name.size()));
    return it == states_.end() ? 0 : it->second->numKeys();
  }

  /// Every state's entries, by key group. Throws InvalidProgramException
  /// naming a state whose key, namespace or value type has no serializer.
  KeyedStateSnapshot snapshot() const {
    KeyedStateSnapshot snapshot{getMaxParallelism(), {}};
    for (const auto& [name, state] : states_) {
      snapshot.states.push_back(snapshotOf(*state));
    }
    for (const auto& [name, restored] : restored_) {
      snapshot.states.push_back(restored);
    }
    // By name, so that the same state makes the same bytes in every process.
    std::sort(snapshot.states.begin(), snapshot.states.end(),
              [](const StateSnapshot& a, const StateSnapshot& b) { return a.name < b.name; });
    return snapshot;
  }

  /// Take this backend's key groups from `snapshots` (of any parallelism).
  /// Throws StateMigrationException for another max parallelism or two
  /// snapshots that disagree on a state, and std::logic_error once a state
  /// was asked for.
  void restore(std::span<const KeyedStateSnapshot> snapshots) {
    if (!states_.empty()) {
      throw std::logic_error("keyed state can only be restored before any state is used");
    }
    for (const KeyedStateSnapshot& snapshot : snapshots) {
      if (snapshot.max_parallelism != getMaxParallelism()) {
        throw StateMigrationException(fmt::format(
            "the keyed state snapshot has max parallelism {} and this job {}: key groups cannot be "
            "redistributed across a change of max parallelism",
            snapshot.max_parallelism, getMaxParallelism()));
      }
      for (const StateSnapshot& state : snapshot.states) {
        takeOwnKeyGroups(state);
      }
    }
  }

 protected:
  StateObject& getOrCreateState(const StateRequest<K>& request) override {
    const std::string& name = request.descriptor().getName();
    if (auto it = states_.find(name); it != states_.end()) return *it->second;
    return registerState(request.createOnHeap(current_key_, range_.size()));
  }

 private:
  // The concrete state type (kind, key, namespace and value types together)
  // is recovered with dynamic_cast, which is what detects a name reused with
  // another kind or type.
  template <class StateT, class Descriptor>
  StateT& getOrCreate(const Descriptor& descriptor) {
    const std::string& name = descriptor.getName();
    if (auto it = states_.find(name); it != states_.end()) {
      if (auto* state = dynamic_cast<StateT*>(it->second.get())) return *state;
      throwStateMismatch(name, it->second->kind(), descriptor.getKind());
    }
    return static_cast<StateT&>(registerState(std::make_unique<StateT>(descriptor, current_key_, range_.size())));
  }

  /// Own a new state, filled with what a restore kept for its name.
  StateObject& registerState(std::unique_ptr<StateObject> created) {
    StateObject& state = *created;
    if (auto it = restored_.find(state.name()); it != restored_.end()) {
      fill(state, it->second);
      restored_.erase(it);
    }
    states_.emplace(state.name(), std::move(created));
    return state;
  }

  StateSnapshot snapshotOf(const StateObject& state) const {
    StateSnapshot snapshot{state.name(), state.kind(), state.types(), {}};
    for (int index = 0; index < range_.size(); ++index) {
      DataOutput out;
      state.writeKeyGroup(index, out);
      std::string bytes = out.takeBytes();
      if (bytes != std::string_view("\0", 1)) {  // a group without entries is a zero count
        snapshot.key_groups.emplace(range_.start + index, std::move(bytes));
      }
    }
    return snapshot;
  }

  void takeOwnKeyGroups(const StateSnapshot& state) {
    auto [it, first] = restored_.try_emplace(state.name, StateSnapshot{state.name, state.kind, state.types, {}});
    if (!first && (it->second.kind != state.kind || it->second.types != state.types)) {
      throw StateMigrationException(fmt::format("the snapshots to restore disagree on state '{}': {} and {}",
                                                state.name, describeState(it->second.kind, it->second.types),
                                                describeState(state.kind, state.types)));
    }
    for (const auto& [group, bytes] : state.key_groups) {
      if (range_.contains(group)) it->second.key_groups.insert_or_assign(group, bytes);
    }
  }

  void fill(StateObject& state, const StateSnapshot& restored) const {
    if (restored.kind != state.kind() || restored.types != state.types()) {
      throw StateMigrationException(fmt::format("state '{}' was snapshotted as {} and is now asked for as {}",
                                                state.name(), describeState(restored.kind, restored.types),
                                                describeState(state.kind(), state.types())));
    }
    for (const auto& [group, bytes] : restored.key_groups) {
      try {
        DataInput in(bytes);
        state.readKeyGroup(group - range_.start, in);
        in.expectEnd("the end of the entries");
      } catch (const SerializationError& e) {
        throw SerializationError(fmt::format("key group {} of state '{}': {}", group, state.name(), e.what()));
      }
    }
  }

  static std::string describeState(StateKind kind, const StateTypes& types) {
    return fmt::format("a {} of {} (key {}, namespace {})", stateKindName(kind), orUnserializable(types.value),
                       orUnserializable(types.key), orUnserializable(types.ns));
  }
  static std::string_view orUnserializable(const std::string& signature) {
    return signature.empty() ? std::string_view("a type without serializer") : std::string_view(signature);
  }

  void requireCurrentKey() const {
    if (current_key_.key_group_index < 0) {
      throw std::logic_error("the keyed state backend has no current key yet");
    }
  }

  KeyGroupRange range_;
  KeyGroupAssigner key_groups_;
  CurrentKeyContext<K> current_key_;
  absl::flat_hash_map<std::string, std::unique_ptr<StateObject>> states_;
  // Restored states not asked for yet, by name: only this backend's key groups.
  absl::flat_hash_map<std::string, StateSnapshot> restored_;
};

}  // namespace tidemark::internal
