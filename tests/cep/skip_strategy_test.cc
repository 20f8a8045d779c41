// AfterMatchSkipStrategy through the CEP operator (docs/semantics.md 6.4): which
// matches come out, in emission order, for noSkip, skipToNext,
// skipPastLastEvent, skipToFirst(name), skipToLast(name), and the failure of
// throwExceptionOnMiss(), with Flink CEP's semantics. Matches are listed in
// emission order (with a skip strategy a match waits until no partial match
// that started earlier is alive).
//
// Events are fed through a keyed operator harness, one key, timestamps 1, 2,
// ... in input order, then a final watermark.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "cep/cep_test_support.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using cep_test::named::Ev;
using cep_test::named::keyOf;
using cep_test::named::MatchesAndTimeouts;
using cep_test::named::runThrough;
using cep_test::named::sequence;

auto contains(char c) {
  return [c](const Ev& e) { return e.name.find(c) != std::string::npos; };
}

/// The harness lines ("Record(match @ ts)", "Watermark(w)") of running `pattern` over `events`.
std::vector<std::string> runLines(const Pattern<Ev>& pattern, const std::vector<Ev>& events) {
  return runThrough(pattern, events)->getOutput().lines();
}

/// Only the matches, in emission order.
std::vector<std::string> run(const Pattern<Ev>& pattern, const std::vector<Ev>& events) {
  return runThrough(pattern, events)->extractOutputValues();
}

// ---- a{3} over six a's ----

Pattern<Ev> threeAs(AfterMatchSkipStrategy skip) {
  return Pattern<Ev>::begin("start", std::move(skip)).where(contains('a')).times(3);
}

TEST(SkipStrategy, NoSkipKeepsEveryOverlappingMatch) {
  EXPECT_THAT(run(threeAs(AfterMatchSkipStrategy::noSkip()), sequence({"a1", "a2", "a3", "a4", "a5", "a6"})),
              ElementsAre("start=[a1 a2 a3]", "start=[a2 a3 a4]", "start=[a3 a4 a5]", "start=[a4 a5 a6]"));
}

TEST(SkipStrategy, SkipPastLastEventStartsAfterTheMatch) {
  EXPECT_THAT(run(threeAs(AfterMatchSkipStrategy::skipPastLastEvent()), sequence({"a1", "a2", "a3", "a4", "a5", "a6"})),
              ElementsAre("start=[a1 a2 a3]", "start=[a4 a5 a6]"));
}

TEST(SkipStrategy, EachMatchCarriesTheTimestampOfItsLastEvent) {
  EXPECT_THAT(
      runLines(threeAs(AfterMatchSkipStrategy::skipPastLastEvent()), sequence({"a1", "a2", "a3", "a4", "a5", "a6"})),
      ElementsAre("Record(start=[a1 a2 a3] @ 3)", "Record(start=[a4 a5 a6] @ 6)", "Watermark(1000)"));
}

// ---- a followedByAny b over a1 b1 a2 b2 ----

Pattern<Ev> aFollowedByAnyB(AfterMatchSkipStrategy skip) {
  return Pattern<Ev>::begin("start", std::move(skip)).where(contains('a')).followedByAny("end").where(contains('b'));
}

TEST(SkipStrategy, NoSkipWithFollowedByAny) {
  EXPECT_THAT(run(aFollowedByAnyB(AfterMatchSkipStrategy::noSkip()), sequence({"a1", "b1", "a2", "b2"})),
              ElementsAre("start=[a1] end=[b1]", "start=[a1] end=[b2]", "start=[a2] end=[b2]"));
}

TEST(SkipStrategy, SkipToNextWithFollowedByAny) {
  EXPECT_THAT(run(aFollowedByAnyB(AfterMatchSkipStrategy::skipToNext()), sequence({"a1", "b1", "a2", "b2"})),
              ElementsAre("start=[a1] end=[b1]", "start=[a2] end=[b2]"));
}

// ---- a next b+ over a1 b1 b2 b3 ----

Pattern<Ev> aNextBs(AfterMatchSkipStrategy skip) {
  return Pattern<Ev>::begin("start", std::move(skip)).where(contains('a')).next("end").where(contains('b')).oneOrMore();
}

TEST(SkipStrategy, NoSkipWithLoopingPatternAtTheEnd) {
  EXPECT_THAT(run(aNextBs(AfterMatchSkipStrategy::noSkip()), sequence({"a1", "b1", "b2", "b3"})),
              ElementsAre("start=[a1] end=[b1]", "start=[a1] end=[b1 b2]", "start=[a1] end=[b1 b2 b3]"));
}

TEST(SkipStrategy, SkipToNextWithLoopingPatternAtTheEnd) {
  EXPECT_THAT(run(aNextBs(AfterMatchSkipStrategy::skipToNext()), sequence({"a1", "b1", "b2", "b3"})),
              ElementsAre("start=[a1] end=[b1]"));
}

// ---- skipToFirst / skipToLast over a{2} next b{2} ----

Pattern<Ev> twoThenTwo(AfterMatchSkipStrategy skip) {
  return Pattern<Ev>::begin("start", std::move(skip))
      .where(contains('a'))
      .times(2)
      .next("end")
      .where(contains('b'))
      .times(2);
}

TEST(SkipStrategy, SkipToFirstRestartsAtTheFirstEventOfTheName) {
  EXPECT_THAT(
      run(twoThenTwo(AfterMatchSkipStrategy::skipToFirst("end")), sequence({"ab1", "ab2", "ab3", "ab4", "ab5", "ab6"})),
      ElementsAre("start=[ab1 ab2] end=[ab3 ab4]", "start=[ab3 ab4] end=[ab5 ab6]"));
}

TEST(SkipStrategy, SkipToLastRestartsAtTheLastEventOfTheName) {
  EXPECT_THAT(run(twoThenTwo(AfterMatchSkipStrategy::skipToLast("end")),
                  sequence({"ab1", "ab2", "ab3", "ab4", "ab5", "ab6", "ab7"})),
              ElementsAre("start=[ab1 ab2] end=[ab3 ab4]", "start=[ab4 ab5] end=[ab6 ab7]"));
}

// ---- skipPastLastEvent with branching ----

TEST(SkipStrategy, SkipPastLastEventDiscardsAllOtherCombinations) {
  auto pattern = Pattern<Ev>::begin("a", AfterMatchSkipStrategy::skipPastLastEvent())
                     .where(contains('a'))
                     .followedByAny("b")
                     .where(contains('b'))
                     .followedByAny("c")
                     .where(contains('c'))
                     .followedBy("d")
                     .where(contains('d'));
  EXPECT_THAT(run(pattern, sequence({"a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2"})),
              ElementsAre("a=[a1] b=[b1] c=[c1] d=[d1]"));
}

TEST(SkipStrategy, SkipPastLastEventWithStrictContiguity) {
  auto pattern = Pattern<Ev>::begin("a", AfterMatchSkipStrategy::skipPastLastEvent())
                     .where(contains('a'))
                     .next("b")
                     .where(contains('b'));
  EXPECT_THAT(run(pattern, sequence({"a1", "c", "a2", "b2"})), ElementsAre("a=[a2] b=[b2]"));
}

// ---- skipToFirst / skipToLast with looping and optional patterns ----

TEST(SkipStrategy, SkipToFirstWithAnOptionalLoopBeforeIt) {
  auto pattern = Pattern<Ev>::begin("x", AfterMatchSkipStrategy::skipToFirst("b"))
                     .where(contains('x'))
                     .oneOrMore()
                     .optional()
                     .next("b")
                     .where(contains('b'))
                     .next("c")
                     .where(contains('c'));
  EXPECT_THAT(run(pattern, sequence({"ab1", "c1", "ab2", "c2"})), ElementsAre("b=[ab1] c=[c1]", "b=[ab2] c=[c2]"));
}

TEST(SkipStrategy, SkipToFirstOfTheFirstPatternBehavesLikeNoSkip) {
  auto pattern = Pattern<Ev>::begin("b", AfterMatchSkipStrategy::skipToFirst("b"))
                     .where(contains('b'))
                     .next("c")
                     .where(contains('c'));
  EXPECT_THAT(run(pattern, sequence({"ab1", "c1", "ab2", "c2"})), ElementsAre("b=[ab1] c=[c1]", "b=[ab2] c=[c2]"));
}

Pattern<Ev> aNextConsecutiveBs(AfterMatchSkipStrategy skip) {
  return Pattern<Ev>::begin("a", std::move(skip))
      .where(contains('a'))
      .next("b")
      .where(contains('b'))
      .oneOrMore()
      .consecutive();
}

TEST(SkipStrategy, SkipToFirstWithOneOrMore) {
  EXPECT_THAT(run(aNextConsecutiveBs(AfterMatchSkipStrategy::skipToFirst("b")),
                  sequence({"a1", "b1", "a2", "b2", "b3", "a3", "b4"})),
              ElementsAre("a=[a1] b=[b1]", "a=[a2] b=[b2]", "a=[a3] b=[b4]"));
}

TEST(SkipStrategy, SkipToLastWithOneOrMore) {
  EXPECT_THAT(run(aNextConsecutiveBs(AfterMatchSkipStrategy::skipToLast("b")),
                  sequence({"a1", "b1", "a2", "b2", "b3", "a3", "b4"})),
              ElementsAre("a=[a1] b=[b1]", "a=[a2] b=[b2]", "a=[a3] b=[b4]"));
}

// ---- greedy a+ next b over a1 a2 a3 b1, one strategy each ----

Pattern<Ev> greedyAsThenB(AfterMatchSkipStrategy skip) {
  return Pattern<Ev>::begin("a", std::move(skip))
      .where(contains('a'))
      .oneOrMore()
      .consecutive()
      .greedy()
      .next("b")
      .where(contains('b'));
}

TEST(SkipStrategy, GreedyLoopNoSkip) {
  EXPECT_THAT(run(greedyAsThenB(AfterMatchSkipStrategy::noSkip()), sequence({"a1", "a2", "a3", "b1"})),
              ElementsAre("a=[a1 a2 a3] b=[b1]", "a=[a2 a3] b=[b1]", "a=[a3] b=[b1]"));
}

TEST(SkipStrategy, GreedyLoopSkipToFirst) {
  EXPECT_THAT(run(greedyAsThenB(AfterMatchSkipStrategy::skipToFirst("a")), sequence({"a1", "a2", "a3", "b1"})),
              ElementsAre("a=[a1 a2 a3] b=[b1]", "a=[a2 a3] b=[b1]", "a=[a3] b=[b1]"));
}

TEST(SkipStrategy, GreedyLoopSkipToLast) {
  EXPECT_THAT(run(greedyAsThenB(AfterMatchSkipStrategy::skipToLast("a")), sequence({"a1", "a2", "a3", "b1"})),
              ElementsAre("a=[a1 a2 a3] b=[b1]", "a=[a3] b=[b1]"));
}

TEST(SkipStrategy, GreedyLoopSkipPastLastEvent) {
  EXPECT_THAT(run(greedyAsThenB(AfterMatchSkipStrategy::skipPastLastEvent()), sequence({"a1", "a2", "a3", "b1"})),
              ElementsAre("a=[a1 a2 a3] b=[b1]"));
}

TEST(SkipStrategy, SkipToFirstOfAGreedyLoopInTheMiddle) {
  auto pattern = Pattern<Ev>::begin("a or c", AfterMatchSkipStrategy::skipToFirst("c*"))
                     .where([](const Ev& e) { return contains('a')(e) || contains('c')(e); })
                     .followedBy("b or c")
                     .where([](const Ev& e) { return contains('b')(e) || contains('c')(e); })
                     .followedBy("c*")
                     .where(contains('c'))
                     .oneOrMore()
                     .greedy()
                     .followedBy("d")
                     .where(contains('d'));
  EXPECT_THAT(run(pattern, sequence({"a", "b", "c1", "c2", "c3", "d"})),
              ElementsAre("a or c=[a] b or c=[b] c*=[c1 c2 c3] d=[d]", "a or c=[c1] b or c=[c2] c*=[c3] d=[d]"));
}

// A match that completes first waits for an earlier-started one; both come
// out, oldest first, when the earlier one completes.
TEST(SkipStrategy, ALaterMatchWaitsForAnEarlierStartedOne) {
  auto pattern = Pattern<Ev>::begin("a", AfterMatchSkipStrategy::skipToFirst("c"))
                     .where(contains('a'))
                     .followedBy("c")
                     .where(contains('c'))
                     .followedBy("b")
                     .where([](const Ev& e, IterativeCondition<Ev>::Context& ctx) {
                       return contains('b')(e) && ctx.getEventsForPattern("a").front().price == e.price;
                     });
  std::vector<Ev> events{{"a1", 1, 0.0}, {"c1", 2, 0.0}, {"a2", 3, 1.0},
                         {"c2", 4, 0.0}, {"b1", 5, 1.0}, {"b2", 6, 0.0}};
  EXPECT_THAT(runLines(pattern, events),
              ElementsAre("Record(a=[a1] c=[c1] b=[b2] @ 6)", "Record(a=[a2] c=[c2] b=[b1] @ 6)", "Watermark(1000)"));
}

// ---- throwExceptionOnMiss ----

Pattern<Ev> aOptionalBsC(AfterMatchSkipStrategy skip) {
  return Pattern<Ev>::begin("a", std::move(skip))
      .where(contains('a'))
      .next("b")
      .where(contains('b'))
      .oneOrMore()
      .optional()
      .consecutive()
      .next("c")
      .where(contains('c'));
}

TEST(SkipStrategy, SkipToAMissingNameSkipsNothingByDefault) {
  EXPECT_THAT(run(aOptionalBsC(AfterMatchSkipStrategy::skipToFirst("b")), sequence({"a", "c"})),
              ElementsAre("a=[a] c=[c]"));
  EXPECT_THAT(run(aOptionalBsC(AfterMatchSkipStrategy::skipToLast("b")), sequence({"a", "c"})),
              ElementsAre("a=[a] c=[c]"));
}

/// Runs `pattern` over `events` as a job and returns what execute() threw ("" if it did not).
std::string jobFailure(const Pattern<Ev>& pattern, std::initializer_list<Ev> events) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1).enableSimulatedTime(0);
  auto input = env.fromElements<Ev>(events).assignTimestampsAndWatermarks(
      WatermarkStrategy<Ev>::forMonotonousTimestamps().withTimestampAssigner([](const Ev& e) { return e.ts; }));
  CEP::pattern(input.keyBy(keyOf), pattern).process(MatchesAndTimeouts<Ev>{}).collectToMemory();
  try {
    env.execute("skip");
  } catch (const JobExecutionException& e) {
    return e.what();
  }
  return "";
}

TEST(SkipStrategy, ThrowExceptionOnMissFailsTheJobWhenSkipToFirstFindsNoEvent) {
  const std::string failure =
      jobFailure(aOptionalBsC(AfterMatchSkipStrategy::skipToFirst("b").throwExceptionOnMiss()), {{"a", 1}, {"c", 2}});
  EXPECT_THAT(failure, HasSubstr("cannot apply SkipToFirst(b): the match has no event under 'b'"));
}

TEST(SkipStrategy, ThrowExceptionOnMissFailsTheJobWhenSkipToLastFindsNoEvent) {
  const std::string failure =
      jobFailure(aOptionalBsC(AfterMatchSkipStrategy::skipToLast("b").throwExceptionOnMiss()), {{"a", 1}, {"c", 2}});
  EXPECT_THAT(failure, HasSubstr("cannot apply SkipToLast(b): the match has no event under 'b'"));
}

TEST(SkipStrategy, ThrowExceptionOnMissFailsWhenSkippingToTheMatchsOwnFirstEvent) {
  auto pattern =
      Pattern<Ev>::begin("a", AfterMatchSkipStrategy::skipToFirst("a").throwExceptionOnMiss()).where(contains('a'));
  const std::string failure = jobFailure(pattern, {{"a1", 1}});
  EXPECT_THAT(failure, HasSubstr("cannot apply SkipToFirst(a)"));
  EXPECT_THAT(failure, HasSubstr("the match's own first event"));
}

TEST(SkipStrategy, ThrowExceptionOnMissDoesNotFireWhenTheNameMatched) {
  EXPECT_THAT(jobFailure(aOptionalBsC(AfterMatchSkipStrategy::skipToFirst("b").throwExceptionOnMiss()),
                         {{"a", 1}, {"b", 2}, {"c", 3}}),
              IsEmpty());
}

}  // namespace
}  // namespace tidemark
