// IntervalJoinOperator under the two-input test harness: exact outputs with
// timestamps and watermarks, inclusive / exclusive / negative / positive
// bounds, late elements, and the cleanup of buffers and timers (the cases of
// Flink's IntervalJoinOperatorTest, in both input orders).
//
// Elements are strings "key:name"; the key is the text before ':'. The join
// function emits "left|right".
#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/string_interval_join.h"
#include "tidemark/core/output_tag.h"
#include "tidemark/functions/process_join_function.h"
#include "tidemark/internal/operators/interval_join_operator.h"
#include "tidemark/testing/two_input_harness.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

using Selector = testing_support::StringSelector;
using JoinOperator = testing_support::StringIntervalJoin;
using Harness = testing_support::StringJoinHarness;
constexpr auto keyOf = &testing_support::keyBeforeColon;

/// Emits "left|right" and checks the context's timestamps on the way.
class PairUp : public ProcessJoinFunction<std::string, std::string, std::string> {
 public:
  void processElement(const std::string& left, const std::string& right, Context& ctx,
                      Collector<std::string>& out) override {
    EXPECT_EQ(ctx.getTimestamp(), std::max(ctx.getLeftTimestamp(), ctx.getRightTimestamp()));
    out.collect(left + "|" + right);
  }
};

struct Bounds {
  Duration lower;
  Duration upper;
  bool lower_inclusive = true;
  bool upper_inclusive = true;
};

std::unique_ptr<JoinOperator> makeJoin(Bounds b, std::optional<OutputTag<std::string>> left_late = std::nullopt,
                                       std::optional<OutputTag<std::string>> right_late = std::nullopt) {
  return std::make_unique<JoinOperator>(b.lower, b.upper, b.lower_inclusive, b.upper_inclusive,
                                        std::make_unique<PairUp>(), Selector(keyOf), Selector(keyOf),
                                        std::move(left_late), std::move(right_late));
}

JoinOperator& joinOf(Harness& harness) { return static_cast<JoinOperator&>(harness.getOperator()); }

std::string left(Timestamp ts) { return fmt::format("a:L{}", ts); }
std::string right(Timestamp ts) { return fmt::format("a:R{}", ts); }

/// Flink's processElementsAndWatermarks(1, 4): each side's elements 1..4,
/// each followed by a watermark equal to its timestamp, one side after the other.
void playOneToFour(Harness& harness, bool left_first) {
  auto play_left = [&] {
    for (Timestamp ts = 1; ts <= 4; ++ts) {
      harness.processElement1(left(ts), ts);
      harness.processWatermark1(ts);
    }
  };
  auto play_right = [&] {
    for (Timestamp ts = 1; ts <= 4; ++ts) {
      harness.processElement2(right(ts), ts);
      harness.processWatermark2(ts);
    }
  };
  if (left_first) {
    play_left();
    play_right();
  } else {
    play_right();
    play_left();
  }
}

/// "L<l>|R<r>@<ts>" for every output record, sorted.
std::vector<std::string> sortedPairs(const Harness& harness) {
  std::vector<std::string> result;
  for (const auto& record : harness.getOutput().records()) {
    EXPECT_TRUE(record.has_timestamp);
    std::string text = record.value;
    std::erase(text, ':');
    std::erase(text, 'a');
    result.push_back(fmt::format("{}@{}", text, record.timestamp));
  }
  std::sort(result.begin(), result.end());
  return result;
}

/// The expected "L<l>|R<r>@max" lines for pairs (l, r), sorted.
std::vector<std::string> expectedPairs(std::vector<std::pair<int, int>> pairs) {
  std::vector<std::string> result;
  for (auto [l, r] : pairs) result.push_back(fmt::format("L{}|R{}@{}", l, r, std::max(l, r)));
  std::sort(result.begin(), result.end());
  return result;
}

// ---- exact output ----

TEST(IntervalJoinOperatorTest, EmitsPairsInTimestampOrderWithMaxTimestampBeforeEachWatermark) {
  Harness harness(makeJoin({-1, 1}));
  harness.open();
  playOneToFour(harness, /*left_first=*/true);

  // While the right input has sent no watermark, event time stays MIN: no
  // watermark goes out and nothing is cleaned. Each right element then meets
  // the buffered left ones in [ts - 1, ts + 1], ascending.
  EXPECT_THAT(harness.getOutput().lines(),
              ElementsAre("Record(a:L1|a:R1 @ 1)", "Record(a:L2|a:R1 @ 2)", "Watermark(1)",
                          "Record(a:L1|a:R2 @ 2)", "Record(a:L2|a:R2 @ 2)", "Record(a:L3|a:R2 @ 3)", "Watermark(2)",
                          "Record(a:L2|a:R3 @ 3)", "Record(a:L3|a:R3 @ 3)", "Record(a:L4|a:R3 @ 4)", "Watermark(3)",
                          "Record(a:L3|a:R4 @ 4)", "Record(a:L4|a:R4 @ 4)", "Watermark(4)"));
  // Left cleanup at ts + 1, right cleanup at ts + 1: only L4 and R4 remain.
  EXPECT_THAT(joinOf(harness).bufferedTimestamps(true, "a"), ElementsAre(4));
  EXPECT_THAT(joinOf(harness).bufferedTimestamps(false, "a"), ElementsAre(4));
  EXPECT_EQ(harness.numEventTimeTimers(), 2u);
  EXPECT_EQ(harness.numKeyedStateEntries(), 2u);  // one buffer per side for key "a"
}

TEST(IntervalJoinOperatorTest, OneArrivalMeetsBufferedElementsAscendingThenInArrivalOrder) {
  Harness harness(makeJoin({-10, 10}));
  harness.open();
  // Buffered out of timestamp order, two at ts 5.
  harness.processElement2("a:R7", 7);
  harness.processElement2("a:R5x", 5);
  harness.processElement2("a:R3", 3);
  harness.processElement2("a:R5y", 5);
  harness.processElement2("b:R5", 5);  // other key: never met
  harness.processElement1("a:L4", 4);

  EXPECT_THAT(harness.getOutput().lines(),
              ElementsAre("Record(a:L4|a:R3 @ 4)", "Record(a:L4|a:R5x @ 5)", "Record(a:L4|a:R5y @ 5)",
                          "Record(a:L4|a:R7 @ 7)"));
}

/// Reports the context's timestamps and echoes the right element to a side output.
class ReportContext : public ProcessJoinFunction<std::string, std::string, std::string> {
 public:
  explicit ReportContext(OutputTag<std::string> tag) : tag_(std::move(tag)) {}
  void processElement(const std::string& l, const std::string& r, Context& ctx, Collector<std::string>& out) override {
    out.collect(fmt::format("{}|{} left={} right={} ts={}", l, r, ctx.getLeftTimestamp(), ctx.getRightTimestamp(),
                            ctx.getTimestamp()));
    ctx.output(tag_, "side " + r);
  }

 private:
  OutputTag<std::string> tag_;
};

TEST(IntervalJoinOperatorTest, ContextReportsBothTimestampsAndSideOutputsCarryThePairTimestamp) {
  const OutputTag<std::string> info("info");
  Harness harness(std::make_unique<JoinOperator>(-5, 5, true, true, std::make_unique<ReportContext>(info),
                                                 Selector(keyOf), Selector(keyOf)));
  harness.captureSideOutput(info);
  harness.open();
  harness.processElement1("a:L", 10);
  harness.processElement2("a:R1", 7);   // right earlier: the pair gets the left's 10
  harness.processElement2("a:R2", 14);  // right later: the pair gets 14

  EXPECT_THAT(harness.getOutput().lines(),
              ElementsAre("Record(a:L|a:R1 left=10 right=7 ts=10 @ 10)", "Record(a:L|a:R2 left=10 right=14 ts=14 @ 14)"));
  EXPECT_THAT(harness.getSideOutput(info), ElementsAre(StreamRecord<std::string>::withTimestamp("side a:R1", 10),
                                                       StreamRecord<std::string>::withTimestamp("side a:R2", 14)));
}

// ---- bounds (Flink's cases, both input orders) ----

struct BoundsCase {
  const char* name;
  Bounds bounds;
  std::vector<std::pair<int, int>> pairs;  // (left ts, right ts)
};

std::vector<BoundsCase> boundsCases() {
  return {
      {"PositiveInclusiveUpperExclusive", {1, 3, true, false}, {{1, 2}, {1, 3}, {2, 3}, {2, 4}, {3, 4}}},
      {"MirroredNegative", {-3, -1, false, true}, {{2, 1}, {3, 1}, {3, 2}, {4, 2}, {4, 3}}},
      {"NegativeInclusiveNegativeInclusive", {-2, -1}, {{2, 1}, {3, 1}, {3, 2}, {4, 2}, {4, 3}}},
      {"NegativeInclusivePositiveInclusive",
       {-1, 1},
       {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {2, 3}, {3, 2}, {3, 3}, {3, 4}, {4, 3}, {4, 4}}},
      {"PositiveInclusivePositiveInclusive", {1, 2}, {{1, 2}, {1, 3}, {2, 3}, {2, 4}, {3, 4}}},
      {"NegativeExclusiveNegativeExclusive", {-3, -1, false, false}, {{3, 1}, {4, 2}}},
      {"NegativeExclusivePositiveExclusive", {-1, 1, false, false}, {{1, 1}, {2, 2}, {3, 3}, {4, 4}}},
      {"PositiveExclusivePositiveExclusive", {1, 3, false, false}, {{1, 3}, {2, 4}}},
      {"LowerEqualsUpperZero", {0, 0}, {{1, 1}, {2, 2}, {3, 3}, {4, 4}}},
      {"LowerEqualsUpperPositive", {2, 2}, {{1, 3}, {2, 4}}},
      {"LowerEqualsUpperNegative", {-3, -3}, {{4, 1}}},
      {"LowerEqualsUpperExclusiveJoinsNothing", {0, 0, false, true}, {}},
  };
}

class IntervalJoinBoundsTest : public ::testing::TestWithParam<std::tuple<BoundsCase, bool>> {};

TEST_P(IntervalJoinBoundsTest, JoinsExactlyThePairsWithinTheBounds) {
  const auto& [c, left_first] = GetParam();
  Harness harness(makeJoin(c.bounds));
  harness.open();
  playOneToFour(harness, left_first);
  EXPECT_EQ(sortedPairs(harness), expectedPairs(c.pairs));
  EXPECT_THAT(harness.getOutput().watermarks(), ElementsAre(1, 2, 3, 4));

  // Event time to the end: every buffer and timer goes.
  harness.processWatermark1(kMaxWatermark);
  harness.processWatermark2(kMaxWatermark);
  EXPECT_EQ(harness.numKeyedStateEntries(), 0u);
  EXPECT_EQ(harness.numEventTimeTimers(), 0u);
  EXPECT_EQ(harness.numProcessingTimeTimers(), 0u);
}

INSTANTIATE_TEST_SUITE_P(FlinkCases, IntervalJoinBoundsTest,
                         ::testing::Combine(::testing::ValuesIn(boundsCases()), ::testing::Bool()),
                         [](const auto& param_info) {
                           return std::string(std::get<0>(param_info.param).name) +
                                  (std::get<1>(param_info.param) ? "_LeftFirst" : "_RightFirst");
                         });

TEST(IntervalJoinOperatorTest, ExclusiveBoundsMoveInwardByOneMillisecond) {
  JoinOperator op(-3, 7, false, false, std::make_unique<PairUp>(), Selector(keyOf), Selector(keyOf));
  EXPECT_EQ(op.effectiveLowerBound(), -2);
  EXPECT_EQ(op.effectiveUpperBound(), 6);
}

TEST(IntervalJoinOperatorTest, LowerAboveUpperIsRefused) {
  EXPECT_THROW(JoinOperator(2, 1, true, true, std::make_unique<PairUp>(), Selector(keyOf), Selector(keyOf)),
               std::invalid_argument);
  // Checked before exclusiveness, as in Flink: (1, 1] is accepted and joins nothing.
  EXPECT_NO_THROW(JoinOperator(1, 1, false, true, std::make_unique<PairUp>(), Selector(keyOf), Selector(keyOf)));
}

// ---- state cleanup (Flink's four cases) ----

struct CleanupCase {
  const char* name;
  Bounds bounds;
  std::vector<Timestamp> left_after_1, right_after_1, left_after_4, right_after_4;
};

class IntervalJoinCleanupTest : public ::testing::TestWithParam<CleanupCase> {};

TEST_P(IntervalJoinCleanupTest, DropsBucketsWhenTheWatermarkReachesTheirCleanupTime) {
  const CleanupCase& c = GetParam();
  Harness harness(makeJoin(c.bounds));
  harness.open();
  for (Timestamp ts = 1; ts <= 5; ++ts) harness.processElement1(left(ts), ts);
  for (Timestamp ts = 1; ts <= 5; ++ts) harness.processElement2(right(ts), ts);
  EXPECT_EQ(harness.numEventTimeTimers(), 10u);  // one per timestamp bucket and side
  EXPECT_EQ(harness.numKeyedStateEntries(), 2u);

  JoinOperator& op = joinOf(harness);
  harness.processWatermark1(1);
  harness.processWatermark2(1);
  EXPECT_THAT(op.bufferedTimestamps(true, "a"), ElementsAreArray(c.left_after_1));
  EXPECT_THAT(op.bufferedTimestamps(false, "a"), ElementsAreArray(c.right_after_1));
  EXPECT_EQ(harness.numEventTimeTimers(), c.left_after_1.size() + c.right_after_1.size());

  harness.processWatermark1(4);
  harness.processWatermark2(4);
  EXPECT_THAT(op.bufferedTimestamps(true, "a"), ElementsAreArray(c.left_after_4));
  EXPECT_THAT(op.bufferedTimestamps(false, "a"), ElementsAreArray(c.right_after_4));
  EXPECT_EQ(harness.numEventTimeTimers(), c.left_after_4.size() + c.right_after_4.size());

  harness.processWatermark1(6);
  harness.processWatermark2(6);
  EXPECT_THAT(op.bufferedTimestamps(true, "a"), IsEmpty());
  EXPECT_THAT(op.bufferedTimestamps(false, "a"), IsEmpty());
  EXPECT_EQ(harness.numEventTimeTimers(), 0u);
  EXPECT_EQ(harness.numKeyedStateEntries(), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    FlinkCases, IntervalJoinCleanupTest,
    ::testing::Values(
        // lower -1, upper 0: left at t goes at t, right at t at t + 1.
        CleanupCase{"NegativeInclusiveZeroInclusive", {-1, 0}, {2, 3, 4, 5}, {1, 2, 3, 4, 5}, {5}, {4, 5}},
        CleanupCase{"NegativeExclusivePositiveExclusive", {-2, 1, false, false}, {2, 3, 4, 5}, {1, 2, 3, 4, 5},
                    {5}, {4, 5}},
        // lower 0, upper 1: left at t goes at t + 1, right at t at t.
        CleanupCase{"ZeroInclusivePositiveInclusive", {0, 1}, {1, 2, 3, 4, 5}, {2, 3, 4, 5}, {4, 5}, {5}},
        CleanupCase{"NegativeExclusiveTwoExclusive", {-1, 2, false, false}, {1, 2, 3, 4, 5}, {2, 3, 4, 5}, {4, 5},
                    {5}}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(IntervalJoinOperatorTest, CleanupIsPerKeyAndOneTimerPerBucket) {
  Harness harness(makeJoin({-2, 3}));
  harness.open();
  harness.processElement1("a:L1", 10);
  harness.processElement1("a:L2", 10);  // same bucket: the timer is not added twice
  harness.processElement1("b:L1", 10);
  harness.processElement2("b:R1", 12);
  EXPECT_EQ(harness.numEventTimeTimers(), 3u);
  EXPECT_EQ(harness.numKeyedStateEntries(), 3u);  // a-left, b-left, b-right

  // Left at 10 goes at 13, right at 12 at 14.
  harness.processWatermark1(13);
  harness.processWatermark2(13);
  EXPECT_EQ(harness.numEventTimeTimers(), 1u);
  EXPECT_EQ(harness.numKeyedStateEntries(), 1u);
  EXPECT_THAT(joinOf(harness).bufferedTimestamps(false, "b"), ElementsAre(12));
  harness.processWatermark1(14);
  harness.processWatermark2(14);
  EXPECT_EQ(harness.numEventTimeTimers(), 0u);
  EXPECT_EQ(harness.numKeyedStateEntries(), 0u);
  EXPECT_THAT(harness.getOutput().lines(),
              ElementsAre("Record(b:L1|b:R1 @ 12)", "Watermark(13)", "Watermark(14)"));
}

// ---- late data ----

TEST(IntervalJoinOperatorTest, DiscardsLateElements) {
  Harness harness(makeJoin({-1, 1}));
  harness.open();
  for (Timestamp ts = 1; ts <= 3; ++ts) {
    harness.processElement1(left(ts), ts);
    harness.processElement2(right(ts), ts);
  }
  harness.processWatermark1(3);
  harness.processWatermark2(3);
  harness.processElement1("a:Llate", 1);  // 1 < 3: late, neither buffered nor joined
  harness.processElement2("a:Rlate", 2);
  for (Timestamp ts = 4; ts <= 5; ++ts) {
    harness.processElement1(left(ts), ts);
    harness.processElement2(right(ts), ts);
  }
  EXPECT_EQ(sortedPairs(harness), expectedPairs({{1, 1}, {1, 2}, {2, 1}, {2, 2}, {2, 3}, {3, 2}, {3, 3}, {3, 4},
                                                 {4, 3}, {4, 4}, {4, 5}, {5, 4}, {5, 5}}));
}

TEST(IntervalJoinOperatorTest, LateElementsGoToTheirSideOutputsWithTheirOwnTimestamps) {
  const OutputTag<std::string> left_late("left-late");
  const OutputTag<std::string> right_late("right-late");
  Harness harness(makeJoin({-1, 1}, left_late, right_late));
  harness.captureSideOutput(left_late);
  harness.captureSideOutput(right_late);
  harness.open();
  harness.processElement1(left(3), 3);
  harness.processElement2(right(3), 3);
  harness.processWatermark1(3);
  harness.processWatermark2(3);
  harness.processElement1(left(4), 4);
  harness.processElement2(right(4), 4);
  harness.processElement1("a:Llate", 1);
  harness.processElement2("a:Rlate", 2);
  harness.processElement1(left(5), 5);
  harness.processElement2(right(5), 5);

  EXPECT_EQ(sortedPairs(harness), expectedPairs({{3, 3}, {3, 4}, {4, 3}, {4, 4}, {4, 5}, {5, 4}, {5, 5}}));
  EXPECT_THAT(harness.getSideOutput(left_late), ElementsAre(StreamRecord<std::string>::withTimestamp("a:Llate", 1)));
  EXPECT_THAT(harness.getSideOutput(right_late),
              ElementsAre(StreamRecord<std::string>::withTimestamp("a:Rlate", 2)));
}

TEST(IntervalJoinOperatorTest, AnElementAtTheWatermarkIsNotLateButMissesPartnersCleanedAtIt) {
  // Flink's boundary: late means ts < watermark, cleanup fires at time <= watermark.
  const OutputTag<std::string> left_late("left-late");
  Harness harness(makeJoin({-1, 1}, left_late));
  harness.captureSideOutput(left_late);
  harness.open();
  harness.processElement2(right(2), 2);  // cleanup at 3
  harness.processElement2(right(3), 3);  // cleanup at 4
  harness.processWatermark1(3);
  harness.processWatermark2(3);
  EXPECT_THAT(joinOf(harness).bufferedTimestamps(false, "a"), ElementsAre(3));
  harness.processElement1(left(3), 3);  // ts == watermark: joined, with R3 only

  EXPECT_THAT(harness.getOutput().lines(), ElementsAre("Watermark(3)", "Record(a:L3|a:R3 @ 3)"));
  EXPECT_THAT(harness.getSideOutput(left_late), IsEmpty());
}

TEST(IntervalJoinOperatorTest, NothingIsLateWhileEventTimeIsMin) {
  Harness harness(makeJoin({0, 0}));
  harness.open();
  harness.processWatermark1(100);  // the right input has no watermark yet: event time stays MIN
  harness.processElement1(left(-50), -50);
  harness.processElement2(right(-50), -50);
  EXPECT_THAT(harness.getOutput().lines(), ElementsAre("Record(a:L-50|a:R-50 @ -50)"));
}

// ---- failures ----

TEST(IntervalJoinOperatorTest, LeftElementWithoutTimestampFails) {
  Harness harness(makeJoin({0, 0}));
  harness.open();
  try {
    harness.processElement1("a:L");
    FAIL() << "an element without a timestamp must fail";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("interval join: a left element has no timestamp"));
  }
}

TEST(IntervalJoinOperatorTest, RightElementWithoutTimestampFails) {
  Harness harness(makeJoin({0, 0}));
  harness.open();
  try {
    harness.processElement2(StreamRecord<std::string>::withTimestamp("a:R", kMinWatermark));
    FAIL() << "an element stamped with the no-timestamp marker must fail";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("interval join: a right element has no timestamp"));
  }
}

// ---- extremes ----

TEST(IntervalJoinOperatorTest, HugeBoundsSaturateInsteadOfWrapping) {
  Harness harness(makeJoin({kMinWatermark, kMaxWatermark}));
  harness.open();
  // From the left element at MAX - 1 the interval is [MAX - 1 + MIN, MAX] = [-2, MAX].
  harness.processElement1("a:L", kMaxWatermark - 1);
  harness.processElement2("a:R-3", -3);
  harness.processElement2("a:R-2", -2);
  harness.processElement2("a:Rmax", kMaxWatermark - 1);
  EXPECT_THAT(harness.getOutput().values(), ElementsAre("a:L|a:R-2", "a:L|a:Rmax"));
  harness.processWatermark1(kMaxWatermark);
  harness.processWatermark2(kMaxWatermark);
  EXPECT_EQ(harness.numKeyedStateEntries(), 0u);
  EXPECT_EQ(harness.numEventTimeTimers(), 0u);
}

}  // namespace
}  // namespace tidemark
