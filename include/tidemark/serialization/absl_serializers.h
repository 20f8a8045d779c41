// TypeSerializer for absl's hash containers and InlinedVector, kept apart from
// type_serializer.h so that only code that stores them parses absl. The byte
// format and the signature are those of std::unordered_map (and a set's),
// so state written from one restores into the other.
#pragma once

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/container/node_hash_map.h"
#include "absl/container/node_hash_set.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark {

template <class K, class V, class H, class E, class A>
  requires Serializable<K> && Serializable<V>
struct TypeSerializer<absl::flat_hash_map<K, V, H, E, A>>
    : internal::MapSerializer<absl::flat_hash_map<K, V, H, E, A>, K, V> {
  static std::string signature() { return "hash_map<" + internal::signatures<K, V>() + ">"; }
};

template <class K, class V, class H, class E, class A>
  requires Serializable<K> && Serializable<V>
struct TypeSerializer<absl::node_hash_map<K, V, H, E, A>>
    : internal::MapSerializer<absl::node_hash_map<K, V, H, E, A>, K, V> {
  static std::string signature() { return "hash_map<" + internal::signatures<K, V>() + ">"; }
};

template <class T, class H, class E, class A>
  requires Serializable<T>
struct TypeSerializer<absl::flat_hash_set<T, H, E, A>> : internal::SetSerializer<absl::flat_hash_set<T, H, E, A>, T> {
  static std::string signature() { return "hash_set<" + TypeSerializer<T>::signature() + ">"; }
};

template <class T, class H, class E, class A>
  requires Serializable<T>
struct TypeSerializer<absl::node_hash_set<T, H, E, A>> : internal::SetSerializer<absl::node_hash_set<T, H, E, A>, T> {
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
