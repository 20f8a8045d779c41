// Bytes that are not what the reader expects: each gets a SerializationError
// that says what was read, where, and what is wrong, and none makes the
// reader allocate what a corrupt length claims.
#include "tidemark/serialization/data_input.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "tidemark/serialization/type_serializer.h"

namespace tidemark {
namespace {

template <class T>
std::string errorReading(const std::string& bytes) {
  try {
    deserializeFromBytes<T>(bytes);
  } catch (const SerializationError& e) {
    return e.what();
  }
  return "no error";
}

TEST(DataInputTest, TruncatedNumbersSayHowManyBytesWereMissing) {
  EXPECT_EQ(errorReading<std::int64_t>(std::string("\x01\x02\x03", 3)), "i64 at offset 0 needs 8 bytes, 3 left of 3");
  EXPECT_EQ((errorReading<std::pair<std::int32_t, double>>(std::string(6, '\0'))),
            "f64 at offset 4 needs 8 bytes, 2 left of 6");
  EXPECT_EQ(errorReading<std::string>(""), "string length at offset 0 needs 1 byte, 0 left of 0");
}

TEST(DataInputTest, ALengthLargerThanTheInputIsRefusedBeforeAllocating) {
  // A varint claiming 2^40 bytes, then three bytes: a general-purpose archive
  // allocates what the length says first (4 GB for 2^32).
  const std::string claim_2_40 = std::string("\x80\x80\x80\x80\x80\x20", 6) + "abc";
  EXPECT_EQ(errorReading<std::string>(claim_2_40),
            "string length at offset 0 claims 1099511627776 elements, but only 3 bytes are left");
  EXPECT_EQ(errorReading<std::vector<std::int64_t>>(claim_2_40),
            "vector<i64> size at offset 0 claims 1099511627776 elements, but only 3 bytes are left");
  EXPECT_EQ((errorReading<std::map<std::string, int>>(std::string("\x05\x01", 2) + "a")),
            "map<string,i32> size at offset 0 claims 5 elements, but only 2 bytes are left");
}

TEST(DataInputTest, ACountOfEmptyValuesIsBoundedToo) {
  // An empty tuple is one zero byte, so 2^32 - 1 of them cannot hide in 0 bytes.
  EXPECT_EQ(errorReading<std::vector<std::tuple<>>>(std::string("\xff\xff\xff\xff\x0f", 5)),
            "vector<tuple<>> size at offset 0 claims 4294967295 elements, but only 0 bytes are left");
  EXPECT_EQ(errorReading<std::tuple<>>(std::string("\x03", 1)), "a value without fields at offset 0 is not 0");
  EXPECT_EQ(serializeToBytes(std::vector<std::tuple<>>(3)), std::string("\x03\0\0\0", 4));
}

TEST(DataInputTest, AVarintLongerThan64BitsIsCorrupt) {
  EXPECT_EQ(errorReading<std::string>(std::string(10, '\xff') + "\x01"),
            "string length at offset 0 is a varint longer than 64 bits");
  EXPECT_EQ(errorReading<std::string>(std::string(9, '\xff') + "\x02"),
            "string length at offset 0 is a varint longer than 64 bits");
}

TEST(DataInputTest, ABoolThatIsNeitherZeroNorOneIsCorrupt) {
  EXPECT_EQ(errorReading<bool>("\x07"), "bool at offset 0 is neither 0 nor 1");
  EXPECT_EQ(errorReading<std::optional<int>>("\x02"), "bool at offset 0 is neither 0 nor 1");
}

TEST(DataInputTest, TrailingBytesMeanAnotherTypeWroteThem) {
  EXPECT_EQ(errorReading<std::int32_t>(serializeToBytes<std::int64_t>(7)), "i32: 4 bytes left over after offset 4 of 8");
}

TEST(DataInputTest, TheLargestVarintReadsBack) {
  DataOutput out;
  out.writeVarUint(UINT64_MAX);
  EXPECT_EQ(out.size(), 10u);
  DataInput in(out.bytes());
  EXPECT_EQ(in.readVarUint("max"), UINT64_MAX);
  in.expectEnd("max");
}

}  // namespace
}  // namespace tidemark
