// The storage under every heap keyed state: for one state, one hash map per
// key group from (key, namespace) to the stored value, plus what all heap
// states share (the current namespace and size accounting).
//
// Contract:
// - Operations without a key argument act on the backend's current key,
//   read from the CurrentKeyContext the backend owns; using a table before
//   the backend has a current key throws std::logic_error naming the state.
// - Looking up the current key's entry is one vector index (the key group)
//   plus one hash lookup, and it does not copy the key: the map is probed
//   with a (pointer, pointer) view of the current key and namespace.
// - A stored entry is removed as soon as the state it holds is cleared, so
//   size() counts live entries and returns to zero when every key is cleared.
// - Iteration visits key groups in ascending order; order inside a key group
//   is unspecified and may differ between processes (absl hashes are seeded
//   per process), so anything that must be deterministic sorts.
// - Not thread-safe: one task thread owns the backend and all its tables.
//
// Example (what HeapValueState does):
//   StateTable<std::string, VoidNamespace, long> table("count", context, range.size());
//   table.put(VoidNamespace{}, 1);                  // for context.key
//   const long* stored = table.find(VoidNamespace{});
#pragma once

#include <algorithm>
#include <concepts>
#include <typeinfo>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>


#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "tidemark/core/key_group.h"
#include "tidemark/core/describe.h"
#include "tidemark/core/void_namespace.h"
#include "tidemark/internal/core/unserializable_type.h"
#include "tidemark/internal/state/state_object.h"
#include "tidemark/serialization/key_bytes_order.h"
#include "tidemark/serialization/type_serializer.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

/// The backend's current key, shared (read-only) with every state table.
template <class K>
struct CurrentKeyContext {
  std::optional<K> key;
  /// key group - range.start; -1 until a key is set.
  int key_group_index = -1;
};

/// How a snapshot writes and reads a table's keys: with the key type's
/// TypeSerializer. A key type that erases another (ErasedKey) specializes it
/// to use the format of the type it erases, which its CurrentKeyContext names.
template <class K>
struct KeyFormat {
  /// Whether the code that writes keys compiles at all.
  static constexpr bool kCompiles = Serializable<K>;
  static bool serializable(const CurrentKeyContext<K>&) { return Serializable<K>; }
  static std::string typeName(const CurrentKeyContext<K>&) { return demangle(typeid(K).name()); }
  static std::string signature(const CurrentKeyContext<K>&) {
    if constexpr (Serializable<K>) {
      return TypeSerializer<K>::signature();
    } else {
      return {};
    }
  }
  static void write(const K& key, DataOutput& out, const CurrentKeyContext<K>&)
    requires Serializable<K>
  {
    TypeSerializer<K>::serialize(key, out);
  }
  static K read(DataInput& in, const CurrentKeyContext<K>&)
    requires Serializable<K>
  {
    return TypeSerializer<K>::deserialize(in);
  }
};

template <class T>
concept AbslHashable = std::is_default_constructible_v<absl::Hash<T>>;

/// In-memory hash of a key or namespace part. Prefers absl (fast, but seeded
/// per process) and falls back to the stable key hash for user key types that
/// only opted into key groups.
template <class T>
std::size_t hashStatePart(const T& value) {
  if constexpr (AbslHashable<T>) {
    return absl::Hash<T>{}(value);
  } else {
    static_assert(StablyHashable<T>, "state keys and namespaces need AbslHashValue or a stable key hash");
    return static_cast<std::size_t>(stableKeyHash(value));
  }
}

template <class K, class N>
std::size_t hashStateKey(const K& key, const N& ns) {
  if constexpr (AbslHashable<K> && AbslHashable<N>) {
    return absl::HashOf(key, ns);
  } else {
    return absl::HashOf(hashStatePart(key), hashStatePart(ns));
  }
}

/// What a table stores for the current key: a copy, unless the key type
/// hands out an owning copy of a borrowed value (see erased_key.h).
template <class K>
K storedKey(const K& key) {
  if constexpr (requires { { key.owned() } -> std::same_as<K>; }) {
    return key.owned();
  } else {
    return key;
  }
}

/// A stored map key.
template <class K, class N>
struct StateKey {
  K key;
  [[no_unique_address]] N ns;
};

/// A probe for the map that borrows the key and namespace instead of copying them.
template <class K, class N>
struct StateKeyRef {
  const K* key;
  const N* ns;
};

template <class K, class N>
struct StateKeyHash {
  using is_transparent = void;
  std::size_t operator()(const StateKey<K, N>& k) const { return hashStateKey(k.key, k.ns); }
  std::size_t operator()(const StateKeyRef<K, N>& k) const { return hashStateKey(*k.key, *k.ns); }
};

template <class K, class N>
struct StateKeyEq {
  using is_transparent = void;

  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    return keyOf(a) == keyOf(b) && nsOf(a) == nsOf(b);
  }

 private:
  static const K& keyOf(const StateKey<K, N>& k) { return k.key; }
  static const K& keyOf(const StateKeyRef<K, N>& k) { return *k.key; }
  static const N& nsOf(const StateKey<K, N>& k) { return k.ns; }
  static const N& nsOf(const StateKeyRef<K, N>& k) { return *k.ns; }
};

template <class K, class N, class S>
class StateTable {
 public:
  using Map = absl::flat_hash_map<StateKey<K, N>, S, StateKeyHash<K, N>, StateKeyEq<K, N>>;

  StateTable(std::string name, const CurrentKeyContext<K>& context, int num_key_groups)
      : name_(std::move(name)), context_(&context), maps_(static_cast<std::size_t>(num_key_groups)) {
    if constexpr (std::is_same_v<N, VoidNamespace>) {
      current_namespace_.emplace();
    }
  }

  const std::string& name() const { return name_; }

  void setCurrentNamespace(const N& ns) { current_namespace_ = ns; }

  /// Throws std::logic_error if no namespace was set (only VoidNamespace has one from the start).
  const N& currentNamespace() const {
    if (!current_namespace_) {
      throw std::logic_error("state '" + name_ + "' was accessed before setCurrentNamespace()");
    }
    return *current_namespace_;
  }

  /// The current key's value in `ns`, or nullptr.
  const S* find(const N& ns) const {
    const Map& map = currentMap();
    auto it = map.find(probe(ns));
    return it == map.end() ? nullptr : &it->second;
  }
  S* find(const N& ns) {
    Map& map = currentMap();
    auto it = map.find(probe(ns));
    return it == map.end() ? nullptr : &it->second;
  }

  /// The current key's value in `ns`, created from make() if absent.
  template <class Make>
  S& findOrCreate(const N& ns, Make&& make) {
    Map& map = currentMap();
    auto it = map.lazy_emplace(probe(ns), [&](const typename Map::constructor& construct) {
      construct(StateKey<K, N>{storedKey(*context_->key), ns}, make());
    });
    return it->second;
  }

  /// Store `value` for the current key in `ns`, replacing any previous value.
  void put(const N& ns, S value) {
    Map& map = currentMap();
    bool inserted = false;
    auto it = map.lazy_emplace(probe(ns), [&](const typename Map::constructor& construct) {
      inserted = true;
      construct(StateKey<K, N>{storedKey(*context_->key), ns}, std::move(value));
    });
    if (!inserted) {
      it->second = std::move(value);
    }
  }

  /// Remove the current key's value in `ns`; false if there was none.
  bool erase(const N& ns) { return currentMap().erase(probe(ns)) > 0; }

  /// Remove and return the current key's value in `ns`.
  std::optional<S> take(const N& ns) {
    Map& map = currentMap();
    auto it = map.find(probe(ns));
    if (it == map.end()) {
      return std::nullopt;
    }
    std::optional<S> value(std::move(it->second));
    map.erase(it);
    return value;
  }

  /// For the current key: fold(target's value, std::move(source's value))
  /// for each source in order, or the source's value becomes target's when
  /// target has none; the sources are removed, a source equal to target is
  /// skipped. Target's entry stays where it is: a session that only grew
  /// merges no source and costs nothing here.
  template <class Fold>
  void mergeInto(const N& target, const std::vector<N>& sources, Fold&& fold) {
    for (const N& source : sources) {
      if (source == target) {
        continue;
      }
      std::optional<S> value = take(source);
      if (!value) {
        continue;
      }
      if (S* merged = find(target)) {
        fold(*merged, std::move(*value));
      } else {
        put(target, std::move(*value));
      }
    }
  }

  /// Live entries over all keys and namespaces.
  std::size_t size() const {
    std::size_t total = 0;
    for (const Map& map : maps_) {
      total += map.size();
    }
    return total;
  }

  /// Distinct keys with at least one entry. O(entries) unless N is VoidNamespace.
  std::size_t numKeys() const {
    if constexpr (std::is_same_v<N, VoidNamespace>) {
      return size();
    } else {
      struct KeyPtrHash {
        std::size_t operator()(const K* k) const { return hashStatePart(*k); }
      };
      struct KeyPtrEq {
        bool operator()(const K* a, const K* b) const { return *a == *b; }
      };
      // A key lives in exactly one key group, so distinct keys can be counted group by group.
      absl::flat_hash_set<const K*, KeyPtrHash, KeyPtrEq> keys;
      std::size_t total = 0;
      for (const Map& map : maps_) {
        keys.clear();
        for (const auto& [state_key, value] : map) {
          keys.insert(&state_key.key);
        }
        total += keys.size();
      }
      return total;
    }
  }

  /// The backend's current key, and for an erased key its type.
  const CurrentKeyContext<K>& keyContext() const { return *context_; }

  /// The entries of the index-th key group of the backend's range, for snapshots.
  const Map& keyGroup(int index) const { return maps_[static_cast<std::size_t>(index)]; }

  /// Store an entry read from a snapshot in the index-th key group, replacing
  /// one with the same key and namespace.
  void restoreEntry(int index, K key, N ns, S value) {
    maps_[static_cast<std::size_t>(index)].insert_or_assign(StateKey<K, N>{std::move(key), std::move(ns)},
                                                            std::move(value));
  }

  /// Call f(key, namespace, value) for every entry; see the file comment for the order.
  template <class F>
  void forEachEntry(F&& f) const {
    for (const Map& map : maps_) {
      for (const auto& [state_key, value] : map) {
        f(state_key.key, state_key.ns, value);
      }
    }
  }

 private:
  StateKeyRef<K, N> probe(const N& ns) const { return StateKeyRef<K, N>{&*context_->key, &ns}; }

  const Map& currentMap() const {
    if (context_->key_group_index < 0) {
      throw std::logic_error("state '" + name_ + "' was accessed before a current key was set");
    }
    return maps_[static_cast<std::size_t>(context_->key_group_index)];
  }
  Map& currentMap() { return const_cast<Map&>(std::as_const(*this).currentMap()); }

  std::string name_;
  const CurrentKeyContext<K>* context_;
  std::optional<N> current_namespace_;
  std::vector<Map> maps_;
};

/// What every heap state has besides its own operations: the state interface
/// `Interface` (a NamespacedState of ValueState<V>, ListState<V>, ...), the
/// namespace it currently reads and writes, and read-only access to its table
/// for metrics and snapshots.
template <class K, class N, class S, class Interface>
class HeapStateBase : public Interface, public StateObject {
 public:
  HeapStateBase(const StateDescriptor& descriptor, const CurrentKeyContext<K>& context, int num_key_groups)
      : table_(descriptor.getName(), context, num_key_groups), kind_(descriptor.getKind()) {}

  const std::string& getName() const { return table_.name(); }
  const std::string& name() const final { return table_.name(); }

  /// Window operators point the state at a window before each access.
  void setCurrentNamespace(const N& ns) final { table_.setCurrentNamespace(ns); }
  const N& getCurrentNamespace() const { return table_.currentNamespace(); }

  StateKind kind() const final { return kind_; }
  StateTypes types() const final {
    return {KeyFormat<K>::signature(table_.keyContext()), signatureOf<N>(), signatureOf<S>()};
  }
  std::size_t numEntries() const final { return table_.size(); }
  std::size_t numKeys() const final { return table_.numKeys(); }

  /// f(const K& key, const N& ns, const S& stored) for every entry.
  template <class F>
  void forEachEntry(F&& f) const {
    table_.forEachEntry(std::forward<F>(f));
  }

 void writeKeyGroup(int index, DataOutput& out) const final {
    if constexpr (kSerializable) {
      requireSerializableKey();
      // A hash table's order depends on where its memory lies (absl salts
      // each table), so entries are written sorted by their key and
      // namespace bytes: the same state makes the same bytes.
      const auto& entries = table_.keyGroup(index);
      std::vector<KeyBytesEntry> sorted;
      sorted.reserve(entries.size());
      for (const auto& [key, value] : entries) {
        DataOutput key_bytes;
        KeyFormat<K>::write(key.key, key_bytes, table_.keyContext());
        TypeSerializer<N>::serialize(key.ns, key_bytes);
        sorted.emplace_back(key_bytes.takeBytes(), &value);
      }
      sortByKeyBytes(sorted);
      out.writeVarUint(sorted.size());
      for (const auto& [key_bytes, value] : sorted) {
        out.writeBytes(key_bytes);
        TypeSerializer<S>::serialize(*static_cast<const S*>(value), out);
      }
    } else {
      throwUnserializable();
    }
  }

  void readKeyGroup(int index, DataInput& in) final {
    if constexpr (kSerializable) {
      requireSerializableKey();
      // Key, namespace and value are each at least one byte.
      const std::size_t count = in.readCount("the entries of state '" + table_.name() + "'", 3);
      for (std::size_t i = 0; i < count; ++i) {
        K key = KeyFormat<K>::read(in, table_.keyContext());
        N ns = TypeSerializer<N>::deserialize(in);
        S value = readStoredValue(in);
        table_.restoreEntry(index, std::move(key), std::move(ns), std::move(value));
      }
    } else {
      throwUnserializable();
    }
  }

 protected:
  static constexpr bool kSerializable = KeyFormat<K>::kCompiles && Serializable<N> && Serializable<S>;

  /// A stored value read from a snapshot; a state whose values need more than
  /// their serializer (an allocator) builds them itself.
  virtual S readStoredValue(DataInput& in) {
    if constexpr (Serializable<S>) {
      return TypeSerializer<S>::deserialize(in);
    } else {
      throwUnserializable();
    }
  }

  StateTable<K, N, S> table_;

 private:
  template <class T>
  static std::string signatureOf() {
    if constexpr (Serializable<T>) {
      return TypeSerializer<T>::signature();
    } else {
      return {};
    }
  }

  // An erased key's type is known only at run time.
  void requireSerializableKey() const {
    if (!KeyFormat<K>::serializable(table_.keyContext())) {
      throwUnserializable("key", KeyFormat<K>::typeName(table_.keyContext()));
    }
  }

  [[noreturn]] void throwUnserializable() const {
    if constexpr (!KeyFormat<K>::kCompiles) throwUnserializable("key", KeyFormat<K>::typeName(table_.keyContext()));
    const bool ns = !Serializable<N>;
    throwUnserializable(ns ? "namespace" : "value", demangle(ns ? typeid(N).name() : typeid(S).name()));
  }

  [[noreturn]] void throwUnserializable(const char* part, const std::string& type) const {
    throwUnserializableType("state '" + table_.name() + "'", part, type);
  }

  StateKind kind_;
};

}  // namespace tidemark::internal
