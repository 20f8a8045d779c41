// splitFields / parseField: a text line into typed fields, errors naming the field.
#include "tidemark/core/delimited_fields.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tidemark {
namespace {

using ::testing::ElementsAre;

std::string errorOf(auto&& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(DelimitedFieldsTest, SplitsIntoExactlyTheFieldsAsked) {
  EXPECT_THAT(splitFields<3>("Alice,./home,1000"), ElementsAre("Alice", "./home", "1000"));
  EXPECT_THAT(splitFields<3>(",,"), ElementsAre("", "", ""));
  EXPECT_THAT(splitFields<2>("a;b", ';'), ElementsAre("a", "b"));
  EXPECT_THAT(splitFields<1>("whole line"), ElementsAre("whole line"));
}

TEST(DelimitedFieldsTest, AnotherNumberOfFieldsSaysHowMany) {
  EXPECT_EQ(errorOf([] { splitFields<3>("Alice,./home"); }), "expected 3 ','-separated fields, got 2");
  EXPECT_EQ(errorOf([] { splitFields<3>(""); }), "expected 3 ','-separated fields, got 1");
  EXPECT_EQ(errorOf([] { splitFields<2>("a;b;c;d", ';'); }), "expected 2 ';'-separated fields, got 4");
}

TEST(DelimitedFieldsTest, ParsesNumbersAndText) {
  EXPECT_EQ(parseField<std::int64_t>("1000", "timestamp"), 1000);
  EXPECT_EQ(parseField<int>("-7", "delta"), -7);
  EXPECT_DOUBLE_EQ(parseField<double>("2.5", "price"), 2.5);
  EXPECT_EQ(parseField<std::string>("./home", "url"), "./home");
}

TEST(DelimitedFieldsTest, ABadNumberNamesItsField) {
  EXPECT_EQ(errorOf([] { parseField<std::int64_t>("x", "timestamp"); }), "field 'timestamp': 'x' is not an integer");
  EXPECT_EQ(errorOf([] { parseField<std::int64_t>("12ms", "timestamp"); }),
            "field 'timestamp': '12ms' is not an integer");
  EXPECT_EQ(errorOf([] { parseField<std::int64_t>("", "timestamp"); }), "field 'timestamp': '' is not an integer");
  EXPECT_EQ(errorOf([] { parseField<double>("cheap", "price"); }), "field 'price': 'cheap' is not a number");
  EXPECT_EQ(errorOf([] { parseField<std::int8_t>("300", "level"); }), "field 'level': '300' is out of range");
  EXPECT_EQ(errorOf([] { parseField<unsigned>("-1", "count"); }), "field 'count': '-1' is negative, and the field is unsigned");
}

TEST(DelimitedFieldsTest, ALongBadFieldIsCut) {
  const std::string text(5000, '9');
  EXPECT_EQ(errorOf([&] { parseField<int>(text, "n"); }),
            "field 'n': '" + std::string(100, '9') + "...' (5000 characters) is out of range");
}

}  // namespace
}  // namespace tidemark
