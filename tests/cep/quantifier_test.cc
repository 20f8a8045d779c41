// CEP quantifiers, end to end in simulated event time: oneOrMore, times(n),
// times(from, to) and timesOrMore(n), each with relaxed (default),
// consecutive() and allowCombinations() inner contiguity; optional() on a
// middle and a last pattern and with oneOrMore; greedy(); until();
// iterative conditions reading ctx.getEventsForPattern; group patterns; two
// keys at parallelism 2.
//
// Expected matches follow Flink CEP semantics (docs/semantics.md 6.1). Each match
// is rendered as "name:[ids] name:[ids]" in Match order. Matches completed by
// different events come out in event order; matches completed by the same
// event come out as in Flink (no skip strategy): the earlier start first, and
// for one start in the order its partial matches were created (the branch
// that took an event before the branch that skipped it). expectEmitted checks
// the set of matches and that order separately. Group patterns are compared per
// completing event, unordered.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cep/cep_test_support.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;
using cep_test::Strings;
using cep_test::spec::Emitted;
using cep_test::spec::Ev;
using cep_test::spec::expectEmitted;
using cep_test::spec::is;
using cep_test::spec::run;
using cep_test::spec::runKeyed;

/// "start" = c, then "middle" = a (quantified by the caller), then "end" = b.
template <class Quantify>
Pattern<Ev> cThenAThenB(Quantify quantify, bool middle_any = false) {
  auto start = Pattern<Ev>::begin("start").where(is("c"));
  auto middle = middle_any ? start.followedByAny("middle") : start.followedBy("middle");
  quantify(middle.where(is("a")));
  return middle.followedBy("end").where(is("b"));
}

/// "start" = c, followedBy "middle" = a (quantified by the caller), followedBy "end" = d.
template <class Quantify>
Pattern<Ev> cThenAThenD(Quantify quantify) {
  auto middle = Pattern<Ev>::begin("start").where(is("c")).followedBy("middle");
  quantify(middle.where(is("a")));
  return middle.followedBy("end").where(is("d"));
}

// ---- oneOrMore with the three inner contiguities ----

// d breaks a3 from a4.
constexpr std::string_view kLoopInput = "c d1 a1 a2 a3 d2 a4 b";

TEST(CepQuantifier, OneOrMoreRelaxedSkipsNonMatchingEvents) {
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.oneOrMore(); });
  expectEmitted(run(pattern, kLoopInput),
                Strings{"start:[c] middle:[a1,a2,a3,a4] end:[b]", "start:[c] middle:[a1,a2,a3] end:[b]",
                        "start:[c] middle:[a1,a2] end:[b]", "start:[c] middle:[a1] end:[b]"});
}

TEST(CepQuantifier, OneOrMoreConsecutiveStopsAtANonMatchingEvent) {
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.oneOrMore().consecutive(); });
  expectEmitted(run(pattern, kLoopInput), Strings{"start:[c] middle:[a1,a2,a3] end:[b]",
                                                  "start:[c] middle:[a1,a2] end:[b]", "start:[c] middle:[a1] end:[b]"});
}

TEST(CepQuantifier, OneOrMoreCombinationsSkipsMatchingEventsToo) {
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.oneOrMore().allowCombinations(); });
  // followedBy in front still takes a1 first; the loop may then skip any a.
  expectEmitted(run(pattern, kLoopInput),
                Strings{"start:[c] middle:[a1,a2,a3,a4] end:[b]", "start:[c] middle:[a1,a2,a3] end:[b]",
                        "start:[c] middle:[a1,a2,a4] end:[b]", "start:[c] middle:[a1,a2] end:[b]",
                        "start:[c] middle:[a1,a3,a4] end:[b]", "start:[c] middle:[a1,a3] end:[b]",
                        "start:[c] middle:[a1,a4] end:[b]", "start:[c] middle:[a1] end:[b]"});
}

// ---- times(n) ----

TEST(CepQuantifier, TimesRelaxedTakesTheFirstMatchingEvents) {
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.times(2); });
  expectEmitted(run(pattern, "c a1 x a2 a3 b"), Strings{"start:[c] middle:[a1,a2] end:[b]"});
}

TEST(CepQuantifier, TimesConsecutiveNeedsAdjacentEvents) {
  // followedByAny in front lets the pair start at a2 (a1 is cut off by f2).
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.times(2).consecutive(); }, /*middle_any=*/true);
  expectEmitted(run(pattern, "c f1 a1 f2 a2 a3 b"), Strings{"start:[c] middle:[a2,a3] end:[b]"});
}

TEST(CepQuantifier, TimesCombinationsTakesEveryPair) {
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.times(2).allowCombinations(); }, /*middle_any=*/true);
  expectEmitted(run(pattern, "c f1 a1 f2 a2 a3 b"),
                Strings{"start:[c] middle:[a1,a2] end:[b]", "start:[c] middle:[a1,a3] end:[b]",
                        "start:[c] middle:[a2,a3] end:[b]"});
}

// ---- times(from, to) ----

TEST(CepQuantifier, TimesRangeRelaxed) {
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.times(2, 3); });
  expectEmitted(run(pattern, "c a1 a2 a3 b"),
                Strings{"start:[c] middle:[a1,a2,a3] end:[b]", "start:[c] middle:[a1,a2] end:[b]"});
}

TEST(CepQuantifier, TimesRangeCombinationsAfterNext) {
  auto pattern = Pattern<Ev>::begin("start")
                     .where(is("c"))
                     .next("middle")
                     .where(is("a"))
                     .times(1, 3)
                     .allowCombinations()
                     .followedBy("end")
                     .where(is("b"));
  expectEmitted(run(pattern, "c a1 a2 a3 b"),
                Strings{"start:[c] middle:[a1,a2,a3] end:[b]", "start:[c] middle:[a1,a2] end:[b]",
                        "start:[c] middle:[a1,a3] end:[b]", "start:[c] middle:[a1] end:[b]"});
}

TEST(CepQuantifier, TimesRangeFromZeroConsecutive) {
  // times(0, 3) is times(1, 3) made optional.
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.times(0, 3).consecutive(); }, /*middle_any=*/true);
  expectEmitted(run(pattern, "c f1 a1 f2 a2 a3 b"),
                Strings{"start:[c] middle:[a1] end:[b]", "start:[c] middle:[a2,a3] end:[b]",
                        "start:[c] middle:[a2] end:[b]", "start:[c] middle:[a3] end:[b]", "start:[c] end:[b]"});
}

TEST(CepQuantifier, TimesRangeFromZeroTakesAtMostTo) {
  // times(0, 2): at most two events, never three.
  auto pattern = Pattern<Ev>::begin("start")
                     .where(is("c"))
                     .next("middle")
                     .where(is("a"))
                     .times(0, 2)
                     .allowCombinations()
                     .followedBy("end")
                     .where(is("b"));
  expectEmitted(run(pattern, "c a1 a2 a3 b"),
                Strings{"start:[c] middle:[a1,a2] end:[b]", "start:[c] middle:[a1,a3] end:[b]",
                        "start:[c] middle:[a1] end:[b]", "start:[c] end:[b]"});
}

// ---- timesOrMore(n) ----

TEST(CepQuantifier, TimesOrMoreRelaxed) {
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.timesOrMore(2); }, /*middle_any=*/true);
  expectEmitted(run(pattern, "c f1 a1 f2 a2 a3 b"),
                Strings{"start:[c] middle:[a1,a2,a3] end:[b]", "start:[c] middle:[a1,a2] end:[b]",
                        "start:[c] middle:[a2,a3] end:[b]"});
}

TEST(CepQuantifier, TimesOrMoreConsecutiveOptional) {
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.timesOrMore(2).consecutive().optional(); }, /*middle_any=*/true);
  expectEmitted(run(pattern, "c f1 a1 f2 a2 a3 b"), Strings{"start:[c] middle:[a2,a3] end:[b]", "start:[c] end:[b]"});
}

TEST(CepQuantifier, TimesOrMoreCombinations) {
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.timesOrMore(2).allowCombinations(); });
  expectEmitted(run(pattern, "c a1 a2 a3 b"),
                Strings{"start:[c] middle:[a1,a2,a3] end:[b]", "start:[c] middle:[a1,a2] end:[b]",
                        "start:[c] middle:[a1,a3] end:[b]"});
}

// ---- optional ----

TEST(CepQuantifier, OptionalMiddlePattern) {
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.optional(); });
  Emitted r = run(pattern, "c1 a1 b1 c2 b2");
  expectEmitted(r, Strings{"start:[c1] middle:[a1] end:[b1]", "start:[c1] end:[b1]", "start:[c2] end:[b2]"});
  EXPECT_EQ(r.by_event.size(), 2u);
}

TEST(CepQuantifier, OptionalLastPatternMatchesRightAway) {
  auto pattern = Pattern<Ev>::begin("start").where(is("c")).followedBy("middle").where(is("a")).optional();
  Emitted r = run(pattern, "c1 a1 x c2");
  // Emitted at c1, a1 and c2.
  EXPECT_THAT(r.by_event,
              ElementsAre(ElementsAre("start:[c1]"), ElementsAre("start:[c1] middle:[a1]"), ElementsAre("start:[c2]")));
}

TEST(CepQuantifier, OptionalOneOrMoreInTheMiddle) {
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.oneOrMore().optional(); });
  expectEmitted(run(pattern, "c a1 a2 d a3 b"),
                Strings{"start:[c] middle:[a1,a2,a3] end:[b]", "start:[c] middle:[a1,a2] end:[b]",
                        "start:[c] middle:[a1] end:[b]", "start:[c] end:[b]"});
}

TEST(CepQuantifier, OptionalOneOrMoreAtTheEndMatchesAtEveryStep) {
  auto pattern = Pattern<Ev>::begin("start").where(is("c")).followedBy("middle").where(is("a")).oneOrMore().optional();
  Emitted r = run(pattern, "c a1 a2 a3");
  EXPECT_THAT(r.by_event,
              ElementsAre(ElementsAre("start:[c]"), ElementsAre("start:[c] middle:[a1]"),
                          ElementsAre("start:[c] middle:[a1,a2]"), ElementsAre("start:[c] middle:[a1,a2,a3]")));
}

// ---- greedy ----

TEST(CepQuantifier, GreedyOneOrMoreKeepsOnlyTheLongestRun) {
  constexpr std::string_view input = "c a1 x1 a2 x2 a3 d";
  auto lazy = cThenAThenD([](Pattern<Ev>& p) { p.oneOrMore(); });
  expectEmitted(run(lazy, input), Strings{"start:[c] middle:[a1,a2,a3] end:[d]", "start:[c] middle:[a1,a2] end:[d]",
                                          "start:[c] middle:[a1] end:[d]"});
  auto greedy = cThenAThenD([](Pattern<Ev>& p) { p.oneOrMore().greedy(); });
  expectEmitted(run(greedy, input), Strings{"start:[c] middle:[a1,a2,a3] end:[d]"});
}

TEST(CepQuantifier, GreedyOptionalOneOrMoreBeforeANonMatchingEvent) {
  constexpr std::string_view input = "c a1 a2 x d";
  auto lazy = cThenAThenD([](Pattern<Ev>& p) { p.oneOrMore().optional(); });
  expectEmitted(run(lazy, input),
                Strings{"start:[c] middle:[a1,a2] end:[d]", "start:[c] middle:[a1] end:[d]", "start:[c] end:[d]"});
  auto greedy = cThenAThenD([](Pattern<Ev>& p) { p.oneOrMore().optional().greedy(); });
  expectEmitted(run(greedy, input), Strings{"start:[c] middle:[a1,a2] end:[d]"});
}

TEST(CepQuantifier, GreedyOptionalLoopWithUntil) {
  auto pattern = Pattern<Ev>::begin("start")
                     .where(is("c"))
                     .followedBy("middle")
                     .where(is("a"))
                     .oneOrMore()
                     .optional()
                     .greedy()
                     .until([](const Ev& e) { return e.price > 3.0; })
                     .followedBy("end")
                     .where(is("d"));
  // a4 stops the loop; it is neither taken nor an end.
  expectEmitted(run(pattern, "c a1:2 a2:3 a3:3 a4:4 d"), Strings{"start:[c] middle:[a1,a2,a3] end:[d]"});
  // Stopped before it started: the later a's cannot start it any more.
  expectEmitted(run(pattern, "c a0:4 a1:2 a2:3 a3:3 d"), Strings{"start:[c] end:[d]"});
}

TEST(CepQuantifier, GreedyTimesRange) {
  constexpr std::string_view input = "c a1 a2 a3 a4 d";
  auto lazy = cThenAThenD([](Pattern<Ev>& p) { p.times(2, 5); });
  expectEmitted(run(lazy, input), Strings{"start:[c] middle:[a1,a2,a3,a4] end:[d]",
                                          "start:[c] middle:[a1,a2,a3] end:[d]", "start:[c] middle:[a1,a2] end:[d]"});
  auto greedy = cThenAThenD([](Pattern<Ev>& p) { p.times(2, 5).greedy(); });
  expectEmitted(run(greedy, input), Strings{"start:[c] middle:[a1,a2,a3,a4] end:[d]"});
}

TEST(CepQuantifier, GreedyTimesRangeAtTheEndMatchesAtEveryStepFromTheMinimum) {
  auto pattern = Pattern<Ev>::begin("start").where(is("c")).followedBy("middle").where(is("a")).times(2, 5).greedy();
  Emitted r = run(pattern, "c a1 a2 a3 a4 x");
  EXPECT_THAT(r.by_event,
              ElementsAre(ElementsAre("start:[c] middle:[a1,a2]"), ElementsAre("start:[c] middle:[a1,a2,a3]"),
                          ElementsAre("start:[c] middle:[a1,a2,a3,a4]")));
}

// ---- until ----

/// c, then a's until one priced 5 (not taken by the loop), then that event as "end".
template <class Quantify>
Pattern<Ev> untilPriceFive(Quantify quantify) {
  auto price_five = [](const Ev& e) { return e.price == 5.0; };
  auto middle = Pattern<Ev>::begin("start").where(is("c")).followedBy("middle").where(is("a"));
  quantify(middle.oneOrMore());
  middle.until(price_five);
  return middle.followedBy("end").where(price_five);
}

TEST(CepQuantifier, UntilStopsARelaxedLoop) {
  auto pattern = untilPriceFive([](Pattern<Ev>&) {});
  // a4 (after the stop) joins nothing.
  expectEmitted(run(pattern, "c a1:2 a2:3 a3:5 a4:6"),
                Strings{"start:[c] middle:[a1,a2] end:[a3]", "start:[c] middle:[a1] end:[a3]"});
}

TEST(CepQuantifier, UntilWithAConsecutiveLoop) {
  auto pattern = untilPriceFive([](Pattern<Ev>& p) { p.consecutive(); });
  // b1 breaks the loop after a1; a2 cannot be taken any more.
  expectEmitted(run(pattern, "c a1:2 b1:3 a2:4 a3:5 a4:6"), Strings{"start:[c] middle:[a1] end:[a3]"});
}

TEST(CepQuantifier, UntilWithACombinationsLoop) {
  auto pattern = untilPriceFive([](Pattern<Ev>& p) { p.allowCombinations(); });
  expectEmitted(run(pattern, "c a1:2 a2:3 a3:4 a4:5 a5:6"),
                Strings{"start:[c] middle:[a1,a2,a3] end:[a4]", "start:[c] middle:[a1,a2] end:[a4]",
                        "start:[c] middle:[a1,a3] end:[a4]", "start:[c] middle:[a1] end:[a4]"});
}

// ---- iterative conditions ----

double priceSum(const std::vector<Ev>& events) {
  double sum = 0;
  for (const Ev& e : events) sum += e.price;
  return sum;
}

/// "middle" takes an m only while the prices taken so far plus its own stay below 5.
Pattern<Ev> budgetPattern(bool combinations) {
  auto middle = Pattern<Ev>::begin("start").where(is("s")).followedBy("middle").where(
      [](const Ev& e, IterativeCondition<Ev>::Context& ctx) {
        return e.kind == "m" && priceSum(ctx.getEventsForPattern("middle")) + e.price < 5.0;
      });
  middle.oneOrMore();
  if (combinations) middle.allowCombinations();
  return middle.followedBy("end").where(is("e"));
}

constexpr std::string_view kBudgetInput = "s1:1 m1:1 m2:2 s2:2 m3:3 m4:1 n1 e1";

TEST(CepQuantifier, IterativeConditionSumsTheEventsTakenSoFar) {
  // m3 would bring s1's sum to 6, so the loop skips it and takes m4 (sum 4).
  expectEmitted(run(budgetPattern(false), kBudgetInput),
                Strings{"start:[s1] middle:[m1,m2,m4] end:[e1]", "start:[s1] middle:[m1,m2] end:[e1]",
                        "start:[s1] middle:[m1] end:[e1]", "start:[s2] middle:[m3,m4] end:[e1]",
                        "start:[s2] middle:[m3] end:[e1]"});
}

TEST(CepQuantifier, IterativeConditionSeesEachBranchOwnEvents) {
  // With combinations each branch sums its own events: s1,m1 may add m3 (4) or m4 (2).
  expectEmitted(run(budgetPattern(true), kBudgetInput),
                Strings{"start:[s1] middle:[m1,m2,m4] end:[e1]", "start:[s1] middle:[m1,m2] end:[e1]",
                        "start:[s1] middle:[m1,m3] end:[e1]", "start:[s1] middle:[m1,m4] end:[e1]",
                        "start:[s1] middle:[m1] end:[e1]", "start:[s2] middle:[m3,m4] end:[e1]",
                        "start:[s2] middle:[m3] end:[e1]"});
}

/// A loop at the start whose condition reads its own events: prices below 5 in total.
Pattern<Ev> startingBudgetPattern(bool combinations) {
  auto start = Pattern<Ev>::begin("start").where([](const Ev& e, IterativeCondition<Ev>::Context& ctx) {
    return e.kind == "s" && priceSum(ctx.getEventsForPattern("start")) + e.price < 5.0;
  });
  start.oneOrMore();
  if (combinations) start.allowCombinations();
  start.optional();
  return start.followedBy("end").where(is("e"));
}

TEST(CepQuantifier, IterativeConditionOnAnOptionalLoopAtTheStart) {
  expectEmitted(run(startingBudgetPattern(false), "s1:1 s2:2 s3:3 e1"),
                Strings{"start:[s1,s2] end:[e1]", "start:[s1] end:[e1]", "start:[s2] end:[e1]", "start:[s3] end:[e1]",
                        "end:[e1]"});
  expectEmitted(run(startingBudgetPattern(true), "s1:1 s2:2 s3:3 e1"),
                Strings{"start:[s1,s2] end:[e1]", "start:[s1,s3] end:[e1]", "start:[s1] end:[e1]",
                        "start:[s2] end:[e1]", "start:[s3] end:[e1]", "end:[e1]"});
}

TEST(CepQuantifier, IterativeConditionReadsAnEarlierPattern) {
  auto pattern = Pattern<Ev>::begin("start").where(is("s")).oneOrMore().followedBy("end").where(
      [](const Ev& e, IterativeCondition<Ev>::Context& ctx) {
        return e.kind == "e" && priceSum(ctx.getEventsForPattern("start")) >= 2.0;
      });
  // s1 alone sums to 1: too little.
  expectEmitted(run(pattern, "s1:1 s2:2 e1"), Strings{"start:[s1,s2] end:[e1]", "start:[s2] end:[e1]"});
}

// ---- group patterns ----

/// (a followedBy b) as one step.
Pattern<Ev> abGroup() { return Pattern<Ev>::begin("ga").where(is("a")).followedBy("gb").where(is("b")); }

TEST(CepQuantifier, GroupTimes) {
  auto pattern =
      Pattern<Ev>::begin("start").where(is("c")).followedBy(abGroup()).times(2).followedBy("end").where(is("d"));
  expectEmitted(run(pattern, "c a1 b1 a2 b2 d"), Strings{"start:[c] ga:[a1,a2] gb:[b1,b2] end:[d]"});
}

TEST(CepQuantifier, GroupOneOrMore) {
  auto pattern =
      Pattern<Ev>::begin("start").where(is("c")).followedBy(abGroup()).oneOrMore().followedBy("end").where(is("d"));
  Emitted r = run(pattern, "c a1 b1 a2 b2 d");
  EXPECT_THAT(r.by_event, ElementsAre(UnorderedElementsAre("start:[c] ga:[a1] gb:[b1] end:[d]",
                                                           "start:[c] ga:[a1,a2] gb:[b1,b2] end:[d]")));
}

TEST(CepQuantifier, GroupTimesCombinationsAfterFollowedByAny) {
  auto pattern = Pattern<Ev>::begin("start")
                     .where(is("c"))
                     .followedByAny(abGroup())
                     .times(2)
                     .allowCombinations()
                     .followedBy("end")
                     .where(is("d"));
  Emitted r = run(pattern, "c a1 b1 a2 b2 a3 b3 d");
  EXPECT_THAT(r.by_event, ElementsAre(UnorderedElementsAre("start:[c] ga:[a1,a2] gb:[b1,b2] end:[d]",
                                                           "start:[c] ga:[a1,a3] gb:[b1,b3] end:[d]",
                                                           "start:[c] ga:[a2,a3] gb:[b2,b3] end:[d]")));
}

TEST(CepQuantifier, GroupAtTheBeginningWithARange) {
  auto pattern = Pattern<Ev>::begin(abGroup()).times(1, 2).followedBy("end").where(is("d"));
  Emitted r = run(pattern, "a1 b1 a2 b2 d");
  EXPECT_THAT(r.by_event, ElementsAre(UnorderedElementsAre("ga:[a1] gb:[b1] end:[d]", "ga:[a1,a2] gb:[b1,b2] end:[d]",
                                                           "ga:[a2] gb:[b2] end:[d]")));
}

TEST(CepQuantifier, GroupOfStrictPairsTwiceAtTheBeginning) {
  auto pair = Pattern<Ev>::begin("x").where(is("x")).next("y").where(is("y"));
  auto pattern = Pattern<Ev>::begin(pair).times(2);
  // Each x starts its own run: two pairs, the second the first one after it.
  expectEmitted(run(pattern, "x1 y1 x2 y2 x3 y3"), Strings{"x:[x1,x2] y:[y1,y2]", "x:[x2,x3] y:[y2,y3]"});
}

// ---- keys ----

TEST(CepQuantifier, LoopsOfTwoKeysAreIndependentAtParallelismTwo) {
  // Per key: key 1 sees c1 a1 a3 b1 (back to back), key 2 sees c2 a2 x a4 b2.
  auto pattern = cThenAThenB([](Pattern<Ev>& p) { p.oneOrMore().consecutive(); });
  auto per_key = runKeyed(pattern, "1/c1 2/c2 1/a1 2/a2 1/a3 2/x 2/a4 1/b1 2/b2");
  EXPECT_EQ(per_key,
            (std::map<int, Strings>{{1, {"start:[c1] middle:[a1,a3] end:[b1]", "start:[c1] middle:[a1] end:[b1]"}},
                                    {2, {"start:[c2] middle:[a2] end:[b2]"}}}));
}

}  // namespace
}  // namespace tidemark
