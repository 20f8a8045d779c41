// MapState kept in memory, per (key, namespace), for the heap keyed state backend.
//
// Contract: as MapState. Each entry is a std::map, which gives the sorted
// iteration order MapState promises without sorting on every read.
// Obtained from HeapKeyedStateBackend, never constructed by user code.
//
// The maps of one state take their nodes from one pool the state owns, so a
// put() that adds an entry reuses the node of an entry removed before instead
// of calling the global allocator: operators that buffer records per key
// until a timer (a join waiting for its other side, a close-order buffer)
// put and remove an entry per record. The pool keeps what it reached at the
// state's peak until the state goes away.
//
// Example:
//   MapState<std::string, long>& clicks =
//       backend.getMapState(MapStateDescriptor<std::string, long>("clicks"));
//   clicks.put("home", 3);
#pragma once

#include <map>
#include <memory_resource>
#include <optional>
#include <utility>
#include <vector>

#include "tidemark/internal/state/state_table.h"
#include "tidemark/state/map_state.h"
#include "tidemark/state/namespaced_state.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

/// The node pool of one HeapMapState. A base class listed before the state's
/// table, so that it is destroyed after the maps that return nodes to it.
class MapStateNodePool {
 protected:
  std::pmr::memory_resource* nodes() { return &nodes_; }

 private:
  std::pmr::unsynchronized_pool_resource nodes_;
};

template <class K, class N, class UK, class UV>
class HeapMapState final
    : private MapStateNodePool,
      public HeapStateBase<K, N, std::pmr::map<UK, UV>, NamespacedState<N, MapState<UK, UV>>> {
  using Base = HeapStateBase<K, N, std::pmr::map<UK, UV>, NamespacedState<N, MapState<UK, UV>>>;

 public:
  using UserMap = std::pmr::map<UK, UV>;

  HeapMapState(const MapStateDescriptor<UK, UV>& descriptor, const CurrentKeyContext<K>& context,
               int num_key_groups)
      : Base(descriptor, context, num_key_groups) {}

  std::optional<UV> get(const UK& key) const override {
    if (const UserMap* map = stored()) {
      if (auto it = map->find(key); it != map->end()) {
        return it->second;
      }
    }
    return std::nullopt;
  }

  void put(UK key, UV value) override {
    currentOrNewMap().insert_or_assign(std::move(key), std::move(value));
  }

  void putAll(std::vector<std::pair<UK, UV>> entries) override {
    if (entries.empty()) {
      return;
    }
    UserMap& map = currentOrNewMap();
    for (auto& [key, value] : entries) {
      map.insert_or_assign(std::move(key), std::move(value));
    }
  }

  void remove(const UK& key) override {
    const N& ns = this->table_.currentNamespace();
    UserMap* map = this->table_.find(ns);
    if (map == nullptr) {
      return;
    }
    map->erase(key);
    if (map->empty()) {
      this->table_.erase(ns);
    }
  }

  bool contains(const UK& key) const override {
    const UserMap* map = stored();
    return map != nullptr && map->contains(key);
  }

  std::vector<std::pair<UK, UV>> entries() const override {
    const UserMap* map = stored();
    return map == nullptr ? std::vector<std::pair<UK, UV>>() : std::vector<std::pair<UK, UV>>(map->begin(), map->end());
  }

  void forEachEntry(absl::FunctionRef<bool(const UK&, const UV&)> visit) const override {
    if (const UserMap* map = stored()) {
      for (const auto& [key, value] : *map) {
        if (!visit(key, value)) {
          return;
        }
      }
    }
  }

  std::vector<UK> keys() const override {
    std::vector<UK> result;
    if (const UserMap* map = stored()) {
      result.reserve(map->size());
      for (const auto& entry : *map) {
        result.push_back(entry.first);
      }
    }
    return result;
  }

  std::vector<UV> values() const override {
    std::vector<UV> result;
    if (const UserMap* map = stored()) {
      result.reserve(map->size());
      for (const auto& entry : *map) {
        result.push_back(entry.second);
      }
    }
    return result;
  }

  // Empty maps are never stored, so "no entry" and "empty" are the same.
  bool isEmpty() const override { return stored() == nullptr; }

  void clear() override { this->table_.erase(this->table_.currentNamespace()); }

 protected:
  // The map is rebuilt on this state's node pool, as the maps it makes itself are.
  UserMap readStoredValue(DataInput& in) override {
    if constexpr (Serializable<UK> && Serializable<UV>) {
      UserMap map(nodes());
      const std::size_t count = in.readCount("the entries of a map in state '" + this->getName() + "'", 2);
      for (std::size_t i = 0; i < count; ++i) {
        UK key = TypeSerializer<UK>::deserialize(in);
        map.insert_or_assign(std::move(key), TypeSerializer<UV>::deserialize(in));
      }
      return map;
    } else {
      return Base::readStoredValue(in);
    }
  }

 private:
  UserMap& currentOrNewMap() {
    return this->table_.findOrCreate(this->table_.currentNamespace(), [this] { return UserMap(nodes()); });
  }
  const UserMap* stored() const { return this->table_.find(this->table_.currentNamespace()); }
};

/// The name operators use, so that a second backend can make it an interface
/// without touching them.
template <class K, class N, class UK, class UV>
using InternalMapState = HeapMapState<K, N, UK, UV>;

}  // namespace tidemark::internal
