// TypeSerializer for absl's hash containers and InlinedVector, kept apart from
// type_serializer.h so that only code that stores them parses absl. The byte
// format and the signature are those of std::unordered_map (and a set's),
// so state written from one restores into the other.
#pragma once

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/container/node_hash_map.h"
#include "absl/container/node_hash_set.h"
#include "tidemark/serialization/key_bytes_order.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark {

namespace internal {
/// absl salts each hash table with where its memory lies, so two equal
/// tables can iterate in different orders; these write the elements sorted
/// by their key's bytes, so that equal tables make equal bytes. The count,
/// then each element, as SequenceSerializer reads them back.
template <class C, class Key, class Element, class KeyOf>
void serializeSortedByKey(const C& value, DataOutput& out, KeyOf key_of) {
  std::vector<KeyBytesEntry> sorted;
  sorted.reserve(value.size());
  for (const Element& element : value) sorted.emplace_back(serializeToBytes<Key>(key_of(element)), &element);
  sortByKeyBytes(sorted);
  out.writeVarUint(sorted.size());
  for (const auto& [key_bytes, element] : sorted) {
    out.writeBytes(key_bytes);
    if constexpr (!std::is_same_v<Key, Element>) serializeTo(static_cast<const Element*>(element)->second, out);
  }
}

template <class M, class K, class V>
struct HashMapSerializer : MapSerializer<M, K, V> {
  static void serialize(const M& value, DataOutput& out) {
    serializeSortedByKey<M, K, typename M::value_type>(value, out, [](const auto& entry) -> const K& { return entry.first; });
  }
};

template <class S, class T>
struct HashSetSerializer : SetSerializer<S, T> {
  static void serialize(const S& value, DataOutput& out) {
    serializeSortedByKey<S, T, T>(value, out, [](const T& element) -> const T& { return element; });
  }
};
}  // namespace internal

template <class K, class V, class H, class E, class A>
  requires Serializable<K> && Serializable<V>
struct TypeSerializer<absl::flat_hash_map<K, V, H, E, A>>
    : internal::HashMapSerializer<absl::flat_hash_map<K, V, H, E, A>, K, V> {
  static std::string signature() { return "hash_map<" + internal::signatures<K, V>() + ">"; }
};

template <class K, class V, class H, class E, class A>
  requires Serializable<K> && Serializable<V>
struct TypeSerializer<absl::node_hash_map<K, V, H, E, A>>
    : internal::HashMapSerializer<absl::node_hash_map<K, V, H, E, A>, K, V> {
  static std::string signature() { return "hash_map<" + internal::signatures<K, V>() + ">"; }
};

template <class T, class H, class E, class A>
  requires Serializable<T>
struct TypeSerializer<absl::flat_hash_set<T, H, E, A>> : internal::HashSetSerializer<absl::flat_hash_set<T, H, E, A>, T> {
  static std::string signature() { return "hash_set<" + TypeSerializer<T>::signature() + ">"; }
};

template <class T, class H, class E, class A>
  requires Serializable<T>
struct TypeSerializer<absl::node_hash_set<T, H, E, A>> : internal::HashSetSerializer<absl::node_hash_set<T, H, E, A>, T> {
  static std::string signature() { return "hash_set<" + TypeSerializer<T>::signature() + ">"; }
};

/// The format and signature of std::vector's.
template <class T, std::size_t N, class A>
  requires Serializable<T>
struct TypeSerializer<absl::InlinedVector<T, N, A>> {
  using Base = internal::SequenceSerializer<absl::InlinedVector<T, N, A>, T>;
  static void serialize(const absl::InlinedVector<T, N, A>& value, DataOutput& out) { Base::serialize(value, out); }
  static absl::InlinedVector<T, N, A> deserialize(DataInput& in) {
    return Base::deserializeWith(in, signature(), [](auto& v, T&& e) { v.push_back(std::move(e)); });
  }
  static std::string signature() { return "vector<" + TypeSerializer<T>::signature() + ">"; }
};

}  // namespace tidemark
