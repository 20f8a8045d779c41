// describe / describeElement: how values read in print sinks and in errors.
#include "tidemark/core/describe.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>

namespace tidemark {
namespace {

struct Unprintable {};

TEST(DescribeTest, PrintableValuesUseTheirOperator) {
  EXPECT_EQ(describe(42), "42");
  EXPECT_EQ(describe(std::string("Alice")), "Alice");
  EXPECT_EQ(describe(std::pair<std::string, int>("a", 1)), "(a,1)");
}

TEST(DescribeTest, TuplesPrintTheirFieldsAsFlinkPrintsTuples) {
  EXPECT_EQ(describe(std::tuple<std::string, int, double>("a", 1, 2.5)), "(a,1,2.5)");
  EXPECT_EQ(describe(std::tuple<>()), "()");
}

TEST(DescribeTest, DescribableSaysWhetherTheTextIsTheValues) {
  static_assert(Describable<int>);
  static_assert(Describable<std::pair<std::string, std::tuple<int, long>>>);
  static_assert(!Describable<Unprintable>);
  static_assert(!Describable<std::pair<int, Unprintable>>);
  static_assert(!Describable<std::tuple<int, Unprintable>>);
}

TEST(DescribeTest, UnprintableValuesAreNamedByType) {
  EXPECT_EQ(describe(Unprintable{}), "<tidemark::(anonymous namespace)::Unprintable>");
}

TEST(DescribeElementTest, ElementsAreQuoted) {
  EXPECT_EQ(describeElement(std::string("Alice,./home,1000")), "element 'Alice,./home,1000'");
  EXPECT_EQ(describeElement(7), "element '7'");
}

TEST(DescribeElementTest, AnEmptyLineStillReadsAsOne) { EXPECT_EQ(describeElement(std::string()), "element ''"); }

TEST(DescribeElementTest, AHugeElementIsCutAndItsSizeGiven) {
  const std::string huge(20 * 1024 * 1024, 'x');
  const std::string text = describeElement(huge);
  EXPECT_EQ(text, "element '" + std::string(internal::kDescribedElementChars, 'x') +
                      "...' (20971520 characters, the first 200 shown)");
}

TEST(DescribeElementTest, AnElementOfExactlyTheLimitIsNotCut) {
  const std::string limit(internal::kDescribedElementChars, 'y');
  EXPECT_EQ(describeElement(limit), "element '" + limit + "'");
}

}  // namespace
}  // namespace tidemark
