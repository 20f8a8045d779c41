// Keyed state holding a map from user keys to user values for the current key.
//
// Contract:
// - Every call reads or writes the entry of the key the backend is currently
//   set to (and, inside a window, of the current window).
// - entries(), keys(), values() and forEachEntry() go through the map in
//   ascending user-key order (std::less<UK>). Sorted order, rather than
//   insertion order, depends only on the map's contents, so it survives a
//   snapshot and restore and is the same in every simulated run; a backend
//   that cannot iterate in this order must sort before returning.
// - An entry exists only while its map is non-empty: removing the last user
//   key, or clear(), removes it, and putAll({}) on an unset entry does not
//   create one.
// - The object is owned by the keyed state backend and lives as long as it.
// - Not thread-safe: only the task thread that owns the backend may use it.
//
// Example:
//   MapState<std::string, long>& clicks =
//       backend.getMapState(MapStateDescriptor<std::string, long>("clicks"));
//   clicks.put(page, clicks.get(page).value_or(0) + 1);
//   for (const auto& [page, n] : clicks.entries()) report(page, n);
//   clicks.forEachEntry([&](const std::string& page, const long& n) {  // no copy
//     report(page, n);
//     return true;  // false stops the visit
//   });
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include <absl/functional/function_ref.h>

namespace tidemark {

template <class UK, class UV>
class MapState {
 public:
  MapState() = default;
  virtual ~MapState() = default;
  MapState(const MapState&) = delete;
  MapState& operator=(const MapState&) = delete;

  /// The value of `key`, or std::nullopt when absent.
  virtual std::optional<UV> get(const UK& key) const = 0;
  /// Insert or replace the value of `key`.
  virtual void put(UK key, UV value) = 0;
  /// put() each pair in order (a later duplicate key wins).
  virtual void putAll(std::vector<std::pair<UK, UV>> entries) = 0;
  /// Remove `key` if present.
  virtual void remove(const UK& key) = 0;
  virtual bool contains(const UK& key) const = 0;
  /// Copies of all pairs, in ascending key order.
  virtual std::vector<std::pair<UK, UV>> entries() const = 0;
  /// Calls `visit(key, value)` for each pair, in ascending key order, until it
  /// returns false. Unlike entries() it copies nothing, so reading a large map
  /// costs no allocation. `visit` must not change this state (collect the keys
  /// to remove and remove them after the visit).
  virtual void forEachEntry(absl::FunctionRef<bool(const UK&, const UV&)> visit) const = 0;
  /// All keys, in ascending order.
  virtual std::vector<UK> keys() const = 0;
  /// All values, in ascending order of their keys.
  virtual std::vector<UV> values() const = 0;
  virtual bool isEmpty() const = 0;
  /// Remove the current key's entry (the whole map).
  virtual void clear() = 0;
};

}  // namespace tidemark
