// CEP contiguity, end to end in simulated event time: next / followedBy /
// followedByAny between single patterns, the contiguity in front of and
// inside a looping pattern, next after an optional loop, where / or_
// conditions, subtype<U>() on a std::variant event, a next(group) and two
// keys at parallelism 2.
//
// Expected matches follow Flink CEP semantics (docs/semantics.md 6.1). Each match
// is rendered as "name:[ids] name:[ids]" in Match order. Matches completed by
// different events come out in event order; matches completed by the same
// event come out as in Flink (no skip strategy): the earlier start first, and
// for one start in the order its partial matches were created (the branch
// that took an event before the branch that skipped it). expectEmitted checks
// the set of matches and that order separately. Where the order is not asserted,
// the test compares per completing event, unordered.
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cep/cep_test_support.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;
using cep_test::Strings;
using cep_test::spec::Emitted;
using cep_test::spec::Ev;
using cep_test::spec::expectEmitted;
using cep_test::spec::is;
using cep_test::spec::run;
using cep_test::spec::runKeyed;
using cep_test::spec::runPattern;

// ---- contiguity between two single patterns ----

// Input shared by the three tests below: a1 is followed by a non-matching x,
// a2 directly by b1.
constexpr std::string_view kPairs = "a1 x a2 b1 b2 a3 b3";

TEST(CepContiguity, NextTakesOnlyTheImmediatelyFollowingEvent) {
  auto pattern = Pattern<Ev>::begin("a").where(is("a")).next("b").where(is("b"));
  Emitted r = run(pattern, kPairs);
  expectEmitted(r, Strings{"a:[a2] b:[b1]", "a:[a3] b:[b3]"});
}

TEST(CepContiguity, FollowedBySkipsNonMatchingEventsAndTakesTheFirstMatch) {
  auto pattern = Pattern<Ev>::begin("a").where(is("a")).followedBy("b").where(is("b"));
  Emitted r = run(pattern, kPairs);
  // a1 skips x and a2; b1 completes a1 and a2 (a1 started first); neither
  // goes on to b2.
  expectEmitted(r, Strings{"a:[a1] b:[b1]", "a:[a2] b:[b1]", "a:[a3] b:[b3]"});
  EXPECT_THAT(r.by_event, ElementsAre(ElementsAre("a:[a1] b:[b1]", "a:[a2] b:[b1]"), ElementsAre("a:[a3] b:[b3]")));
}

TEST(CepContiguity, FollowedByAnyAlsoSkipsMatchingEvents) {
  auto pattern = Pattern<Ev>::begin("a").where(is("a")).followedByAny("b").where(is("b"));
  Emitted r = run(pattern, kPairs);
  EXPECT_THAT(r.by_event,
              ElementsAre(ElementsAre("a:[a1] b:[b1]", "a:[a2] b:[b1]"), ElementsAre("a:[a1] b:[b2]", "a:[a2] b:[b2]"),
                          ElementsAre("a:[a1] b:[b3]", "a:[a2] b:[b3]", "a:[a3] b:[b3]")));
}

TEST(CepContiguity, TwoEventPatternOverTheDocumentationInput) {
  // "a b" over a, c, b1, b2: strict finds nothing, relaxed {a b1},
  // non-deterministic relaxed {a b1} and {a b2}.
  constexpr std::string_view input = "a c b1 b2";
  auto strict = Pattern<Ev>::begin("a").where(is("a")).next("b").where(is("b"));
  auto relaxed = Pattern<Ev>::begin("a").where(is("a")).followedBy("b").where(is("b"));
  auto any = Pattern<Ev>::begin("a").where(is("a")).followedByAny("b").where(is("b"));
  EXPECT_THAT(run(strict, input).matches, IsEmpty());
  expectEmitted(run(relaxed, input), Strings{"a:[a] b:[b1]"});
  expectEmitted(run(any, input), Strings{"a:[a] b:[b1]", "a:[a] b:[b2]"});
}

TEST(CepContiguity, ThreeFollowedByAnyStepsOverSubtypesOfAVariant) {
  // Reading and Sample alternatives; only Samples may be "first"/"second".
  struct Reading {
    std::string id;
    std::string name;
    Timestamp ts = 0;
  };
  struct Sample {
    std::string id;
    std::string name;
    double volume = 0;
    Timestamp ts = 0;
  };
  using Signal = std::variant<Reading, Sample>;
  auto reading_named = [](std::string name) {
    return [name](const Signal& s) {
      const auto* r = std::get_if<Reading>(&s);
      return r != nullptr && r->name == name;
    };
  };
  // Name tests that do not look at the alternative: only subtype<Sample>() keeps Readings out.
  auto named = [](std::string name) {
    return [name](const Signal& s) { return std::visit([&](const auto& v) { return v.name == name; }, s); };
  };
  // Readings f and r carry the Samples' names.
  std::vector<Signal> input{
      Reading{"s", "start", 10},         Reading{"f", "foo", 15},           Sample{"m1", "foo", 10.0, 20},
      Sample{"m2", "foo", 10.0, 30},     Reading{"r", "next-one", 35},      Sample{"m3", "foo", 10.0, 40},
      Sample{"n1", "next-one", 2.0, 50}, Sample{"n2", "next-one", 2.0, 60}, Reading{"e", "end", 70}};
  auto ts_of = [](const Signal& s) { return std::visit([](const auto& v) { return v.ts; }, s); };
  auto id_of = [](const Signal& s) { return std::visit([](const auto& v) { return v.id; }, s); };

  auto all_any = Pattern<Signal>::begin("start")
                     .where(reading_named("start"))
                     .followedByAny("first")
                     .subtype<Sample>()
                     .where(named("foo"))
                     .followedByAny("second")
                     .subtype<Sample>()
                     .where(named("next-one"))
                     .followedByAny("end")
                     .where(reading_named("end"));
  Emitted r = runPattern(all_any, input, ts_of, id_of);
  expectEmitted(r, Strings{"start:[s] first:[m1] second:[n1] end:[e]", "start:[s] first:[m1] second:[n2] end:[e]",
                           "start:[s] first:[m2] second:[n1] end:[e]", "start:[s] first:[m2] second:[n2] end:[e]",
                           "start:[s] first:[m3] second:[n1] end:[e]", "start:[s] first:[m3] second:[n2] end:[e]"});

  // With followedBy in front of "second", each branch takes only n1.
  auto mixed = Pattern<Signal>::begin("start")
                   .where(reading_named("start"))
                   .followedByAny("first")
                   .subtype<Sample>()
                   .where(named("foo"))
                   .followedBy("second")
                   .subtype<Sample>()
                   .where(named("next-one"))
                   .followedByAny("end")
                   .where(reading_named("end"));
  r = runPattern(mixed, input, ts_of, id_of);
  expectEmitted(r, Strings{"start:[s] first:[m1] second:[n1] end:[e]", "start:[s] first:[m2] second:[n1] end:[e]",
                           "start:[s] first:[m3] second:[n1] end:[e]"});
}

// ---- conditions ----

TEST(CepContiguity, OrConditionWidensAndLaterWhereNarrows) {
  // where(a).or_(b).where(price > 5) is (a or b) and price > 5.
  auto single = Pattern<Ev>::begin("p").where(is("a")).or_(is("b")).where([](const Ev& e) { return e.price > 5; });
  expectEmitted(run(single, "a1:3 b1:7 a2:9 c1:8 b2:5"), Strings{"p:[b1]", "p:[a2]"});

  auto pair = Pattern<Ev>::begin("a").where(is("a")).next("bc").where(is("b")).or_(is("c"));
  expectEmitted(run(pair, "a1 b1 a2 c1 a3 d1 c2"), Strings{"a:[a1] bc:[b1]", "a:[a2] bc:[c1]"});
}

// ---- the contiguity in front of a looping pattern ----

// x sits between a1 and the first b.
constexpr std::string_view kBeforeLoop = "a1 x b1 b2 c1";

TEST(CepContiguity, NextInFrontOfALoopNeedsTheLoopToStartRightAway) {
  auto pattern =
      Pattern<Ev>::begin("a").where(is("a")).next("b").where(is("b")).oneOrMore().followedBy("c").where(is("c"));
  EXPECT_THAT(run(pattern, kBeforeLoop).matches, IsEmpty());
}

TEST(CepContiguity, FollowedByInFrontOfALoopStartsItAtTheFirstMatch) {
  auto pattern =
      Pattern<Ev>::begin("a").where(is("a")).followedBy("b").where(is("b")).oneOrMore().followedBy("c").where(is("c"));
  expectEmitted(run(pattern, kBeforeLoop), Strings{"a:[a1] b:[b1,b2] c:[c1]", "a:[a1] b:[b1] c:[c1]"});
}

TEST(CepContiguity, FollowedByAnyInFrontOfALoopMayStartItLater) {
  auto pattern =
      Pattern<Ev>::begin("a").where(is("a")).followedByAny("b").where(is("b")).oneOrMore().followedBy("c").where(
          is("c"));
  expectEmitted(run(pattern, kBeforeLoop),
                Strings{"a:[a1] b:[b1,b2] c:[c1]", "a:[a1] b:[b1] c:[c1]", "a:[a1] b:[b2] c:[c1]"});
}

// ---- the contiguity inside a looping pattern ("a+ b" over a1 c a2 a3 b) ----

constexpr std::string_view kInsideLoop = "a1 c a2 a3 b";

TEST(CepContiguity, ConsecutiveLoopIsBrokenByANonMatchingEvent) {
  auto pattern = Pattern<Ev>::begin("a").where(is("a")).oneOrMore().consecutive().followedBy("b").where(is("b"));
  // c ends a1's loop (its followedBy "b" branch survives); a2 and a3 start loops of their own.
  expectEmitted(run(pattern, kInsideLoop), Strings{"a:[a1] b:[b]", "a:[a2,a3] b:[b]", "a:[a2] b:[b]", "a:[a3] b:[b]"});
}

TEST(CepContiguity, RelaxedLoopSkipsNonMatchingEventsOnly) {
  auto pattern = Pattern<Ev>::begin("a").where(is("a")).oneOrMore().followedBy("b").where(is("b"));
  expectEmitted(run(pattern, kInsideLoop), Strings{"a:[a1,a2,a3] b:[b]", "a:[a1,a2] b:[b]", "a:[a1] b:[b]",
                                                   "a:[a2,a3] b:[b]", "a:[a2] b:[b]", "a:[a3] b:[b]"});
}

TEST(CepContiguity, CombinationsLoopMaySkipMatchingEvents) {
  auto pattern = Pattern<Ev>::begin("a").where(is("a")).oneOrMore().allowCombinations().followedBy("b").where(is("b"));
  // Adds a1,a3 (a2 skipped) to the relaxed result.
  expectEmitted(run(pattern, kInsideLoop), Strings{"a:[a1,a2,a3] b:[b]", "a:[a1,a2] b:[b]", "a:[a1,a3] b:[b]",
                                                   "a:[a1] b:[b]", "a:[a2,a3] b:[b]", "a:[a2] b:[b]", "a:[a3] b:[b]"});
}

// ---- next after an optional loop ----

TEST(CepContiguity, NextAfterAnOptionalLoopNeedsTheLoopsLastEventRightBefore) {
  auto combinations = Pattern<Ev>::begin("d")
                          .where(is("d"))
                          .followedByAny("a")
                          .where(is("a"))
                          .oneOrMore()
                          .optional()
                          .allowCombinations()
                          .next("b")
                          .where(is("b"));
  // a1,b is not a match: a2 sits between them.
  expectEmitted(run(combinations, "d a1 a2 b"), Strings{"d:[d] a:[a1,a2] b:[b]", "d:[d] a:[a2] b:[b]"});

  auto relaxed =
      Pattern<Ev>::begin("d").where(is("d")).followedBy("a").where(is("a")).oneOrMore().optional().next("b").where(
          is("b"));
  EXPECT_THAT(run(relaxed, "d a1 a2 c b").matches, IsEmpty());
}

// ---- a group after next ----

TEST(CepContiguity, NextGroupZeroOrMoreConsecutive) {
  // c, then (a followedBy b) zero or more times, the first right after c and
  // the repetitions back to back; then d.
  auto group = Pattern<Ev>::begin("ga").where(is("a")).followedBy("gb").where(is("b"));
  auto pattern =
      Pattern<Ev>::begin("c").where(is("c")).next(group).oneOrMore().optional().consecutive().followedBy("d").where(
          is("d"));
  Emitted r = run(pattern, "c a1 b1 a2 b2 a3 b3 d");
  EXPECT_THAT(r.by_event, ElementsAre(UnorderedElementsAre("c:[c] d:[d]", "c:[c] ga:[a1] gb:[b1] d:[d]",
                                                           "c:[c] ga:[a1,a2] gb:[b1,b2] d:[d]",
                                                           "c:[c] ga:[a1,a2,a3] gb:[b1,b2,b3] d:[d]")));
}

// ---- keys ----

TEST(CepContiguity, KeysAreMatchedIndependentlyAtParallelismTwo) {
  // Interleaved, a1 b1 and a2 b2 would be back to back; per key they are not:
  // key 1 sees a1 b2 x, key 2 sees b1 a2 b3.
  auto pattern = Pattern<Ev>::begin("a").where(is("a")).next("b").where(is("b"));
  auto per_key = runKeyed(pattern, "1/a1 2/b1 2/a2 1/b2 1/x 2/b3");
  EXPECT_EQ(per_key, (std::map<int, Strings>{{1, {"a:[a1] b:[b2]"}}, {2, {"a:[a2] b:[b3]"}}}));

  auto any = Pattern<Ev>::begin("a").where(is("a")).followedByAny("b").where(is("b"));
  per_key = runKeyed(any, "1/a1 2/a2 1/b1 2/b2 1/b3 2/a3 2/b4");
  EXPECT_EQ(per_key, (std::map<int, Strings>{{1, {"a:[a1] b:[b1]", "a:[a1] b:[b3]"}},
                                             {2, {"a:[a2] b:[b2]", "a:[a2] b:[b4]", "a:[a3] b:[b4]"}}}));
}

}  // namespace
}  // namespace tidemark
