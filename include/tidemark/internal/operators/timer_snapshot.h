// The timers of an InternalTimerService in a snapshot, cut by key group as
// keyed state is, so that they move with their keys when the parallelism
// changes.
//
// Contract:
// - snapshotTimers() writes, per key group and time domain, the group's
//   timers with their key, namespace, time and place in the firing order.
// - restoreTimers() registers, from any number of snapshots, the timers of
//   the key groups in `range`, in the order they would have fired: restored
//   at the same parallelism, timers of the same time fire in the same order
//   as without the restore. Processing-time timers request their wake-ups as
//   they are registered.
// - A key that does not belong to the key group it was written under, and
//   bytes that cannot be read, are a SerializationError naming the group;
//   key or namespace types without a serializer are InvalidProgramException.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/describe.h"
#include "tidemark/core/key_group.h"
#include "tidemark/core/time.h"
#include "tidemark/internal/core/key_group_blocks.h"
#include "tidemark/internal/core/unserializable_type.h"
#include "tidemark/internal/operators/internal_timer_service.h"
#include "tidemark/serialization/serialization_error.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {

struct TimerSnapshot {
  /// Key group → the bytes of its timers; groups without timers are left out.
  std::map<int, std::string> event_time;
  std::map<int, std::string> processing_time;

  auto fields() { return std::tie(event_time, processing_time); }
};

namespace timer_snapshot_detail {

template <class K, class N>
void requireSerializableTimers() {
  if constexpr (!Serializable<K> || !Serializable<N>) {
    const std::string key = demangle(typeid(K).name());
    const std::string ns = demangle(typeid(N).name());
    throwUnserializableType(fmt::format("the timers of key type {} and namespace type {}", key, ns),
                            Serializable<K> ? "namespace" : "key", Serializable<K> ? ns : key);
  }
}

/// One domain's timers, by key group, in firing order.
template <class K, class N, class ForEach>
std::map<int, std::string> write(ForEach&& for_each, const KeyGroupAssigner& groups) {
  using Timer = std::tuple<const K*, const N*, Timestamp, std::uint64_t>;
  KeyGroupBlocks<Timer> blocks;
  std::uint64_t sequence = 0;
  for_each([&](const K& key, const N& ns, Timestamp time) {
    blocks.add(groups.keyGroupOf(key), {&key, &ns, time, sequence++});
  });
  return blocks.write(kAsGathered, [](const Timer& timer, DataOutput& out) {
    const auto& [key, ns, time, place] = timer;
    TypeSerializer<K>::serialize(*key, out);
    TypeSerializer<N>::serialize(*ns, out);
    out.writeFixed(time);
    out.writeVarUint(place);
  });
}

template <class K, class N>
struct RestoredTimer {
  Timestamp time;
  std::size_t snapshot;
  std::uint64_t place;
  K key;
  N ns;
};

template <class K, class N>
void read(const std::map<int, std::string>& domain, std::size_t snapshot, KeyGroupRange range,
          const KeyGroupAssigner& groups, std::vector<RestoredTimer<K, N>>& timers) {
  for (const auto& [group, bytes] : domain) {
    if (!range.contains(group)) continue;
    try {
      DataInput in(bytes);
      // Key, namespace, time and place take at least 1 + 1 + 8 + 1 bytes.
      const std::size_t count = in.readCount("timers", 11);
      for (std::size_t i = 0; i < count; ++i) {
        K key = TypeSerializer<K>::deserialize(in);
        N ns = TypeSerializer<N>::deserialize(in);
        const Timestamp time = in.readFixed<Timestamp>("a timer's time");
        const std::uint64_t place = in.readVarUint("a timer's place");
        if (const int actual = groups.keyGroupOf(key); actual != group) {
          throw SerializationError(fmt::format("a timer's key belongs to key group {}", actual));
        }
        timers.push_back({time, snapshot, place, std::move(key), std::move(ns)});
      }
      in.expectEnd("the end of the timers");
    } catch (const SerializationError& e) {
      throw SerializationError(fmt::format("timers of key group {}: {}", group, e.what()));
    }
  }
}

/// In the order they would have fired: by time, then snapshot, then place.
template <class K, class N>
void sortByFiringOrder(std::vector<RestoredTimer<K, N>>& timers) {
  std::sort(timers.begin(), timers.end(), [](const RestoredTimer<K, N>& a, const RestoredTimer<K, N>& b) {
    return std::tie(a.time, a.snapshot, a.place) < std::tie(b.time, b.snapshot, b.place);
  });
}

}  // namespace timer_snapshot_detail

template <class K, class N>
TimerSnapshot snapshotTimers(const InternalTimerService<K, N>& timers, const KeyGroupAssigner& groups) {
  timer_snapshot_detail::requireSerializableTimers<K, N>();
  if constexpr (Serializable<K> && Serializable<N>) {
    return {timer_snapshot_detail::write<K, N>([&](auto&& f) { timers.forEachEventTimeTimer(f); }, groups),
            timer_snapshot_detail::write<K, N>([&](auto&& f) { timers.forEachProcessingTimeTimer(f); }, groups)};
  } else {
    return {};
  }
}

template <class K, class N>
void restoreTimers(InternalTimerService<K, N>& timers, std::span<const TimerSnapshot> snapshots, KeyGroupRange range,
                   const KeyGroupAssigner& groups) {
  timer_snapshot_detail::requireSerializableTimers<K, N>();
  if constexpr (Serializable<K> && Serializable<N>) {
    std::vector<timer_snapshot_detail::RestoredTimer<K, N>> event_time, processing_time;
    for (std::size_t i = 0; i < snapshots.size(); ++i) {
      timer_snapshot_detail::read<K, N>(snapshots[i].event_time, i, range, groups, event_time);
      timer_snapshot_detail::read<K, N>(snapshots[i].processing_time, i, range, groups, processing_time);
    }
    timer_snapshot_detail::sortByFiringOrder(event_time);
    timer_snapshot_detail::sortByFiringOrder(processing_time);
    for (const auto& timer : event_time) timers.registerEventTimeTimer(timer.key, timer.ns, timer.time);
    for (const auto& timer : processing_time) timers.registerProcessingTimeTimer(timer.key, timer.ns, timer.time);
  }
}

}  // namespace tidemark::internal
