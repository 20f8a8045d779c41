// Malformed patterns (docs/semantics.md 6.1): what Flink CEP refuses is refused
// with a MalformedPatternException whose message says why, either while the
// pattern is built (quantifiers, until, not-patterns after optional ones) or
// when it is compiled by CEP::pattern (unique names, the skip strategy's
// pattern name, a trailing notFollowedBy without within).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "cep/cep_test_support.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using cep_test::named::Ev;
using cep_test::named::keyOf;

bool isA(const Ev& e) { return e.name == "a"; }
bool isB(const Ev& e) { return e.name == "b"; }

/// The message CEP::pattern throws for `pattern` ("" when it compiles).
std::string compileError(const Pattern<Ev>& pattern) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto keyed = env.fromElements<Ev>({}).keyBy(keyOf);
  try {
    CEP::pattern(keyed, pattern);
  } catch (const MalformedPatternException& e) {
    return e.what();
  }
  return "";
}

/// The message building a pattern throws ("" when it does not).
template <class Build>
std::string buildError(Build build) {
  try {
    build();
  } catch (const MalformedPatternException& e) {
    return e.what();
  }
  return "";
}

// ---- at compile time ----

TEST(PatternValidation, DuplicatePatternNames) {
  auto pattern = Pattern<Ev>::begin("a").where(isA).followedBy("b").where(isB).next("a").where(isA);
  EXPECT_THAT(compileError(pattern), HasSubstr("duplicate pattern name 'a': pattern names must be unique"));
}

TEST(PatternValidation, DuplicateNameInsideAGroupPattern) {
  auto group = Pattern<Ev>::begin("x").where(isA).next("y").where(isB);
  auto pattern = Pattern<Ev>::begin("y").where(isB).followedBy(group);
  EXPECT_THAT(compileError(pattern), HasSubstr("duplicate pattern name 'y'"));
}

TEST(PatternValidation, SkipStrategyNamingAnUnknownPattern) {
  auto pattern = Pattern<Ev>::begin("a", AfterMatchSkipStrategy::skipToFirst("c")).where(isA).next("b").where(isB);
  EXPECT_THAT(compileError(pattern),
              HasSubstr("the after-match skip strategy SkipToFirst(c) names a pattern that does not exist: 'c'"));
  auto last = Pattern<Ev>::begin("a", AfterMatchSkipStrategy::skipToLast("zzz")).where(isA).next("b").where(isB);
  EXPECT_THAT(compileError(last), HasSubstr("SkipToLast(zzz) names a pattern that does not exist"));
}

TEST(PatternValidation, SkipStrategyNamingAnExistingPatternCompiles) {
  auto pattern = Pattern<Ev>::begin("a", AfterMatchSkipStrategy::skipToLast("b")).where(isA).next("b").where(isB);
  EXPECT_THAT(compileError(pattern), IsEmpty());
}

TEST(PatternValidation, TrailingNotFollowedByNeedsWithin) {
  auto pattern = Pattern<Ev>::begin("a").where(isA).notFollowedBy("b").where(isB);
  const std::string error = compileError(pattern);
  EXPECT_THAT(error, HasSubstr("notFollowedBy('b') ends the pattern, which needs within()"));
  auto with_window = Pattern<Ev>::begin("a").where(isA).notFollowedBy("b").where(isB).within(100);
  EXPECT_THAT(compileError(with_window), IsEmpty());
}

TEST(PatternValidation, NotFollowedByInTheMiddleNeedsNoWithin) {
  auto pattern = Pattern<Ev>::begin("a").where(isA).notFollowedBy("b").where(isB).followedBy("c").where(isA);
  EXPECT_THAT(compileError(pattern), IsEmpty());
}

// ---- while building ----

TEST(PatternValidation, AQuantifierCannotBeAppliedTwice) {
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).oneOrMore().times(2); }),
              HasSubstr("pattern 'a': times() cannot be applied, a quantifier was already applied"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).times(2).oneOrMore(); }),
              HasSubstr("pattern 'a': oneOrMore() cannot be applied, a quantifier was already applied"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).times(2).timesOrMore(3); }),
              HasSubstr("timesOrMore() cannot be applied"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).optional().optional(); }),
              HasSubstr("optional() was already applied"));
}

TEST(PatternValidation, TimesNeedsAPositiveCount) {
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).times(0); }),
              HasSubstr("times: n must be positive, got 0"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).times(-2); }),
              HasSubstr("times: n must be positive, got -2"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).timesOrMore(0); }),
              HasSubstr("timesOrMore: n must be positive, got 0"));
}

TEST(PatternValidation, TimesRangeMustBeOrdered) {
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).times(3, 1); }),
              HasSubstr("times: 'to' (1) must be >= 'from' (3)"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).times(-1, 2); }),
              HasSubstr("times: 'from' must be >= 0, got -1"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).times(0, 0); }),
              HasSubstr("'from' and 'to' must not both be 0"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).times(0, 2); }), IsEmpty());
}

TEST(PatternValidation, GreedyNeedsALoopingOrTimesPattern) {
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).greedy(); }),
              HasSubstr("greedy() applies only to looping and times patterns"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).oneOrMore().allowCombinations().greedy(); }),
              HasSubstr("greedy() does not apply to a pattern with allowCombinations()"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).oneOrMore().greedy(); }), IsEmpty());
}

TEST(PatternValidation, ConsecutiveAndAllowCombinationsNeedALoopingOrTimesPattern) {
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).consecutive(); }),
              HasSubstr("consecutive() applies only to looping and times patterns"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).allowCombinations(); }),
              HasSubstr("allowCombinations() applies only to looping and times patterns"));
}

TEST(PatternValidation, UntilNeedsALoopingPattern) {
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).until(isB); }),
              HasSubstr("pattern 'a': until() applies only to looping patterns"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).times(2).until(isB); }),
              HasSubstr("until() applies only to looping patterns"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).oneOrMore().until(isB).until(isB); }),
              HasSubstr("until() was already set"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).oneOrMore().until(isB); }), IsEmpty());
}

TEST(PatternValidation, NotPatternsCannotFollowAnOptionalPattern) {
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).optional().notNext("b"); }),
              HasSubstr("notNext() cannot follow the optional pattern 'a'"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).oneOrMore().optional().notFollowedBy("b"); }),
              HasSubstr("notFollowedBy() cannot follow the optional pattern 'a'"));
}

TEST(PatternValidation, NotPatternsTakeNoQuantifier) {
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).notNext("b").where(isB).oneOrMore(); }),
              HasSubstr("pattern 'b': oneOrMore() does not apply to a notNext/notFollowedBy pattern"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).notFollowedBy("b").where(isB).times(2); }),
              HasSubstr("times() does not apply to a notNext/notFollowedBy pattern"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).notNext("b").where(isB).optional(); }),
              HasSubstr("a notNext/notFollowedBy pattern cannot be optional"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").where(isA).notNext("b").where(isB).greedy(); }),
              HasSubstr("greedy() does not apply to a notNext/notFollowedBy pattern"));
}

TEST(PatternValidation, AnOptionalPatternCannotFollowAGreedyOne) {
  EXPECT_THAT(
      buildError([] { Pattern<Ev>::begin("a").where(isA).oneOrMore().greedy().followedBy("b").where(isB).optional(); }),
      HasSubstr("pattern 'b': an optional pattern cannot follow a greedy one"));
}

TEST(PatternValidation, PatternNames) {
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin(""); }), HasSubstr("a pattern name must not be empty"));
  EXPECT_THAT(buildError([] { Pattern<Ev>::begin("a").next("b:c"); }),
              HasSubstr("pattern name 'b:c' must not contain ':'"));
}

TEST(PatternValidation, MalformedPatternExceptionIsAnInvalidArgument) {
  try {
    Pattern<Ev>::begin("a").where(isA).times(0);
    ADD_FAILURE() << "times(0) was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(dynamic_cast<const MalformedPatternException*>(&e), nullptr);
  }
}

}  // namespace
}  // namespace tidemark
