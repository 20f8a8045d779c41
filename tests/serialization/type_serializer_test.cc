// TypeSerializer: every built-in type and a user type round-trip; the bytes
// are the documented format; signatures name the format.
#include "tidemark/serialization/type_serializer.h"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <unordered_set>
#include <vector>

#include "tidemark/serialization/absl_serializers.h"

namespace tidemark {
namespace {

struct Order {
  std::string customer;
  std::int64_t amount = 0;
  std::vector<std::pair<int, double>> lines;
  auto fields() { return std::tie(customer, amount, lines); }
  bool operator==(const Order&) const = default;
};

enum class Color : std::uint8_t { RED = 1, GREEN = 2 };

/// An opted-in type by specialization: a type that cannot have members.
struct Point {
  int x = 0;
  int y = 0;
  bool operator==(const Point&) const = default;
};

template <class T>
T roundTrip(const T& value) {
  return deserializeFromBytes<T>(serializeToBytes(value));
}

std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string text;
  for (unsigned char c : bytes) {
    text += digits[c >> 4];
    text += digits[c & 0xF];
  }
  return text;
}

}  // namespace

template <>
struct TypeSerializer<Point> {
  static void serialize(const Point& p, DataOutput& out) {
    serializeTo(p.x, out);
    serializeTo(p.y, out);
  }
  static Point deserialize(DataInput& in) {
    const int x = deserializeFrom<int>(in);
    const int y = deserializeFrom<int>(in);
    return Point{x, y};
  }
  static std::string signature() { return "Point"; }
};

namespace {

TEST(TypeSerializerTest, NumbersRoundTripAtTheirLimits) {
  EXPECT_EQ(roundTrip(std::numeric_limits<std::int64_t>::min()), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(roundTrip(std::numeric_limits<std::uint64_t>::max()), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(roundTrip<std::int8_t>(-128), -128);
  EXPECT_EQ(roundTrip(true), true);
  EXPECT_EQ(roundTrip(-0.0), -0.0);
  EXPECT_EQ(roundTrip(1.5f), 1.5f);
  EXPECT_EQ(roundTrip(std::numeric_limits<double>::infinity()), std::numeric_limits<double>::infinity());
  EXPECT_EQ(roundTrip(Color::GREEN), Color::GREEN);
  EXPECT_EQ(roundTrip(std::chrono::milliseconds(-5000)), std::chrono::milliseconds(-5000));
}

TEST(TypeSerializerTest, ContainersRoundTrip) {
  EXPECT_EQ(roundTrip(std::string()), "");
  EXPECT_EQ(roundTrip(std::string("a\0b", 3)), std::string("a\0b", 3));
  const std::vector<std::string> words{"alpha", "", std::string(300, 'x')};
  EXPECT_EQ(roundTrip(words), words);
  const std::map<std::string, std::vector<int>> m{{"a", {1, 2}}, {"b", {}}};
  EXPECT_EQ(roundTrip(m), m);
  const std::unordered_map<int, std::string> u{{1, "one"}, {2, "two"}};
  EXPECT_EQ(roundTrip(u), u);
  const std::set<long> s{3, 1, 2};
  EXPECT_EQ(roundTrip(s), s);
  const std::array<bool, 3> a{true, false, true};
  EXPECT_EQ(roundTrip(a), a);
  EXPECT_EQ(roundTrip(std::optional<int>()), std::nullopt);
  EXPECT_EQ(roundTrip(std::optional<int>(7)), 7);
  const std::tuple<int, std::string, std::optional<Color>> t{1, "x", Color::RED};
  EXPECT_EQ(roundTrip(t), t);
  EXPECT_EQ(roundTrip(std::tuple<>()), std::tuple<>());
}

TEST(TypeSerializerTest, HashContainersRoundTripAndShareTheirFormat) {
  const absl::flat_hash_map<std::string, std::vector<int>> flat{{"a", {1}}, {"b", {}}};
  EXPECT_EQ(roundTrip(flat), flat);
  const absl::node_hash_map<int, std::string> node{{1, "one"}};
  EXPECT_EQ(roundTrip(node), node);
  const absl::flat_hash_set<std::string> flat_set{"x", "y"};
  EXPECT_EQ(roundTrip(flat_set), flat_set);
  const std::unordered_set<int> std_set{1, 2, 3};
  EXPECT_EQ(roundTrip(std_set), std_set);
  // State written from one kind of hash map restores into another.
  const std::unordered_map<std::string, std::vector<int>> as_std(flat.begin(), flat.end());
  EXPECT_EQ((deserializeFromBytes<absl::flat_hash_map<std::string, std::vector<int>>>(serializeToBytes(as_std))), flat);
  EXPECT_EQ((TypeSerializer<absl::flat_hash_map<std::string, int>>::signature()),
            (TypeSerializer<std::unordered_map<std::string, int>>::signature()));
  EXPECT_EQ(TypeSerializer<absl::node_hash_set<long>>::signature(), "hash_set<i64>");
}

TEST(TypeSerializerTest, EqualHashContainersMakeEqualBytesWhateverTheirHistory) {
  // absl salts each table's order with its address; the bytes do not depend on it.
  absl::flat_hash_map<std::string, int> up;
  absl::flat_hash_map<std::string, int> down;
  down.reserve(4096);
  absl::flat_hash_set<long> set_up;
  absl::flat_hash_set<long> set_down;
  for (int i = 0; i < 300; ++i) {
    up.emplace("key" + std::to_string(i), i);
    down.emplace("key" + std::to_string(299 - i), 299 - i);
    set_up.insert(i);
    set_down.insert(299 - i);
  }
  EXPECT_EQ(serializeToBytes(up), serializeToBytes(down));
  EXPECT_EQ(serializeToBytes(set_up), serializeToBytes(set_down));
  // Sorted by the elements' bytes: "a" before "b", whichever came first.
  const absl::flat_hash_map<std::string, int> two{{"b", 2}, {"a", 1}};
  EXPECT_EQ(serializeToBytes(two), std::string("\x02\x01" "a" "\x01\x00\x00\x00" "\x01" "b" "\x02\x00\x00\x00", 13));
  const absl::InlinedVector<int, 2> inlined{3, 1, 2};
  EXPECT_EQ(roundTrip(inlined), inlined);
  EXPECT_EQ(serializeToBytes(inlined), serializeToBytes(std::vector<int>{3, 1, 2}));
}

TEST(TypeSerializerTest, AUserTypeWithFieldsRoundTrips) {
  const Order order{"Alice", 1234, {{1, 2.5}, {2, -1}}};
  EXPECT_EQ(roundTrip(order), order);
  EXPECT_EQ(roundTrip(std::vector<Order>{order, Order{}}), (std::vector<Order>{order, Order{}}));
}

TEST(TypeSerializerTest, AUserTypeBySpecializationRoundTrips) {
  EXPECT_EQ(roundTrip(Point{3, -4}), (Point{3, -4}));
  EXPECT_EQ(roundTrip(std::pair<Point, int>({1, 2}, 3)), (std::pair<Point, int>({1, 2}, 3)));
}

TEST(TypeSerializerTest, TheBytesAreLittleEndianWithVarintLengths) {
  EXPECT_EQ(hex(serializeToBytes<std::int32_t>(0x01020304)), "04030201");
  EXPECT_EQ(hex(serializeToBytes<std::int16_t>(-2)), "feff");
  EXPECT_EQ(hex(serializeToBytes(std::string("hi"))), "026869");
  EXPECT_EQ(hex(serializeToBytes(std::string(200, 'a')).substr(0, 3)), "c80161");  // 200 = 0xc8 0x01
  EXPECT_EQ(hex(serializeToBytes(std::optional<std::uint8_t>(9))), "0109");
  EXPECT_EQ(hex(serializeToBytes(1.0)), "000000000000f03f");
}

TEST(TypeSerializerTest, SignaturesNameTheFormat) {
  EXPECT_EQ(TypeSerializer<std::int64_t>::signature(), "i64");
  EXPECT_EQ(TypeSerializer<unsigned char>::signature(), "u8");
  EXPECT_EQ((TypeSerializer<std::vector<std::pair<std::string, double>>>::signature()), "vector<pair<string,f64>>");
  EXPECT_EQ((TypeSerializer<std::map<int, std::optional<bool>>>::signature()), "map<i32,optional<bool>>");
  EXPECT_EQ(TypeSerializer<std::chrono::milliseconds>::signature(), "duration<i64,1/1000>");
  EXPECT_EQ(TypeSerializer<Color>::signature(), "enum tidemark::(anonymous namespace)::Color:u8");
  EXPECT_EQ(TypeSerializer<Order>::signature(),
            "tidemark::(anonymous namespace)::Order{string,i64,vector<pair<i32,f64>>}");
  EXPECT_EQ((TypeSerializer<std::tuple<>>::signature()), "tuple<>");
}

TEST(TypeSerializerTest, SerializableSaysWhichTypesHaveASerializer) {
  struct NoFields {
    int x;
  };
  static_assert(Serializable<Order>);
  static_assert(Serializable<std::vector<std::map<std::string, Point>>>);
  static_assert(!Serializable<NoFields>);
  static_assert(!Serializable<std::vector<NoFields>>);
  static_assert(!Serializable<std::map<int, std::pair<std::string, NoFields>>>);
  struct FieldsOfNoFields {
    NoFields inner;
    auto fields() { return std::tie(inner); }
  };
  static_assert(!Serializable<FieldsOfNoFields>);
  static_assert(!Serializable<int*>);
}

}  // namespace
}  // namespace tidemark
