// TaggedUnion<T1, T2>: an element of either input of a window join or coGroup
// (Flink's CoGroupedStreams.TaggedUnion).
//
// join() and coGroup() tag each element of the first input as one() and each
// element of the second as two(), union the two tagged streams, key them by
// the key of whichever side the element came from and window them: the
// window operator of a join therefore sees TaggedUnion<T1, T2> elements. Name
// the type when writing a Trigger, Evictor or WindowAssigner subclass for a
// join, or when driving a join's window operator with the test harness.
//
// It works when T1 and T2 are the same type (the tag is the variant's index,
// not the type). Printing it (failure messages) prints "one(<value>)" or
// "two(<value>)", the value as core/describe.h describes it.
//
// Example:
//   auto u = tidemark::TaggedUnion<int, std::string>::two("x");
//   u.isTwo();     // true
//   u.getTwo();    // "x"
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <variant>

#include "tidemark/core/describe.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark {

template <class T1, class T2>
class TaggedUnion {
 public:
  using FirstType = T1;
  using SecondType = T2;

  /// An element of the first input.
  static TaggedUnion one(T1 value) { return TaggedUnion(std::in_place_index<0>, std::move(value)); }
  /// An element of the second input.
  static TaggedUnion two(T2 value) { return TaggedUnion(std::in_place_index<1>, std::move(value)); }

  bool isOne() const { return value_.index() == 0; }
  bool isTwo() const { return value_.index() == 1; }

  /// The first input's element; throws std::bad_variant_access unless isOne().
  const T1& getOne() const { return std::get<0>(value_); }
  /// The second input's element; throws std::bad_variant_access unless isTwo().
  const T2& getTwo() const { return std::get<1>(value_); }

  friend std::ostream& operator<<(std::ostream& os, const TaggedUnion& u) {
    if (u.isOne()) {
      os << "one(";
      describeTo(os, u.getOne());
    } else {
      os << "two(";
      describeTo(os, u.getTwo());
    }
    return os << ')';
  }

 private:
  template <std::size_t I, class V>
  TaggedUnion(std::in_place_index_t<I> index, V&& value) : value_(index, std::forward<V>(value)) {}

  std::variant<T1, T2> value_;
};

/// A tag (0: one, 1: two), then that side's value.
template <class T1, class T2>
  requires Serializable<T1> && Serializable<T2>
struct TypeSerializer<TaggedUnion<T1, T2>> {
  static void serialize(const TaggedUnion<T1, T2>& value, DataOutput& out) {
    out.writeVarUint(value.isOne() ? 0 : 1);
    if (value.isOne()) {
      serializeTo(value.getOne(), out);
    } else {
      serializeTo(value.getTwo(), out);
    }
  }
  static TaggedUnion<T1, T2> deserialize(DataInput& in) {
    const std::size_t offset = in.position();
    const std::uint64_t side = in.readVarUint("a tagged union's side");
    if (side == 0) return TaggedUnion<T1, T2>::one(deserializeFrom<T1>(in));
    if (side == 1) return TaggedUnion<T1, T2>::two(deserializeFrom<T2>(in));
    in.fail("a tagged union's side", "is not 0 or 1", offset);
  }
  static std::string signature() { return "TaggedUnion<" + internal::signatures<T1, T2>() + ">"; }
};

}  // namespace tidemark
