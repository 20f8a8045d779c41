// The CEP operator's state in a snapshot, cut by key group as keyed state is,
// so that each key's partial matches move with it when the parallelism
// changes.
//
// Contract:
// - Two entries of the operator's keyed snapshot: kCepKeysStateName holds,
//   per key group, each key's state as it is (the element buffer in order; the
//   partial matches and held matches in their queue order; the shared buffer's
//   nodes, edges and events with their reference counts; the next event id),
//   and kCepWakesStateName each pending event-time wake-up with its place in
//   registration order. Both record the pattern's shape (its state count and
//   names), and a restore into another pattern is a StateMigrationException.
// - readCepKeys() / readCepWakes() return the entries of the key groups in
//   `range` from any number of snapshots; wake-ups sorted by time, then
//   snapshot, then place, which is the order they would have fired in.
// - A key outside the key group it was written under, and bytes that cannot
//   be read, are a SerializationError naming the group; key or event types
//   without a serializer an InvalidProgramException naming the operator.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <typeinfo>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/describe.h"
#include "tidemark/core/job_execution_result.h"
#include "tidemark/core/key_group.h"
#include "tidemark/core/time.h"
#include "tidemark/internal/backends/keyed_state_snapshot.h"
#include "tidemark/internal/cep/nfa.h"
#include "tidemark/internal/core/key_group_blocks.h"
#include "tidemark/internal/core/unserializable_type.h"
#include "tidemark/serialization/absl_serializers.h"
#include "tidemark/serialization/key_bytes_order.h"
#include "tidemark/serialization/serialization_error.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {

inline const std::string kCepKeysStateName = "cep-keys";
inline const std::string kCepWakesStateName = "cep-wakes";

/// One key's CEP state.
template <class T>
struct CepKeyState {
  struct Buffered {
    Timestamp timestamp;
    T value;

    auto fields() { return std::tie(timestamp, value); }
  };
  // Ascending timestamp, arrival order within one; usually one element, kept
  // inline so a key's state costs no allocation.
  absl::InlinedVector<Buffered, 1> buffer;
  // The NFA's state; none while the key has no partial match (most keys,
  // most of the time).
  std::unique_ptr<NfaKeyState<T>> nfa;
};

template <class K>
struct RestoredCepWake {
  Timestamp timestamp;
  std::size_t snapshot;
  std::uint64_t place;
  K key;
};

namespace cep_snapshot_detail {

template <class T>
constexpr bool kKeyStateSerializable =
    Serializable<typename CepKeyState<T>::Buffered> && Serializable<NfaKeyState<T>>;

/// The pattern a snapshot was taken with: its states' count and its names.
template <class T>
std::string patternShape(const CompiledPattern<T>& pattern) {
  return fmt::format("{} states, names [{}]", pattern.states.size(), fmt::join(pattern.pages, ","));
}

template <class K, class T>
void requireSerializable(std::string_view operator_name) {
  if constexpr (!Serializable<K> || !kKeyStateSerializable<T>) {
    throwUnserializableType(fmt::format("CEP operator '{}'", operator_name), Serializable<K> ? "event" : "key",
                            demangle(Serializable<K> ? typeid(T).name() : typeid(K).name()));
  }
}

template <class K, class T>
void writeKeyState(const CepKeyState<T>& state, DataOutput& out) {
  serializeTo(state.buffer, out);
  out.writeFixed(static_cast<std::uint8_t>(state.nfa != nullptr));
  if (state.nfa) serializeTo(*state.nfa, out);
}

template <class T>
CepKeyState<T> readKeyState(DataInput& in) {
  CepKeyState<T> state;
  state.buffer = deserializeFrom<absl::InlinedVector<typename CepKeyState<T>::Buffered, 1>>(in);
  const std::size_t offset = in.position();
  const auto has_nfa = in.readFixed<std::uint8_t>("whether the key has partial matches");
  if (has_nfa > 1) in.fail("whether the key has partial matches", "is not 0 or 1", offset);
  if (has_nfa == 1) state.nfa = std::make_unique<NfaKeyState<T>>(deserializeFrom<NfaKeyState<T>>(in));
  return state;
}

/// The states of one name, out of every snapshot's keyed state.
inline std::vector<const StateSnapshot*> statesNamed(std::span<const KeyedStateSnapshot> snapshots,
                                                     const std::string& name) {
  std::vector<const StateSnapshot*> found;
  for (const KeyedStateSnapshot& snapshot : snapshots) {
    for (const StateSnapshot& state : snapshot.states) {
      if (state.name == name) found.push_back(&state);
    }
  }
  return found;
}

template <class K, class F>
void readGroups(const StateSnapshot& state, const StateTypes& expected, KeyGroupRange range,
                const KeyGroupAssigner& groups, std::string_view operator_name, F&& read_entry) {
  if (state.types != expected) {
    throw StateMigrationException(fmt::format(
        "CEP operator '{}': the snapshot's {} were taken with key {} and pattern ({}), and this job has key {} and "
        "pattern ({})",
        operator_name, state.name, state.types.key, state.types.ns, expected.key, expected.ns));
  }
  for (const auto& [group, bytes] : state.key_groups) {
    if (!range.contains(group)) continue;
    try {
      DataInput in(bytes);
      const std::size_t count = in.readCount(state.name, 2);
      for (std::size_t i = 0; i < count; ++i) {
        K key = TypeSerializer<K>::deserialize(in);
        if (const int actual = groups.keyGroupOf(key); actual != group) {
          throw SerializationError(fmt::format("a key of {} belongs to key group {}", state.name, actual));
        }
        read_entry(std::move(key), in);
      }
      in.expectEnd("the end of " + state.name);
    } catch (const SerializationError& e) {
      throw SerializationError(
          fmt::format("CEP operator '{}', {} of key group {}: {}", operator_name, state.name, group, e.what()));
    }
  }
}

}  // namespace cep_snapshot_detail

/// The namespace signature names the pattern's shape, so that a restore
/// into another pattern is refused rather than misread.
template <class K, class T>
StateTypes cepKeyTypes(const CompiledPattern<T>& pattern) {
  if constexpr (Serializable<K>) {
    return {TypeSerializer<K>::signature(), cep_snapshot_detail::patternShape(pattern), "cep-key-state"};
  } else {
    return {};
  }
}
template <class K, class T>
StateTypes cepWakeTypes(const CompiledPattern<T>& pattern) {
  if constexpr (Serializable<K>) {
    return {TypeSerializer<K>::signature(), cep_snapshot_detail::patternShape(pattern), "cep-wake{i64,order}"};
  } else {
    return {};
  }
}

/// Every key's state; `for_each(f)` calls f(key, state).
template <class K, class T, class ForEach>
StateSnapshot writeCepKeys(ForEach&& for_each, const CompiledPattern<T>& pattern, const KeyGroupAssigner& groups,
                           std::string_view operator_name) {
  cep_snapshot_detail::requireSerializable<K, T>(operator_name);
  StateSnapshot snapshot{kCepKeysStateName, StateKind::VALUE, cepKeyTypes<K, T>(pattern), {}};
  if constexpr (Serializable<K> && cep_snapshot_detail::kKeyStateSerializable<T>) {
    // Keyed by their bytes, sorted: not the key table's hash order, so that
    // the same state makes the same bytes.
    KeyGroupBlocks<KeyBytesEntry> blocks;
    for_each([&](const K& key, const CepKeyState<T>& state) {
      blocks.add(groups.keyGroupOf(key), {serializeToBytes(key), &state});
    });
    snapshot.key_groups = blocks.write(sortByKeyBytes, [](const KeyBytesEntry& entry, DataOutput& out) {
      out.writeBytes(entry.first);
      cep_snapshot_detail::writeKeyState<K>(*static_cast<const CepKeyState<T>*>(entry.second), out);
    });
  }
  return snapshot;
}

/// Every pending wake-up; `for_each(f)` calls f(key, time, place).
template <class K, class T, class ForEach>
StateSnapshot writeCepWakes(ForEach&& for_each, const CompiledPattern<T>& pattern, const KeyGroupAssigner& groups,
                            std::string_view operator_name) {
  cep_snapshot_detail::requireSerializable<K, T>(operator_name);
  StateSnapshot snapshot{kCepWakesStateName, StateKind::VALUE, cepWakeTypes<K, T>(pattern), {}};
  if constexpr (Serializable<K>) {
    // The key by value: for_each's references last only for the call (the
    // queue visits its out-of-order wake-ups on a copy that it pops).
    using Wake = std::tuple<K, Timestamp, std::uint64_t>;
    KeyGroupBlocks<Wake> blocks;
    for_each([&](const K& key, Timestamp time, std::uint64_t place) {
      blocks.add(groups.keyGroupOf(key), {key, time, place});
    });
    const auto by_time_and_place = [](std::vector<Wake>& wakes) {
      std::sort(wakes.begin(), wakes.end(), [](const Wake& a, const Wake& b) {
        return std::tie(std::get<1>(a), std::get<2>(a)) < std::tie(std::get<1>(b), std::get<2>(b));
      });
    };
    snapshot.key_groups = blocks.write(by_time_and_place, [](const Wake& wake, DataOutput& out) {
      const auto& [key, time, place] = wake;
      TypeSerializer<K>::serialize(key, out);
      out.writeFixed(time);
      out.writeVarUint(place);
    });
  }
  return snapshot;
}

/// Every partial match must name a state of the pattern (the shape check
/// already matched the count; this catches corrupt bytes).
template <class T>
void requireKnownStates(const NfaKeyState<T>& state, const CompiledPattern<T>& pattern) {
  const auto check = [&](const ComputationQueue& queue) {
    for (const ComputationState& computation : queue) {
      if (computation.state < 0 || static_cast<std::size_t>(computation.state) >= pattern.states.size()) {
        throw SerializationError(fmt::format("a partial match is in state {}, and the pattern has {} states",
                                             computation.state, pattern.states.size()));
      }
    }
  };
  check(state.partial_matches);
  check(state.completed_matches);
}

/// The keys' states of `range`; `add(key, state)` takes each.
template <class K, class T, class Add>
void readCepKeys(std::span<const KeyedStateSnapshot> snapshots, const CompiledPattern<T>& pattern,
                 KeyGroupRange range, const KeyGroupAssigner& groups, std::string_view operator_name, Add&& add) {
  cep_snapshot_detail::requireSerializable<K, T>(operator_name);
  if constexpr (Serializable<K> && cep_snapshot_detail::kKeyStateSerializable<T>) {
    const StateTypes expected = cepKeyTypes<K, T>(pattern);
    for (const StateSnapshot* state : cep_snapshot_detail::statesNamed(snapshots, kCepKeysStateName)) {
      cep_snapshot_detail::readGroups<K>(*state, expected, range, groups, operator_name, [&](K key, DataInput& in) {
        CepKeyState<T> key_state = cep_snapshot_detail::readKeyState<T>(in);
        if (key_state.nfa) requireKnownStates(*key_state.nfa, pattern);
        add(std::move(key), std::move(key_state));
      });
    }
  }
}

/// The wake-ups of `range`, in the order they would have fired.
template <class K, class T>
std::vector<RestoredCepWake<K>> readCepWakes(std::span<const KeyedStateSnapshot> snapshots,
                                             const CompiledPattern<T>& pattern, KeyGroupRange range,
                                             const KeyGroupAssigner& groups, std::string_view operator_name) {
  cep_snapshot_detail::requireSerializable<K, T>(operator_name);
  std::vector<RestoredCepWake<K>> wakes;
  if constexpr (Serializable<K>) {
    const StateTypes expected = cepWakeTypes<K, T>(pattern);
    const auto states = cep_snapshot_detail::statesNamed(snapshots, kCepWakesStateName);
    for (std::size_t s = 0; s < states.size(); ++s) {
      cep_snapshot_detail::readGroups<K>(*states[s], expected, range, groups, operator_name,
                                         [&](K key, DataInput& in) {
                                           const Timestamp time = in.readFixed<Timestamp>("a wake-up's time");
                                           const std::uint64_t place = in.readVarUint("a wake-up's place");
                                           wakes.push_back({time, s, place, std::move(key)});
                                         });
    }
    std::sort(wakes.begin(), wakes.end(), [](const auto& a, const auto& b) {
      return std::tie(a.timestamp, a.snapshot, a.place) < std::tie(b.timestamp, b.snapshot, b.place);
    });
  }
  return wakes;
}

}  // namespace tidemark::internal
