// TaggedUnion's serializer: a side tag, then that side's value; a tag that is
// neither side is refused with its offset.
#include "tidemark/api/tagged_union.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "tidemark/serialization/serialization_error.h"

namespace tidemark {
namespace {

using Union = TaggedUnion<std::int32_t, std::string>;

TEST(TaggedUnionTest, EachSideRoundTripsBehindItsTag) {
  const Union one = deserializeFromBytes<Union>(serializeToBytes(Union::one(-7)));
  ASSERT_TRUE(one.isOne());
  EXPECT_EQ(one.getOne(), -7);
  const Union two = deserializeFromBytes<Union>(serializeToBytes(Union::two("bid")));
  ASSERT_FALSE(two.isOne());
  EXPECT_EQ(two.getTwo(), "bid");
  const std::string bytes = serializeToBytes(Union::two("bid"));
  EXPECT_EQ(bytes, std::string("\x01\x03" "bid", 5));
}

TEST(TaggedUnionTest, ASideThatIsNeitherIsRefusedWithItsOffset) {
  try {
    (void)deserializeFromBytes<Union>(std::string("\x02\x03" "bid", 5));
    FAIL() << "side 2 should have been refused";
  } catch (const SerializationError& error) {
    EXPECT_STREQ(error.what(), "a tagged union's side at offset 0 is not 0 or 1");
  }
}

TEST(TaggedUnionTest, TheSignatureNamesBothSides) {
  EXPECT_EQ(TypeSerializer<Union>::signature(), "TaggedUnion<i32,string>");
}

}  // namespace
}  // namespace tidemark
