// The slicing window operator's panes in a snapshot, cut by key group as
// keyed state is, so that each key's partial aggregates move with it when the
// parallelism changes.
//
// Contract:
// - writePanes() makes one StateSnapshot (named kSlicingPanesStateName, kind
//   VALUE, namespace Timestamp: the pane's start) holding, per key group, every
//   (pane, key) partial aggregate with the key's place in arrival order.
// - readPanes() returns, from any number of such snapshots, the entries of
//   the key groups in `range`, sorted by snapshot, then place: at the same
//   parallelism that is the order the keys arrived in (a tumbling pane's
//   places count per pane, a sliding operator's across panes; either way the
//   order within a pane and across panes is kept); across a change, keys from
//   one old subtask keep their order and come before those of the next, as
//   restored timers do (timer_snapshot.h).
// - A key outside the key group it was written under, and bytes that cannot
//   be read, are a SerializationError naming the group; a snapshot of other
//   key or accumulator types is a StateMigrationException, and types without
//   a serializer an InvalidProgramException naming the operator.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <typeinfo>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/describe.h"
#include "tidemark/core/job_execution_result.h"
#include "tidemark/core/key_group.h"
#include "tidemark/core/time.h"
#include "tidemark/internal/backends/keyed_state_snapshot.h"
#include "tidemark/internal/core/key_group_blocks.h"
#include "tidemark/internal/core/unserializable_type.h"
#include "tidemark/serialization/serialization_error.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {

/// The panes' entry in the operator's keyed snapshot; the window function's
/// own states cannot use the name.
inline const std::string kSlicingPanesStateName = "slicing-window-panes";

template <class K, class ACC>
struct RestoredPaneEntry {
  std::size_t snapshot;
  std::uint64_t place;
  Timestamp pane_start;
  K key;
  ACC accumulator;
};

namespace slicing_pane_detail {

template <class K, class ACC>
StateTypes paneTypes() {
  return {TypeSerializer<K>::signature(), TypeSerializer<Timestamp>::signature(),
          "pane{" + TypeSerializer<ACC>::signature() + ",order}"};
}

template <class K, class ACC>
void requireSerializable(std::string_view operator_name) {
  if constexpr (!Serializable<K> || !Serializable<ACC>) {
    throwUnserializableType(fmt::format("window operator '{}'", operator_name),
                            Serializable<K> ? "accumulator" : "key",
                            demangle(Serializable<K> ? typeid(ACC).name() : typeid(K).name()));
  }
}

}  // namespace slicing_pane_detail

/// `for_each(f)` calls f(pane_start, key, accumulator, place) for every entry.
template <class K, class ACC, class ForEach>
StateSnapshot writePanes(ForEach&& for_each, const KeyGroupAssigner& groups, std::string_view operator_name) {
  slicing_pane_detail::requireSerializable<K, ACC>(operator_name);
  StateSnapshot snapshot{kSlicingPanesStateName, StateKind::VALUE, {}, {}};
  if constexpr (Serializable<K> && Serializable<ACC>) {
    snapshot.types = slicing_pane_detail::paneTypes<K, ACC>();
    using Entry = std::tuple<Timestamp, const K*, const ACC*, std::uint64_t>;
    KeyGroupBlocks<Entry> blocks;
    for_each([&](Timestamp pane_start, const K& key, const ACC& accumulator, std::uint64_t place) {
      blocks.add(groups.keyGroupOf(key), {pane_start, &key, &accumulator, place});
    });
    // By pane and place, not the tables' hash order.
    const auto by_pane_and_place = [](std::vector<Entry>& entries) {
      std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return std::tie(std::get<0>(a), std::get<3>(a)) < std::tie(std::get<0>(b), std::get<3>(b));
      });
    };
    snapshot.key_groups = blocks.write(by_pane_and_place, [](const Entry& entry, DataOutput& out) {
      const auto& [pane_start, key, accumulator, place] = entry;
      out.writeFixed(pane_start);
      TypeSerializer<K>::serialize(*key, out);
      TypeSerializer<ACC>::serialize(*accumulator, out);
      out.writeVarUint(place);
    });
  }
  return snapshot;
}

template <class K, class ACC>
std::vector<RestoredPaneEntry<K, ACC>> readPanes(std::span<const StateSnapshot> snapshots, KeyGroupRange range,
                                                 const KeyGroupAssigner& groups, std::string_view operator_name) {
  slicing_pane_detail::requireSerializable<K, ACC>(operator_name);
  std::vector<RestoredPaneEntry<K, ACC>> entries;
  if constexpr (Serializable<K> && Serializable<ACC>) {
    for (std::size_t s = 0; s < snapshots.size(); ++s) {
      if (snapshots[s].types != slicing_pane_detail::paneTypes<K, ACC>()) {
        throw StateMigrationException(fmt::format(
            "window operator '{}': the snapshot's panes hold key {} and accumulator {}, and this job's {} and {}",
            operator_name, snapshots[s].types.key, snapshots[s].types.value, TypeSerializer<K>::signature(),
            slicing_pane_detail::paneTypes<K, ACC>().value));
      }
      for (const auto& [group, bytes] : snapshots[s].key_groups) {
        if (!range.contains(group)) continue;
        try {
          DataInput in(bytes);
          // Pane start, key, accumulator and place take at least 8 + 1 + 1 + 1 bytes.
          const std::size_t count = in.readCount("pane entries", 11);
          for (std::size_t i = 0; i < count; ++i) {
            const Timestamp pane_start = in.readFixed<Timestamp>("a pane's start");
            K key = TypeSerializer<K>::deserialize(in);
            ACC accumulator = TypeSerializer<ACC>::deserialize(in);
            const std::uint64_t place = in.readVarUint("a key's place in its pane");
            if (const int actual = groups.keyGroupOf(key); actual != group) {
              throw SerializationError(fmt::format("a pane entry's key belongs to key group {}", actual));
            }
            entries.push_back({s, place, pane_start, std::move(key), std::move(accumulator)});
          }
          in.expectEnd("the end of the pane entries");
        } catch (const SerializationError& e) {
          throw SerializationError(fmt::format("window operator '{}', panes of key group {}: {}", operator_name,
                                               group, e.what()));
        }
      }
    }
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      return std::tie(a.snapshot, a.place, a.pane_start) < std::tie(b.snapshot, b.place, b.pane_start);
    });
  }
  return entries;
}

}  // namespace tidemark::internal
