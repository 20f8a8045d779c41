// notNext and notFollowedBy through the CEP operator (docs/semantics.md 6.1, 6.2):
// in the middle of a pattern, before optional and times patterns, at the end
// (notNext; notFollowedBy only with within, the match being emitted once the
// window has passed without the event), and the compile-time error for a
// trailing notFollowedBy without within, with Flink CEP's semantics. Outputs
// are listed in emission order with their timestamps.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
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
using cep_test::named::Harness;
using cep_test::named::harnessFor;
using cep_test::named::is;
using cep_test::named::keyOf;
using cep_test::named::kTimedOut;
using cep_test::named::runThrough;
using cep_test::named::sequence;
using cep_test::named::sideLines;

/// A harness around the CEP operator of `pattern` (one key); matches to the
/// main output, timed-out partial matches to kTimedOut.
class CepRun {
 public:
  explicit CepRun(const Pattern<Ev>& pattern) : harness_(harnessFor(pattern)) {}
  CepRun& add(std::string name, Timestamp ts) {
    harness_->processElement(Ev{std::move(name), ts}, ts);
    return *this;
  }
  CepRun& watermark(Timestamp w) {
    harness_->processWatermark(w);
    return *this;
  }
  /// Matches and watermarks: "Record(match @ ts)", "Watermark(w)".
  std::vector<std::string> lines() const { return harness_->getOutput().lines(); }
  std::vector<std::string> matches() const { return harness_->extractOutputValues(); }
  std::vector<std::string> timeouts() const { return sideLines(*harness_, kTimedOut); }

 private:
  std::unique_ptr<Harness> harness_;
};

/// Feeds `names` at timestamps 1, 2, ... and a final watermark; returns the matches.
std::vector<std::string> matchesOf(const Pattern<Ev>& pattern, std::initializer_list<std::string> names) {
  return runThrough(pattern, sequence(names))->extractOutputValues();
}

// ---- notNext ----

TEST(NotPattern, NotNextInTheMiddle) {
  auto pattern = Pattern<Ev>::begin("start")
                     .where(is('a'))
                     .notNext("notPattern")
                     .where(is('b'))
                     .followedByAny("middle")
                     .where(is('c'))
                     .followedBy("end")
                     .where(is('d'));
  EXPECT_THAT(matchesOf(pattern, {"a1", "c1", "b1", "c2", "d"}),
              ElementsAre("start=[a1] middle=[c1] end=[d]", "start=[a1] middle=[c2] end=[d]"));
}

TEST(NotPattern, NotNextKillsThePartialMatchWhenTheNextEventMatches) {
  auto pattern = Pattern<Ev>::begin("start")
                     .where(is('a'))
                     .notNext("notPattern")
                     .where(is('b'))
                     .followedBy("middle")
                     .where(is('c'))
                     .followedBy("end")
                     .where(is('d'));
  EXPECT_THAT(matchesOf(pattern, {"a1", "b1", "c1", "c2", "d"}), IsEmpty());
}

TEST(NotPattern, NotNextAtTheEndFailsWhenTheNextEventMatches) {
  auto pattern = Pattern<Ev>::begin("start")
                     .where(is('a'))
                     .followedByAny("middle")
                     .where(is('c'))
                     .followedByAny("end")
                     .where(is('d'))
                     .notNext("notPattern")
                     .where(is('b'));
  EXPECT_THAT(matchesOf(pattern, {"a1", "c1", "c2", "d", "b1"}), IsEmpty());
}

// A trailing notNext is decided by the next event: the match is emitted when
// an event that does not match arrives, with that event's timestamp.
TEST(NotPattern, NotNextAtTheEndCompletesOnTheNextNonMatchingEvent) {
  auto pattern = Pattern<Ev>::begin("start").where(is('a')).notNext("notPattern").where(is('b'));
  CepRun run(pattern);
  run.add("a1", 1).watermark(1).add("c1", 5).watermark(5).add("a2", 6).add("b1", 7).watermark(20);
  EXPECT_THAT(run.lines(), ElementsAre("Watermark(1)", "Record(start=[a1] @ 5)", "Watermark(5)", "Watermark(20)"));
}

// ---- notFollowedBy in the middle ----

TEST(NotPattern, NotFollowedByInTheMiddle) {
  auto pattern = Pattern<Ev>::begin("start")
                     .where(is('a'))
                     .notFollowedBy("notPattern")
                     .where(is('b'))
                     .followedByAny("middle")
                     .where(is('c'))
                     .followedBy("end")
                     .where(is('d'));
  EXPECT_THAT(matchesOf(pattern, {"a1", "c1", "b1", "c2", "d"}), ElementsAre("start=[a1] middle=[c1] end=[d]"));
}

TEST(NotPattern, NotFollowedByBeforeAnOptionalPattern) {
  auto pattern = Pattern<Ev>::begin("start")
                     .where(is('a'))
                     .notFollowedBy("notPattern")
                     .where(is('b'))
                     .followedByAny("middle")
                     .where(is('c'))
                     .optional()
                     .followedBy("end")
                     .where(is('d'));
  EXPECT_THAT(matchesOf(pattern, {"a1", "c1", "b1", "c2", "d"}), ElementsAre("start=[a1] middle=[c1] end=[d]"));
}

TEST(NotPattern, NotFollowedByBeforeAnOptionalPatternAtTheEnd) {
  auto pattern = Pattern<Ev>::begin("start")
                     .where(is('a'))
                     .notFollowedBy("notPattern")
                     .where(is('b'))
                     .followedByAny("end")
                     .where(is('c'))
                     .optional();
  EXPECT_THAT(matchesOf(pattern, {"a1", "c1", "b1", "c2"}), ElementsAre("start=[a1]", "start=[a1] end=[c1]"));
}

TEST(NotPattern, NotFollowedByAfterATimesPattern) {
  auto pattern = Pattern<Ev>::begin("start")
                     .where(is('a'))
                     .followedByAny("middle")
                     .where(is('b'))
                     .times(2)
                     .notFollowedBy("notPattern")
                     .where(is('c'))
                     .followedBy("end")
                     .where(is('d'));
  EXPECT_THAT(matchesOf(pattern, {"a1", "b1", "c", "b2", "d"}), IsEmpty());
}

TEST(NotPattern, NotFollowedByBeforeAnOptionalLoop) {
  auto pattern = Pattern<Ev>::begin("a")
                     .where(is('a'))
                     .notFollowedBy("not c")
                     .where(is('c'))
                     .followedBy("b*")
                     .where(is('b'))
                     .oneOrMore()
                     .optional()
                     .followedBy("d")
                     .where(is('d'));
  // The c after b1 does not matter any more: b1 was taken first. All four
  // complete on d1 with the same first event; without a skip strategy they
  // are emitted in the order they sit in the match queue (as Flink walks its
  // queue), longest loop first here.
  EXPECT_THAT(matchesOf(pattern, {"a1", "b1", "c1", "b4", "b5", "b6", "d1"}),
              ElementsAre("a=[a1] b*=[b1 b4 b5 b6] d=[d1]", "a=[a1] b*=[b1 b4 b5] d=[d1]", "a=[a1] b*=[b1 b4] d=[d1]",
                          "a=[a1] b*=[b1] d=[d1]"));
}

// ---- notFollowedBy at the end, with within ----

Pattern<Ev> aNotFollowedByBWithin(Duration window) {
  return Pattern<Ev>::begin("a").where(is('a')).notFollowedBy("b").where(is('b')).within(window);
}

TEST(NotPattern, TrailingNotFollowedByMatchesOnlyWhenTheWindowPassesWithoutTheEvent) {
  CepRun run(aNotFollowedByBWithin(3));
  run.add("a1", 1).add("b1", 2).add("a2", 4).add("c", 5).add("b2", 10).add("a3", 11).add("b3", 13).watermark(100);
  // a2's window [4, 7) passes without a b; the time reaches 10 with the next event.
  EXPECT_THAT(run.lines(), ElementsAre("Record(a=[a2] @ 10)", "Watermark(100)"));
  EXPECT_THAT(run.timeouts(), IsEmpty());
}

TEST(NotPattern, TrailingNotFollowedByIsEmittedWhenTheWatermarkReachesTheEndOfTheWindow) {
  CepRun run(aNotFollowedByBWithin(3));
  run.add("a1", 4).watermark(4).watermark(6);
  EXPECT_THAT(run.matches(), IsEmpty());
  run.watermark(7);
  EXPECT_THAT(run.lines(), ElementsAre("Watermark(4)", "Watermark(6)", "Record(a=[a1] @ 7)", "Watermark(7)"));
}

TEST(NotPattern, TrailingNotFollowedByTakesTheTimestampOfTheAdvanceThatClosedTheWindow) {
  CepRun run(aNotFollowedByBWithin(3));
  run.add("a1", 4).watermark(50);
  EXPECT_THAT(run.lines(), ElementsAre("Record(a=[a1] @ 50)", "Watermark(50)"));
}

// The window is [first, first + window): an event at exactly first + window
// comes too late to spoil the match.
TEST(NotPattern, AnEventAtTheEndOfTheWindowDoesNotPreventTheTrailingNotFollowedByMatch) {
  CepRun run(aNotFollowedByBWithin(3));
  run.add("a1", 4).add("b1", 7).watermark(10);
  EXPECT_THAT(run.lines(), ElementsAre("Record(a=[a1] @ 7)", "Watermark(10)"));
}

TEST(NotPattern, AnEventInsideTheWindowPreventsTheTrailingNotFollowedByMatch) {
  CepRun run(aNotFollowedByBWithin(3));
  run.add("a1", 4).add("b1", 6).watermark(10);
  EXPECT_THAT(run.lines(), ElementsAre("Watermark(10)"));
  EXPECT_THAT(run.timeouts(), IsEmpty());
}

TEST(NotPattern, NotFollowedByBeforeAnOptionalTimesPatternWithin) {
  auto pattern = Pattern<Ev>::begin("a")
                     .where(is('a'))
                     .notFollowedBy("b")
                     .where(is('b'))
                     .followedBy("c")
                     .where(is('c'))
                     .times(0, 2)
                     .within(3);
  CepRun run(pattern);
  run.add("a1", 1).add("b1", 2).add("a2", 10).add("c1", 11).add("c2", 12).add("a3", 20).add("c3", 21).add("c4", 24);
  run.watermark(100);
  // c is optional, so a alone is a match at once (the b after a1 comes too
  // late to matter); c4 is outside a3's window [20, 23).
  EXPECT_THAT(run.lines(), ElementsAre("Record(a=[a1] @ 1)", "Record(a=[a2] @ 10)", "Record(a=[a2] c=[c1] @ 11)",
                                       "Record(a=[a2] c=[c1 c2] @ 12)", "Record(a=[a3] @ 20)",
                                       "Record(a=[a3] c=[c3] @ 21)", "Watermark(100)"));
}

TEST(NotPattern, TrailingNotFollowedByWithSkipPastLastEventKeepsTheEarliestLongestMatch) {
  auto pattern = Pattern<Ev>::begin("a", AfterMatchSkipStrategy::skipPastLastEvent())
                     .where(is('a'))
                     .oneOrMore()
                     .allowCombinations()
                     .followedBy("c")
                     .where(is('c'))
                     .notFollowedBy("b")
                     .where(is('b'))
                     .within(5);
  CepRun run(pattern);
  run.add("a1", 1).add("a2", 2).add("a3", 3).add("c1", 4).add("c2", 10).watermark(100);
  EXPECT_THAT(run.lines(), ElementsAre("Record(a=[a1 a2 a3] c=[c1] @ 10)", "Watermark(100)"));
}

TEST(NotPattern, TrailingNotFollowedByWithoutWithinIsRejected) {
  auto pattern = Pattern<Ev>::begin("a").where(is('a')).notFollowedBy("b").where(is('b'));
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto keyed = env.fromElements<Ev>({}).keyBy(keyOf);
  try {
    CEP::pattern(keyed, pattern);
    ADD_FAILURE() << "the pattern was accepted";
  } catch (const MalformedPatternException& e) {
    EXPECT_THAT(e.what(), HasSubstr("notFollowedBy('b') ends the pattern"));
    EXPECT_THAT(e.what(), HasSubstr("within()"));
  }
}

}  // namespace
}  // namespace tidemark
