// The built-in evictors (docs/semantics.md 4.9): CountEvictor, TimeEvictor and
// DeltaEvictor, each evicting before or after the window function, with time
// and global windows, and their argument checks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/core/time.h"
#include "tidemark/windowing/count_evictor.h"
#include "tidemark/windowing/delta_evictor.h"
#include "tidemark/windowing/evictor.h"
#include "tidemark/windowing/global_window.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/time_evictor.h"

namespace tidemark {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// The built-in evictors read neither clock; fixed values make any accidental
// use visible as a wrong result rather than a flaky one.
class FakeEvictorContext final : public EvictorContext {
 public:
  Timestamp getCurrentProcessingTime() const override { return 1'000'000; }
  Timestamp getCurrentWatermark() const override { return 500'000; }
};

template <class T>
TimestampedValue<T> at(T value, Timestamp timestamp) {
  return TimestampedValue<T>{std::move(value), timestamp, true};
}

template <class T>
TimestampedValue<T> untimed(T value) {
  return TimestampedValue<T>{std::move(value), kMinWatermark, false};
}

template <class T>
std::vector<T> valuesOf(const std::vector<TimestampedValue<T>>& elements) {
  std::vector<T> values;
  for (const auto& element : elements) values.push_back(element.getValue());
  return values;
}

// What the window holds after each of the two eviction points of a firing.
template <class T>
struct EvictionSteps {
  std::vector<T> after_evict_before;
  std::vector<T> after_evict_after;
};

// Builds the evictor from `spec` the way WindowedStream::evictor() does and
// runs one firing's two eviction points on `elements`.
template <class T, class W, class Spec>
EvictionSteps<T> runFiring(const Spec& spec, std::vector<TimestampedValue<T>> elements, const W& window) {
  std::unique_ptr<Evictor<T, W>> evictor = internal::makeEvictor<T, W>(spec);
  const FakeEvictorContext ctx;
  EvictionSteps<T> steps;
  evictor->evictBefore(elements, window, ctx);
  steps.after_evict_before = valuesOf(elements);
  evictor->evictAfter(elements, window, ctx);
  steps.after_evict_after = valuesOf(elements);
  return steps;
}

template <class F>
std::string invalidArgumentMessage(F&& make) {
  try {
    make();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected std::invalid_argument";
  return "";
}

const TimeWindow kWindow{0, 100};

double absoluteDifference(const int& a, const int& b) { return std::abs(static_cast<double>(a - b)); }

static_assert(EvictorSpec<CountEvictor, int, TimeWindow>);
static_assert(EvictorSpec<CountEvictor, std::string, GlobalWindow>);
static_assert(EvictorSpec<TimeEvictor, double, TimeWindow>);
static_assert(EvictorSpec<DeltaEvictorSpec<double (*)(const int&, const int&)>, int, GlobalWindow>);

// ---------------------------------------------------------------- CountEvictor

TEST(CountEvictorTest, EvictsTheOldestBeforeTheFunctionByDefault) {
  const auto steps = runFiring(CountEvictor::of(3), std::vector{at(1, 10), at(2, 11), at(3, 12), at(4, 13), at(5, 14)},
                               kWindow);
  EXPECT_THAT(steps.after_evict_before, ElementsAre(3, 4, 5));
  EXPECT_THAT(steps.after_evict_after, ElementsAre(3, 4, 5));
}

TEST(CountEvictorTest, EvictsAfterTheFunctionWhenAsked) {
  const auto steps = runFiring(CountEvictor::of(3, true),
                               std::vector{at(1, 10), at(2, 11), at(3, 12), at(4, 13), at(5, 14)}, GlobalWindow::get());
  EXPECT_THAT(steps.after_evict_before, ElementsAre(1, 2, 3, 4, 5));
  EXPECT_THAT(steps.after_evict_after, ElementsAre(3, 4, 5));
}

TEST(CountEvictorTest, KeepsByArrivalOrderNotByTimestamp) {
  const auto steps = runFiring(CountEvictor::of(2), std::vector{at(1, 50), at(2, 10), at(3, 40), at(4, 20)}, kWindow);
  EXPECT_THAT(steps.after_evict_before, ElementsAre(3, 4));
}

TEST(CountEvictorTest, LeavesAWindowWithAtMostMaxCountElementsAlone) {
  EXPECT_THAT(runFiring(CountEvictor::of(3), std::vector{at(1, 10), at(2, 11), at(3, 12)}, kWindow).after_evict_after,
              ElementsAre(1, 2, 3));
  EXPECT_THAT(runFiring(CountEvictor::of(7, true), std::vector{at(1, 10), at(2, 11)}, kWindow).after_evict_after,
              ElementsAre(1, 2));
}

TEST(CountEvictorTest, MaxCountZeroEmptiesTheWindow) {
  const auto before = runFiring(CountEvictor::of(0), std::vector{at(1, 10), at(2, 11)}, GlobalWindow::get());
  EXPECT_THAT(before.after_evict_before, IsEmpty());
  const auto after = runFiring(CountEvictor::of(0, true), std::vector{at(1, 10), at(2, 11)}, GlobalWindow::get());
  EXPECT_THAT(after.after_evict_before, ElementsAre(1, 2));
  EXPECT_THAT(after.after_evict_after, IsEmpty());
}

TEST(CountEvictorTest, CountsElementsWithoutTimestamps) {
  const auto steps =
      runFiring(CountEvictor::of(2), std::vector{untimed(1), untimed(2), untimed(3)}, GlobalWindow::get());
  EXPECT_THAT(steps.after_evict_before, ElementsAre(2, 3));
  EXPECT_THAT(steps.after_evict_after, ElementsAre(2, 3));
}

TEST(CountEvictorTest, EmptyWindowStaysEmpty) {
  for (const bool evict_after : {false, true}) {
    const auto steps = runFiring(CountEvictor::of(2, evict_after), std::vector<TimestampedValue<int>>{}, kWindow);
    EXPECT_THAT(steps.after_evict_before, IsEmpty()) << "doEvictAfter " << evict_after;
    EXPECT_THAT(steps.after_evict_after, IsEmpty()) << "doEvictAfter " << evict_after;
  }
}

TEST(CountEvictorTest, OneSpecBuildsForTwoElementTypes) {
  const CountEvictor spec = CountEvictor::of(1);
  EXPECT_THAT(runFiring(spec, std::vector{at(1, 10), at(2, 11)}, kWindow).after_evict_before, ElementsAre(2));
  EXPECT_THAT(runFiring(spec, std::vector{untimed(std::string("a")), untimed(std::string("b"))}, GlobalWindow::get())
                  .after_evict_before,
              ElementsAre("b"));
}

TEST(CountEvictorTest, ReportsItsArguments) {
  EXPECT_EQ(CountEvictor::of(4).getMaxCount(), 4);
  EXPECT_FALSE(CountEvictor::of(4).isEvictAfter());
  EXPECT_TRUE(CountEvictor::of(4, true).isEvictAfter());
}

TEST(CountEvictorTest, RejectsANegativeMaxCount) {
  EXPECT_THAT(invalidArgumentMessage([] { (void)CountEvictor::of(-1); }),
              AllOf(HasSubstr("CountEvictor"), HasSubstr("-1")));
  EXPECT_THAT(invalidArgumentMessage([] { (void)CountEvictor::of(-7, true); }),
              AllOf(HasSubstr("CountEvictor"), HasSubstr("-7")));
}

// ----------------------------------------------------------------- TimeEvictor

// Arrival order differs from timestamp order; max is 25, so with window size
// 10 the cutoff is 15 and @15 (at the cutoff) goes as well as @5.
std::vector<TimestampedValue<int>> outOfOrderElements() {
  return {at(1, 16), at(2, 5), at(3, 25), at(4, 15), at(5, 20)};
}

TEST(TimeEvictorTest, EvictsOlderThanWindowSizeBeforeTheFunctionByDefault) {
  const auto steps = runFiring(TimeEvictor::of(10), outOfOrderElements(), kWindow);
  EXPECT_THAT(steps.after_evict_before, ElementsAre(1, 3, 5));
  EXPECT_THAT(steps.after_evict_after, ElementsAre(1, 3, 5));
}

TEST(TimeEvictorTest, EvictsAfterTheFunctionWhenAsked) {
  const auto steps = runFiring(TimeEvictor::of(10, true), outOfOrderElements(), GlobalWindow::get());
  EXPECT_THAT(steps.after_evict_before, ElementsAre(1, 2, 3, 4, 5));
  EXPECT_THAT(steps.after_evict_after, ElementsAre(1, 3, 5));
}

TEST(TimeEvictorTest, EvictsAnElementExactlyWindowSizeOlderThanTheNewest) {
  const auto steps = runFiring(TimeEvictor::of(10), std::vector{at(1, 10), at(2, 11), at(3, 20)}, kWindow);
  EXPECT_THAT(steps.after_evict_before, ElementsAre(2, 3));
}

TEST(TimeEvictorTest, KeptElementsKeepTheirTimestamps) {
  std::vector<TimestampedValue<int>> elements = outOfOrderElements();
  const FakeEvictorContext ctx;
  TimeEvictor::of(10).build<int, TimeWindow>()->evictBefore(elements, kWindow, ctx);
  const std::vector<TimestampedValue<int>> expected{at(1, 16), at(3, 25), at(5, 20)};
  EXPECT_TRUE(elements == expected);
}

TEST(TimeEvictorTest, WindowSizeZeroEvictsEveryElementWithATimestamp) {
  const auto steps = runFiring(TimeEvictor::of(0), std::vector{at(1, 5), at(2, 5)}, kWindow);
  EXPECT_THAT(steps.after_evict_before, IsEmpty());
}

TEST(TimeEvictorTest, EvictsNothingWhenElementsHaveNoTimestamps) {
  for (const bool evict_after : {false, true}) {
    const auto steps =
        runFiring(TimeEvictor::of(0, evict_after), std::vector{untimed(1), untimed(2), untimed(3)}, GlobalWindow::get());
    EXPECT_THAT(steps.after_evict_before, ElementsAre(1, 2, 3)) << "doEvictAfter " << evict_after;
    EXPECT_THAT(steps.after_evict_after, ElementsAre(1, 2, 3)) << "doEvictAfter " << evict_after;
  }
}

// As in Flink, the first element decides whether the window has timestamps.
TEST(TimeEvictorTest, FirstElementWithoutTimestampDisablesEviction) {
  const auto steps = runFiring(TimeEvictor::of(10), std::vector{untimed(1), at(2, 100), at(3, 0)}, GlobalWindow::get());
  EXPECT_THAT(steps.after_evict_before, ElementsAre(1, 2, 3));
}

TEST(TimeEvictorTest, LaterElementWithoutTimestampIsEvicted) {
  const auto steps =
      runFiring(TimeEvictor::of(10), std::vector{at(1, 100), untimed(2), at(3, 95), at(4, 80)}, GlobalWindow::get());
  EXPECT_THAT(steps.after_evict_before, ElementsAre(1, 3));
}

TEST(TimeEvictorTest, CutoffSaturatesInsteadOfWrapping) {
  // MIN + 5 - 10 would wrap to near MAX and evict everything.
  const auto near_min = runFiring(TimeEvictor::of(10), std::vector{at(1, kMinWatermark + 3), at(2, kMinWatermark + 5)},
                                  GlobalWindow::get());
  EXPECT_THAT(near_min.after_evict_before, ElementsAre(1, 2));
  const auto huge_size = runFiring(TimeEvictor::of(kMaxWatermark), std::vector{at(1, -5), at(2, -3)}, kWindow);
  EXPECT_THAT(huge_size.after_evict_before, ElementsAre(1, 2));
}

TEST(TimeEvictorTest, EmptyWindowStaysEmpty) {
  for (const bool evict_after : {false, true}) {
    const auto steps = runFiring(TimeEvictor::of(10, evict_after), std::vector<TimestampedValue<int>>{}, kWindow);
    EXPECT_THAT(steps.after_evict_before, IsEmpty()) << "doEvictAfter " << evict_after;
    EXPECT_THAT(steps.after_evict_after, IsEmpty()) << "doEvictAfter " << evict_after;
  }
}

TEST(TimeEvictorTest, AcceptsChronoDurationsTruncatedToMilliseconds) {
  EXPECT_EQ(TimeEvictor::of(std::chrono::seconds(2)).getWindowSize(), 2000);
  EXPECT_FALSE(TimeEvictor::of(std::chrono::seconds(2)).isEvictAfter());
  EXPECT_TRUE(TimeEvictor::of(std::chrono::seconds(2), true).isEvictAfter());
  EXPECT_EQ(TimeEvictor::of(std::chrono::microseconds(1500)).getWindowSize(), 1);
  const auto steps = runFiring(TimeEvictor::of(std::chrono::milliseconds(10)), outOfOrderElements(), kWindow);
  EXPECT_THAT(steps.after_evict_before, ElementsAre(1, 3, 5));
}

TEST(TimeEvictorTest, OneSpecBuildsForTwoElementTypes) {
  const TimeEvictor spec = TimeEvictor::of(5);
  EXPECT_THAT(runFiring(spec, std::vector{at(std::string("old"), 1), at(std::string("new"), 10)}, kWindow)
                  .after_evict_before,
              ElementsAre("new"));
  EXPECT_THAT(runFiring(spec, std::vector{at(0.5, 6), at(1.5, 10)}, GlobalWindow::get()).after_evict_before,
              ElementsAre(0.5, 1.5));
}

TEST(TimeEvictorTest, RejectsANegativeWindowSize) {
  EXPECT_EQ(TimeEvictor::of(7).getWindowSize(), 7);
  EXPECT_THAT(invalidArgumentMessage([] { (void)TimeEvictor::of(-1); }),
              AllOf(HasSubstr("TimeEvictor"), HasSubstr("-1 ms")));
  EXPECT_THAT(invalidArgumentMessage([] { (void)TimeEvictor::of(-3, true); }),
              AllOf(HasSubstr("TimeEvictor"), HasSubstr("-3 ms")));
  EXPECT_THAT(invalidArgumentMessage([] { (void)TimeEvictor::of(std::chrono::seconds(-2)); }),
              AllOf(HasSubstr("TimeEvictor"), HasSubstr("-2000 ms")));
  // Refused although it truncates to 0 ms.
  EXPECT_THAT(invalidArgumentMessage([] { (void)TimeEvictor::of(std::chrono::microseconds(-500)); }),
              AllOf(HasSubstr("TimeEvictor"), HasSubstr("-0.5 ms")));
}

// ---------------------------------------------------------------- DeltaEvictor

// Last element is 6: deltas 4, 5, 2, 6, 0, so with threshold 5 the 1 and the
// 12 go, from the middle of the window.
std::vector<TimestampedValue<int>> deltaElements() { return {at(10, 1), at(1, 2), at(4, 3), at(12, 4), at(6, 5)}; }

TEST(DeltaEvictorTest, EvictsDeltaAtOrAboveThresholdBeforeTheFunctionByDefault) {
  const auto steps = runFiring(DeltaEvictor::of(5.0, absoluteDifference), deltaElements(), kWindow);
  EXPECT_THAT(steps.after_evict_before, ElementsAre(10, 4, 6));
  EXPECT_THAT(steps.after_evict_after, ElementsAre(10, 4, 6));
}

TEST(DeltaEvictorTest, EvictsAfterTheFunctionWhenAsked) {
  const auto steps = runFiring(DeltaEvictor::of(5.0, absoluteDifference, true), deltaElements(), GlobalWindow::get());
  EXPECT_THAT(steps.after_evict_before, ElementsAre(10, 1, 4, 12, 6));
  EXPECT_THAT(steps.after_evict_after, ElementsAre(10, 4, 6));
}

TEST(DeltaEvictorTest, ComparesEachElementWithTheLastInThatOrder) {
  std::vector<std::pair<int, int>> calls;
  const auto signed_difference = [&calls](const int& a, const int& b) {
    calls.emplace_back(a, b);
    return static_cast<double>(a - b);
  };
  // Deltas -4, 4, 0: only 9 reaches the threshold 3.
  const auto steps = runFiring(DeltaEvictor::of(3.0, signed_difference), std::vector{at(1, 1), at(9, 2), at(5, 3)},
                               GlobalWindow::get());
  EXPECT_THAT(steps.after_evict_before, ElementsAre(1, 5));
  EXPECT_THAT(calls, ElementsAre(std::pair(1, 5), std::pair(9, 5), std::pair(5, 5)));
}

TEST(DeltaEvictorTest, ThresholdZeroEvictsTheLastElementToo) {
  const auto steps = runFiring(DeltaEvictor::of(0.0, absoluteDifference), deltaElements(), kWindow);
  EXPECT_THAT(steps.after_evict_before, IsEmpty());
}

TEST(DeltaEvictorTest, IgnoresTimestamps) {
  const auto steps = runFiring(DeltaEvictor::of(5.0, absoluteDifference, true),
                               std::vector{untimed(10), untimed(1), untimed(4), untimed(12), untimed(6)},
                               GlobalWindow::get());
  EXPECT_THAT(steps.after_evict_after, ElementsAre(10, 4, 6));
}

TEST(DeltaEvictorTest, EmptyWindowStaysEmptyWithoutCallingTheDeltaFunction) {
  int calls = 0;
  const auto counting = [&calls](const int& a, const int& b) {
    ++calls;
    return absoluteDifference(a, b);
  };
  for (const bool evict_after : {false, true}) {
    const auto steps = runFiring(DeltaEvictor::of(1.0, counting, evict_after), std::vector<TimestampedValue<int>>{},
                                 GlobalWindow::get());
    EXPECT_THAT(steps.after_evict_before, IsEmpty()) << "doEvictAfter " << evict_after;
    EXPECT_THAT(steps.after_evict_after, IsEmpty()) << "doEvictAfter " << evict_after;
  }
  EXPECT_EQ(calls, 0);
}

TEST(DeltaEvictorTest, OneSpecWithAGenericDeltaBuildsForTwoElementTypes) {
  const auto spec = DeltaEvictor::of(1.0, [](const auto& a, const auto& b) {
    return std::abs(static_cast<double>(a) - static_cast<double>(b));
  });
  // int deltas to 3: 2, 1, 0 -> only 3 stays; double deltas to 3.0: 0.5, 0.1, 0 -> all stay.
  EXPECT_THAT(runFiring(spec, std::vector{at(1, 1), at(2, 2), at(3, 3)}, kWindow).after_evict_before, ElementsAre(3));
  EXPECT_THAT(runFiring(spec, std::vector{at(2.5, 1), at(2.9, 2), at(3.0, 3)}, GlobalWindow::get()).after_evict_before,
              ElementsAre(2.5, 2.9, 3.0));
}

TEST(DeltaEvictorTest, AcceptsAStdFunction) {
  const std::function<double(const int&, const int&)> delta = absoluteDifference;
  const auto steps = runFiring(DeltaEvictor::of(5.0, delta), deltaElements(), kWindow);
  EXPECT_THAT(steps.after_evict_before, ElementsAre(10, 4, 6));
}

TEST(DeltaEvictorTest, ReportsItsArguments) {
  const auto spec = DeltaEvictor::of(2.5, absoluteDifference);
  EXPECT_EQ(spec.getThreshold(), 2.5);
  EXPECT_FALSE(spec.isEvictAfter());
  EXPECT_EQ(spec.getDeltaFunction()(1, 4), 3.0);
  EXPECT_TRUE(DeltaEvictor::of(2.5, absoluteDifference, true).isEvictAfter());
}

TEST(DeltaEvictorTest, RejectsANanThreshold) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(invalidArgumentMessage([nan] { (void)DeltaEvictor::of(nan, absoluteDifference); }),
              AllOf(HasSubstr("DeltaEvictor"), HasSubstr("nan")));
  EXPECT_THAT(invalidArgumentMessage([nan] { (void)DeltaEvictor::of(nan, absoluteDifference, true); }),
              HasSubstr("DeltaEvictor"));
  // An infinite threshold is a number: nothing is ever far enough to go.
  const auto steps = runFiring(DeltaEvictor::of(std::numeric_limits<double>::infinity(), absoluteDifference),
                               deltaElements(), kWindow);
  EXPECT_THAT(steps.after_evict_before, ElementsAre(10, 1, 4, 12, 6));
}

}  // namespace
}  // namespace tidemark
