// TypeSerializer<T>: how a value of T becomes bytes and back, for state,
// timers, checkpoints and, later, connector records. One set of serializers
// for all of them, at the bottom of the layers.
//
// Built in: bool, integers, floating-point numbers, enums, std::string,
// std::vector, std::array, std::map, std::unordered_map, std::set, std::unordered_set,
// absl's flat and node hash maps and sets (absl_serializers.h),
// std::optional, std::pair, std::tuple and std::chrono::duration, nested in
// any way. A user type opts in with one member that ties its fields:
//
//   struct Order {
//     std::string customer;
//     std::int64_t amount = 0;
//     auto fields() { return std::tie(customer, amount); }
//   };
//
// (default-constructible; the fields are written in that order), or by
// specializing TypeSerializer<Order> with the three static members below.
// Anything else is a compile error that says how to opt in.
//
// Each serializer has a signature(), a short text naming the format
// ("vector<pair<string,i64>>"): a checkpoint records it beside the state, so
// a restore into a different type is refused by name instead of misread.
//
// The archive format is this project's own (data_output.h, data_input.h):
// every length is checked against the bytes left before anything is
// allocated, which a general-purpose archive does not do (see
// docs/serialization.md).
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "tidemark/core/describe.h"
#include "tidemark/serialization/data_input.h"
#include "tidemark/serialization/data_output.h"

namespace tidemark {

/// Specialize for a type that cannot have a fields() member. The primary
/// template is left undefined on purpose: see Serializable.
template <class T, class Enable = void>
struct TypeSerializer;

/// True when TypeSerializer<T> can write and read a T.
template <class T>
concept Serializable = requires(const T& value, DataOutput& out, DataInput& in) {
  TypeSerializer<T>::serialize(value, out);
  { TypeSerializer<T>::deserialize(in) } -> std::same_as<T>;
  { TypeSerializer<T>::signature() } -> std::convertible_to<std::string>;
};

namespace internal {
template <class T>
concept HasFields = std::is_default_constructible_v<T> && requires(T& value) { std::tuple_size<decltype(value.fields())>::value; };

template <class T>
void requireSerializable() {
  static_assert(Serializable<T>,
                "tidemark cannot serialize this type: give it a member `auto fields() { return std::tie(a, b); }` "
                "naming its fields, or specialize tidemark::TypeSerializer<T> with static serialize(const T&, "
                "DataOutput&), deserialize(DataInput&) and signature()");
}

/// The signatures of Ts, joined by commas.
template <class... Ts>
std::string signatures() {
  std::string joined;
  ((joined += (joined.empty() ? "" : ","), joined += TypeSerializer<Ts>::signature()), ...);
  return joined;
}
}  // namespace internal

/// Write `value` to `out`.
template <class T>
void serializeTo(const T& value, DataOutput& out) {
  internal::requireSerializable<T>();
  // Guarded, so that the assertion is the only error for a type without one.
  if constexpr (Serializable<T>) TypeSerializer<T>::serialize(value, out);
}

/// Read a T from `in`.
template <class T>
T deserializeFrom(DataInput& in) {
  internal::requireSerializable<T>();
  if constexpr (Serializable<T>) {
    return TypeSerializer<T>::deserialize(in);
  } else {
    std::abort();  // never compiled: the assertion above already failed
  }
}

/// `value` as bytes.
template <class T>
std::string serializeToBytes(const T& value) {
  DataOutput out;
  serializeTo(value, out);
  return out.takeBytes();
}

/// The T that `bytes` hold, all of them: trailing bytes are an error too.
template <class T>
T deserializeFromBytes(std::string_view bytes) {
  DataInput in(bytes);
  T value = deserializeFrom<T>(in);
  if constexpr (Serializable<T>) in.expectEnd(TypeSerializer<T>::signature());
  return value;
}

// --- numbers, bool, enums ---------------------------------------------------

template <>
struct TypeSerializer<bool> {
  static void serialize(bool value, DataOutput& out) { out.writeFixed(static_cast<std::uint8_t>(value ? 1 : 0)); }
  static bool deserialize(DataInput& in) {
    const std::size_t offset = in.position();
    const auto byte = in.readFixed<std::uint8_t>("bool");
    if (byte > 1) in.fail("bool", "is neither 0 nor 1", offset);
    return byte == 1;
  }
  static std::string signature() { return "bool"; }
};

template <class I>
struct TypeSerializer<I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>>> {
  static void serialize(I value, DataOutput& out) { out.writeFixed(value); }
  static I deserialize(DataInput& in) { return in.readFixed<I>(signature()); }
  static std::string signature() { return (std::is_signed_v<I> ? "i" : "u") + std::to_string(8 * sizeof(I)); }
};

template <>
struct TypeSerializer<float> {
  static void serialize(float value, DataOutput& out) { out.writeFloat(value); }
  static float deserialize(DataInput& in) { return in.readFloat("f32"); }
  static std::string signature() { return "f32"; }
};

template <>
struct TypeSerializer<double> {
  static void serialize(double value, DataOutput& out) { out.writeDouble(value); }
  static double deserialize(DataInput& in) { return in.readDouble("f64"); }
  static std::string signature() { return "f64"; }
};

template <class E>
struct TypeSerializer<E, std::enable_if_t<std::is_enum_v<E>>> {
  using Underlying = std::underlying_type_t<E>;
  static void serialize(E value, DataOutput& out) { out.writeFixed(static_cast<Underlying>(value)); }
  static E deserialize(DataInput& in) { return static_cast<E>(in.readFixed<Underlying>(signature())); }
  static std::string signature() {
    return "enum " + internal::demangle(typeid(E).name()) + ":" + TypeSerializer<Underlying>::signature();
  }
};

template <class Rep, class Period>
  requires Serializable<Rep>
struct TypeSerializer<std::chrono::duration<Rep, Period>> {
  using D = std::chrono::duration<Rep, Period>;
  static void serialize(const D& value, DataOutput& out) { serializeTo(value.count(), out); }
  static D deserialize(DataInput& in) { return D(deserializeFrom<Rep>(in)); }
  static std::string signature() {
    return "duration<" + TypeSerializer<Rep>::signature() + "," + std::to_string(Period::num) + "/" +
           std::to_string(Period::den) + ">";
  }
};

// --- text and containers ----------------------------------------------------

template <>
struct TypeSerializer<std::string> {
  static void serialize(const std::string& value, DataOutput& out) {
    out.writeVarUint(value.size());
    out.writeBytes(value);
  }
  static std::string deserialize(DataInput& in) {
    const std::size_t size = in.readCount("string length");
    return std::string(in.readBytes(size, "string"));
  }
  static std::string signature() { return "string"; }
};

namespace internal {
/// Containers that are read back by inserting elements one by one.
template <class C, class Element>
struct SequenceSerializer {
  static void serialize(const C& value, DataOutput& out) {
    out.writeVarUint(value.size());
    for (const auto& element : value) serializeTo<Element>(element, out);
  }
  template <class Insert>
  static C deserializeWith(DataInput& in, const std::string& what, Insert insert) {
    // Every value takes at least one byte (see serializeFields), so no
    // count can claim more elements than the bytes left.
    const std::size_t count = in.readCount(what + " size", 1);
    C result;
    for (std::size_t i = 0; i < count; ++i) insert(result, deserializeFrom<Element>(in));
    return result;
  }
};
}  // namespace internal

template <class T, class A>
  requires Serializable<T>
struct TypeSerializer<std::vector<T, A>> {
  using Base = internal::SequenceSerializer<std::vector<T, A>, T>;
  static void serialize(const std::vector<T, A>& value, DataOutput& out) { Base::serialize(value, out); }
  static std::vector<T, A> deserialize(DataInput& in) {
    return Base::deserializeWith(in, signature(), [](auto& v, T&& e) { v.push_back(std::move(e)); });
  }
  static std::string signature() { return "vector<" + TypeSerializer<T>::signature() + ">"; }
};

namespace internal {
/// Maps: the count, then key and value of each entry; read back by inserting.
template <class M, class K, class V>
struct MapSerializer {
  static void serialize(const M& value, DataOutput& out) {
    out.writeVarUint(value.size());
    for (const auto& [k, v] : value) {
      serializeTo(k, out);
      serializeTo(v, out);
    }
  }
  static M deserialize(DataInput& in) {
    return SequenceSerializer<M, std::pair<K, V>>::deserializeWith(
        in, TypeSerializer<M>::signature(),
        [](M& m, std::pair<K, V>&& e) { m.emplace(std::move(e.first), std::move(e.second)); });
  }
};

/// Sets: the count, then each element; read back by inserting.
template <class S, class T>
struct SetSerializer {
  static void serialize(const S& value, DataOutput& out) { SequenceSerializer<S, T>::serialize(value, out); }
  static S deserialize(DataInput& in) {
    return SequenceSerializer<S, T>::deserializeWith(in, TypeSerializer<S>::signature(),
                                                     [](S& s, T&& e) { s.insert(std::move(e)); });
  }
};
}  // namespace internal

template <class T, class C, class A>
  requires Serializable<T>
struct TypeSerializer<std::set<T, C, A>> : internal::SetSerializer<std::set<T, C, A>, T> {
  static std::string signature() { return "set<" + TypeSerializer<T>::signature() + ">"; }
};

template <class K, class V, class C, class A>
  requires Serializable<K> && Serializable<V>
struct TypeSerializer<std::map<K, V, C, A>> : internal::MapSerializer<std::map<K, V, C, A>, K, V> {
  static std::string signature() { return "map<" + internal::signatures<K, V>() + ">"; }
};

/// Unordered maps of any kind share the byte format, and so the signature.
template <class K, class V, class H, class E, class A>
  requires Serializable<K> && Serializable<V>
struct TypeSerializer<std::unordered_map<K, V, H, E, A>>
    : internal::MapSerializer<std::unordered_map<K, V, H, E, A>, K, V> {
  static std::string signature() { return "hash_map<" + internal::signatures<K, V>() + ">"; }
};

template <class T, class H, class E, class A>
  requires Serializable<T>
struct TypeSerializer<std::unordered_set<T, H, E, A>> : internal::SetSerializer<std::unordered_set<T, H, E, A>, T> {
  static std::string signature() { return "hash_set<" + TypeSerializer<T>::signature() + ">"; }
};

template <class T, std::size_t N>
  requires Serializable<T>
struct TypeSerializer<std::array<T, N>> {
  static void serialize(const std::array<T, N>& value, DataOutput& out) {
    for (const T& element : value) serializeTo(element, out);
  }
  static std::array<T, N> deserialize(DataInput& in) {
    std::array<T, N> value{};
    for (T& element : value) element = deserializeFrom<T>(in);
    return value;
  }
  static std::string signature() { return "array<" + TypeSerializer<T>::signature() + "," + std::to_string(N) + ">"; }
};

template <class T>
  requires Serializable<T>
struct TypeSerializer<std::optional<T>> {
  static void serialize(const std::optional<T>& value, DataOutput& out) {
    serializeTo(value.has_value(), out);
    if (value) serializeTo(*value, out);
  }
  static std::optional<T> deserialize(DataInput& in) {
    if (!deserializeFrom<bool>(in)) return std::nullopt;
    return deserializeFrom<T>(in);
  }
  static std::string signature() { return "optional<" + TypeSerializer<T>::signature() + ">"; }
};

// --- pairs, tuples, user types ------------------------------------------------

template <class A, class B>
  requires Serializable<A> && Serializable<B>
struct TypeSerializer<std::pair<A, B>> {
  static void serialize(const std::pair<A, B>& value, DataOutput& out) {
    serializeTo(value.first, out);
    serializeTo(value.second, out);
  }
  static std::pair<A, B> deserialize(DataInput& in) {
    // Two statements: the order of evaluation of constructor arguments is unspecified.
    A first = deserializeFrom<A>(in);
    B second = deserializeFrom<B>(in);
    return {std::move(first), std::move(second)};
  }
  static std::string signature() { return "pair<" + internal::signatures<A, B>() + ">"; }
};

namespace internal {
/// A value with no fields (std::tuple<>, a struct whose fields() ties
/// nothing) is one zero byte, as Flink writes an empty value: every value then
/// takes a byte at least, which is what bounds a container's count.
constexpr std::string_view kNoFields = "a value without fields";

template <class Tuple>
void serializeFields(const Tuple& fields, DataOutput& out) {
  if constexpr (std::tuple_size_v<std::remove_cvref_t<Tuple>> == 0) out.writeFixed(std::uint8_t{0});
  std::apply([&out](const auto&... field) { (serializeTo(field, out), ...); }, fields);
}

/// Reads into each field in order (a braced list guarantees left to right).
template <class Tuple>
void deserializeFields(Tuple&& fields, DataInput& in) {
  if constexpr (std::tuple_size_v<std::remove_cvref_t<Tuple>> == 0) {
    const std::size_t offset = in.position();
    if (in.readFixed<std::uint8_t>(kNoFields) != 0) in.fail(kNoFields, "is not 0", offset);
  }
  std::apply(
      [&in](auto&... field) {
        [[maybe_unused]] const int ordered[] = {0, ((field = deserializeFrom<std::remove_cvref_t<decltype(field)>>(in)), 0)...};
      },
      fields);
}

/// What fields() returns, a tuple of references: whether every field can be
/// serialized, and their signatures.
template <class Tuple>
struct TiedFields {
  static constexpr bool kSerializable = false;
};
template <class... Fs>
struct TiedFields<std::tuple<Fs...>> {
  static constexpr bool kSerializable = (Serializable<std::remove_cvref_t<Fs>> && ...);
  static std::string signatures() { return internal::signatures<std::remove_cvref_t<Fs>...>(); }
};
}  // namespace internal

template <class... Ts>
  requires(Serializable<Ts> && ...)
struct TypeSerializer<std::tuple<Ts...>> {
  static void serialize(const std::tuple<Ts...>& value, DataOutput& out) { internal::serializeFields(value, out); }
  static std::tuple<Ts...> deserialize(DataInput& in) {
    std::tuple<Ts...> value;
    internal::deserializeFields(value, in);
    return value;
  }
  static std::string signature() { return "tuple<" + internal::signatures<Ts...>() + ">"; }
};

template <class T>
  requires internal::HasFields<T> && internal::TiedFields<decltype(std::declval<T&>().fields())>::kSerializable
struct TypeSerializer<T> {
  static void serialize(const T& value, DataOutput& out) {
    // fields() is not const, so that one member serves both directions;
    // here the references are only read.
    internal::serializeFields(const_cast<T&>(value).fields(), out);
  }
  static T deserialize(DataInput& in) {
    T value{};
    internal::deserializeFields(value.fields(), in);
    return value;
  }
  static std::string signature() {
    using Fields = decltype(std::declval<T&>().fields());
    return internal::demangle(typeid(T).name()) + "{" + internal::TiedFields<Fields>::signatures() + "}";
  }
};

}  // namespace tidemark
