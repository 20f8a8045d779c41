#include "tidemark/internal/time/watermark_valve.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tidemark/core/time.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Property;
using ::testing::Throws;

constexpr auto kIdle = WatermarkStatus::IDLE;
constexpr auto kActive = WatermarkStatus::ACTIVE;

// Outputs are compared as text so that a failure shows both the watermark and
// the status, in the order the operator must handle them.
std::string describe(const WatermarkUpdate& output) {
  if (output.empty()) {
    return "nothing";
  }
  std::string text;
  if (output.watermark.has_value()) {
    const Timestamp w = *output.watermark;
    text = w == kMinWatermark ? "MIN" : w == kMaxWatermark ? "MAX" : std::to_string(w);
  }
  if (output.status.has_value()) {
    text += text.empty() ? "" : " then ";
    text += *output.status == kIdle ? "IDLE" : "ACTIVE";
  }
  return text;
}

template <class F>
void expectOutOfRange(F&& call, const std::string& index, const std::string& count) {
  EXPECT_THAT(call, Throws<std::out_of_range>(Property(&std::out_of_range::what,
                                                       AllOf(HasSubstr(index), HasSubstr(count)))));
}

// ---------------------------------------------------------------------------------------------
// WatermarkValve: watermarks only

TEST(WatermarkValveTest, InitialState) {
  WatermarkValve valve(3);
  EXPECT_EQ(valve.numChannels(), 3);
  EXPECT_EQ(valve.lastOutputWatermark(), kMinWatermark);
  EXPECT_EQ(valve.lastOutputStatus(), kActive);
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(valve.channelWatermark(c), kMinWatermark);
    EXPECT_FALSE(valve.isChannelIdle(c));
  }
}

TEST(WatermarkValveTest, WatermarkOutputEmpty) {
  EXPECT_TRUE(WatermarkUpdate{}.empty());
  EXPECT_FALSE((WatermarkUpdate{.watermark = 0, .status = std::nullopt}.empty()));
  EXPECT_FALSE((WatermarkUpdate{.watermark = std::nullopt, .status = kIdle}.empty()));
}

TEST(WatermarkValveTest, SingleChannelForwardsIncreasingWatermarks) {
  WatermarkValve valve(1);
  EXPECT_EQ(describe(valve.inputWatermark(0, 0)), "0");
  EXPECT_EQ(describe(valve.inputWatermark(0, 25)), "25");
  EXPECT_EQ(describe(valve.inputWatermark(0, 26)), "26");
  EXPECT_EQ(valve.lastOutputWatermark(), 26);
  EXPECT_EQ(valve.channelWatermark(0), 26);
}

TEST(WatermarkValveTest, NegativeWatermarksAreOrdinaryValues) {
  WatermarkValve valve(1);
  EXPECT_EQ(describe(valve.inputWatermark(0, -1000)), "-1000");
  EXPECT_EQ(describe(valve.inputWatermark(0, -999)), "-999");
}

TEST(WatermarkValveTest, EqualWatermarkIsNotReEmitted) {
  WatermarkValve valve(1);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "10");
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(valve.lastOutputWatermark(), 10);
}

TEST(WatermarkValveTest, SingleChannelDecreasingWatermarkIsIgnored) {
  WatermarkValve valve(1);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "10");
  EXPECT_EQ(describe(valve.inputWatermark(0, 3)), "nothing");
  EXPECT_EQ(valve.channelWatermark(0), 10);
  EXPECT_EQ(describe(valve.inputWatermark(0, 11)), "11");
}

TEST(WatermarkValveTest, MinWatermarkInputIsNeverEmitted) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, kMinWatermark)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, kMinWatermark)), "nothing");
  EXPECT_EQ(valve.lastOutputWatermark(), kMinWatermark);
}

TEST(WatermarkValveTest, NothingIsEmittedUntilEveryChannelSentAWatermark) {
  WatermarkValve valve(3);
  EXPECT_EQ(describe(valve.inputWatermark(0, 100)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(2, 50)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(0, 200)), "nothing");
  EXPECT_EQ(valve.lastOutputWatermark(), kMinWatermark);
  EXPECT_EQ(describe(valve.inputWatermark(1, 70)), "50");
}

TEST(WatermarkValveTest, MinOverTwoChannels) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 4)), "4");
  // The channel that is ahead moving further does not change the min.
  EXPECT_EQ(describe(valve.inputWatermark(0, 20)), "nothing");
  // The lagging channel overtaking: the min is now the other channel.
  EXPECT_EQ(describe(valve.inputWatermark(1, 30)), "20");
  EXPECT_EQ(describe(valve.inputWatermark(0, 25)), "25");
}

TEST(WatermarkValveTest, MinOverThreeChannels) {
  WatermarkValve valve(3);
  EXPECT_EQ(describe(valve.inputWatermark(0, 5)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 3)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(2, 7)), "3");
  EXPECT_EQ(describe(valve.inputWatermark(1, 6)), "5");
  EXPECT_EQ(describe(valve.inputWatermark(0, 8)), "6");
  EXPECT_EQ(describe(valve.inputWatermark(1, 9)), "7");
  EXPECT_EQ(describe(valve.inputWatermark(2, 8)), "8");
}

TEST(WatermarkValveTest, MinThatDoesNotIncreaseIsNotReEmitted) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 5)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 5)), "5");
  // Channel 0 advances, but channel 1 still holds the min at 5.
  EXPECT_EQ(describe(valve.inputWatermark(0, 6)), "nothing");
  EXPECT_EQ(valve.lastOutputWatermark(), 5);
}

TEST(WatermarkValveTest, PerChannelRegressionIsIgnoredAndDoesNotLowerTheChannel) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 5)), "5");
  EXPECT_EQ(describe(valve.inputWatermark(0, 7)), "nothing");
  EXPECT_EQ(valve.channelWatermark(0), 10);
  // Had 7 been stored, the min would now be 7 rather than 10.
  EXPECT_EQ(describe(valve.inputWatermark(1, 20)), "10");
}

TEST(WatermarkValveTest, MaxFromAllChannelsEmitsMax) {
  WatermarkValve valve(3);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 20)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(2, 30)), "10");
  EXPECT_EQ(describe(valve.inputWatermark(0, kMaxWatermark)), "20");
  EXPECT_EQ(describe(valve.inputWatermark(1, kMaxWatermark)), "30");
  EXPECT_EQ(describe(valve.inputWatermark(2, kMaxWatermark)), "MAX");
  EXPECT_EQ(describe(valve.inputWatermark(2, kMaxWatermark)), "nothing");
}

// ---------------------------------------------------------------------------------------------
// WatermarkValve: idleness

TEST(WatermarkValveTest, IdleChannelHoldingTheMinLetsItAdvance) {
  WatermarkValve valve(3);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 20)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(2, 5)), "5");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(2, kIdle)), "10");
  EXPECT_TRUE(valve.isChannelIdle(2));
  EXPECT_EQ(valve.lastOutputStatus(), kActive);
  EXPECT_EQ(describe(valve.inputWatermark(0, 30)), "20");
}

TEST(WatermarkValveTest, SilentChannelMarkedIdleUnblocksTheOthers) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  // Channel 1 never sent a watermark: it sits at MIN, which is the last output.
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "10");
  EXPECT_EQ(describe(valve.inputWatermark(0, 11)), "11");
}

TEST(WatermarkValveTest, IdleChannelAboveTheMinEmitsNothing) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 20)), "10");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "nothing");
  // Only channel 0 counts now.
  EXPECT_EQ(describe(valve.inputWatermark(0, 50)), "50");
}

TEST(WatermarkValveTest, AllIdleEmitsMaxWatermarkThenIdle) {
  WatermarkValve valve(3);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 30)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(2, 20)), "10");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(2, kIdle)), "nothing");
  // The last channel holds the min: flush to the furthest channel (30, held by
  // the idle channel 1), then go idle.
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kIdle)), "30 then IDLE");
  EXPECT_EQ(valve.lastOutputWatermark(), 30);
  EXPECT_EQ(valve.lastOutputStatus(), kIdle);
}

TEST(WatermarkValveTest, AllIdleWithoutAnyWatermarkEmitsOnlyIdle) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kIdle)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "IDLE");
  EXPECT_EQ(valve.lastOutputWatermark(), kMinWatermark);
}

TEST(WatermarkValveTest, AllIdleAtTheMaxAlreadyEmittedEmitsOnlyIdle) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 5)), "5");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "10");
  // 10 is already out; the flush must not repeat it.
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kIdle)), "IDLE");
}

TEST(WatermarkValveTest, RepeatedStatusIsANoOp) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kActive)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kIdle)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kIdle)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "IDLE");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kActive)), "ACTIVE");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kActive)), "nothing");
}

TEST(WatermarkValveTest, WatermarkOnIdleChannelIsIgnored) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 5)), "5");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "10");
  EXPECT_EQ(describe(valve.inputWatermark(1, 100)), "nothing");
  EXPECT_EQ(valve.channelWatermark(1), 5);
  EXPECT_EQ(valve.lastOutputWatermark(), 10);
}

TEST(WatermarkValveTest, WatermarkWhileTheWholeValveIsIdleIsIgnored) {
  WatermarkValve valve(1);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "10");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kIdle)), "IDLE");
  EXPECT_EQ(describe(valve.inputWatermark(0, 20)), "nothing");
  EXPECT_EQ(valve.channelWatermark(0), 10);
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kActive)), "ACTIVE");
  EXPECT_EQ(describe(valve.inputWatermark(0, 20)), "20");
}

TEST(WatermarkValveTest, ReactivationReportsActiveOnlyWhenTheValveWasIdle) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kIdle)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kActive)), "nothing");
  EXPECT_EQ(valve.lastOutputStatus(), kActive);
}

TEST(WatermarkValveTest, ReactivatedChannelBelowLastOutputStaysUnalignedUntilItCatchesUp) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 5)), "5");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "10");
  // Channel 1 is back at 5 < 10: it must not drag event time backwards.
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kActive)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 8)), "nothing");
  EXPECT_EQ(valve.channelWatermark(1), 8);
  // Still catching up, so channel 0 alone decides.
  EXPECT_EQ(describe(valve.inputWatermark(0, 20)), "20");
  EXPECT_EQ(describe(valve.inputWatermark(1, 15)), "nothing");
  // Reaching the last output aligns it; from now on it holds the min back.
  EXPECT_EQ(describe(valve.inputWatermark(1, 25)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(0, 40)), "25");
  EXPECT_EQ(describe(valve.inputWatermark(1, 30)), "30");
}

TEST(WatermarkValveTest, ReactivatedChannelCatchingUpExactlyToLastOutputIsAligned) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 5)), "5");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "10");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kActive)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 10)), "nothing");
  // Channel 1 (10) now holds the min, so channel 0 moving ahead emits nothing.
  EXPECT_EQ(describe(valve.inputWatermark(0, 20)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 12)), "12");
}

TEST(WatermarkValveTest, ReactivatedChannelAtOrAboveLastOutputRejoinsImmediately) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 20)), "10");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kActive)), "nothing");
  // Channel 1 (20) is back in the min, so channel 0 jumping to 30 yields 20.
  EXPECT_EQ(describe(valve.inputWatermark(0, 30)), "20");
}

TEST(WatermarkValveTest, OnlyUnalignedActiveChannelsEmitNothing) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 5)), "5");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "10");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kActive)), "nothing");
  // Channel 0 held the min; the only active channel left is unaligned, so
  // there is no min at all (in particular no MAX).
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kIdle)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 7)), "nothing");
  EXPECT_EQ(valve.lastOutputWatermark(), 10);
  // Channel 1 was not at the last output, so going idle flushes nothing.
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "IDLE");
  EXPECT_EQ(valve.lastOutputWatermark(), 10);
}

// The flush to the max happens only when the channel going idle last is the one
// sitting at the emitted watermark; a catching-up channel going idle last
// leaves event time where it is, even though an earlier idle channel was ahead.
TEST(WatermarkValveTest, AllIdleFlushesOnlyWhenTheLastChannelHeldTheWatermark) {
  WatermarkValve valve(3);
  EXPECT_EQ(describe(valve.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 20)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(2, 5)), "5");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(2, kIdle)), "10");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(2, kActive)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kIdle)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(2, 7)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(2, kIdle)), "IDLE");
  EXPECT_EQ(valve.lastOutputWatermark(), 10);
}

TEST(WatermarkValveTest, ReactivationAfterAllIdleCatchesUpToTheFlushedMax) {
  WatermarkValve valve(2);
  EXPECT_EQ(describe(valve.inputWatermark(0, 5)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(1, 10)), "5");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kIdle)), "10");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(1, kIdle)), "IDLE");
  EXPECT_EQ(describe(valve.inputWatermarkStatus(0, kActive)), "ACTIVE");
  EXPECT_EQ(valve.lastOutputStatus(), kActive);
  EXPECT_EQ(describe(valve.inputWatermark(0, 8)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(0, 12)), "12");
}

TEST(WatermarkValveTest, ChannelIndexOutOfRangeThrows) {
  WatermarkValve valve(3);
  expectOutOfRange([&] { (void)valve.inputWatermark(3, 1); }, "3", "3");
  expectOutOfRange([&] { (void)valve.inputWatermark(-1, 1); }, "-1", "3");
  expectOutOfRange([&] { (void)valve.inputWatermarkStatus(7, kIdle); }, "7", "3");
  expectOutOfRange([&] { (void)valve.channelWatermark(3); }, "3", "3");
  expectOutOfRange([&] { (void)valve.isChannelIdle(-2); }, "-2", "3");
  // A rejected call leaves the valve untouched.
  EXPECT_EQ(valve.lastOutputWatermark(), kMinWatermark);
  EXPECT_EQ(valve.lastOutputStatus(), kActive);
}

TEST(WatermarkValveTest, ConstructorRejectsNoChannels) {
  EXPECT_THROW(WatermarkValve(0), std::invalid_argument);
  EXPECT_THROW(WatermarkValve(-1), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// CombinedWatermark

TEST(CombinedWatermarkTest, InitialState) {
  CombinedWatermark combined(2);
  EXPECT_EQ(combined.combinedWatermark(), kMinWatermark);
  EXPECT_FALSE(combined.isIdle());
}

TEST(CombinedWatermarkTest, SilentInputFreezesEventTimeAtMin) {
  CombinedWatermark combined(2);
  EXPECT_EQ(describe(combined.updateWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(0, 1000)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(0, kMaxWatermark)), "nothing");
  EXPECT_EQ(combined.combinedWatermark(), kMinWatermark);
}

TEST(CombinedWatermarkTest, MinOfTwoInputsEmittedOnlyWhenStrictlyGreater) {
  CombinedWatermark combined(2);
  EXPECT_EQ(describe(combined.updateWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(1, 4)), "4");
  EXPECT_EQ(describe(combined.updateWatermark(1, 4)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(0, 12)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(1, 11)), "11");
  EXPECT_EQ(describe(combined.updateWatermark(1, 20)), "12");
  EXPECT_EQ(combined.combinedWatermark(), 12);
}

TEST(CombinedWatermarkTest, LowerWatermarkOnAnInputDoesNotRegressIt) {
  CombinedWatermark combined(2);
  EXPECT_EQ(describe(combined.updateWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(1, 20)), "10");
  EXPECT_EQ(describe(combined.updateWatermark(1, 5)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(0, 30)), "20");
}

TEST(CombinedWatermarkTest, BothInputsAtMaxGiveMax) {
  CombinedWatermark combined(2);
  EXPECT_EQ(describe(combined.updateWatermark(0, kMaxWatermark)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(1, kMaxWatermark)), "MAX");
}

TEST(CombinedWatermarkTest, IdleSilentInputNoLongerHoldsEventTimeBack) {
  CombinedWatermark combined(2);
  EXPECT_EQ(describe(combined.updateWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(combined.updateStatus(1, kIdle)), "10");
  EXPECT_FALSE(combined.isIdle());
  EXPECT_EQ(describe(combined.updateWatermark(0, 15)), "15");
}

TEST(CombinedWatermarkTest, AllInputsIdleReportsIdleAndKeepsTheWatermark) {
  CombinedWatermark combined(2);
  EXPECT_EQ(describe(combined.updateWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(1, 5)), "5");
  EXPECT_EQ(describe(combined.updateStatus(1, kIdle)), "10");
  EXPECT_EQ(describe(combined.updateStatus(0, kIdle)), "IDLE");
  EXPECT_TRUE(combined.isIdle());
  EXPECT_EQ(combined.combinedWatermark(), 10);
  EXPECT_EQ(describe(combined.updateStatus(0, kIdle)), "nothing");
}

TEST(CombinedWatermarkTest, InputBecomingActiveAgainReportsActive) {
  CombinedWatermark combined(2);
  EXPECT_EQ(describe(combined.updateWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(1, 10)), "10");
  EXPECT_EQ(describe(combined.updateStatus(0, kIdle)), "nothing");
  EXPECT_EQ(describe(combined.updateStatus(1, kIdle)), "IDLE");
  EXPECT_EQ(describe(combined.updateStatus(1, kActive)), "ACTIVE");
  EXPECT_FALSE(combined.isIdle());
  EXPECT_EQ(describe(combined.updateStatus(1, kActive)), "nothing");
  // Input 0 is still idle, so input 1 alone drives event time.
  EXPECT_EQ(describe(combined.updateWatermark(1, 30)), "30");
}

TEST(CombinedWatermarkTest, ReactivatedInputAheadEmitsItsWatermarkBeforeActive) {
  CombinedWatermark combined(2);
  EXPECT_EQ(describe(combined.updateWatermark(0, 10)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(1, 5)), "5");
  EXPECT_EQ(describe(combined.updateStatus(0, kIdle)), "nothing");
  EXPECT_EQ(describe(combined.updateStatus(1, kIdle)), "IDLE");
  EXPECT_EQ(combined.combinedWatermark(), 5);
  EXPECT_EQ(describe(combined.updateStatus(0, kActive)), "10 then ACTIVE");
}

TEST(CombinedWatermarkTest, ReactivatedInputBehindDoesNotMoveEventTimeBack) {
  CombinedWatermark combined(2);
  EXPECT_EQ(describe(combined.updateWatermark(0, 5)), "nothing");
  EXPECT_EQ(describe(combined.updateStatus(0, kIdle)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(1, 20)), "20");
  EXPECT_EQ(describe(combined.updateStatus(0, kActive)), "nothing");
  EXPECT_EQ(combined.combinedWatermark(), 20);
  // Input 0 holds the min again, so input 1 advancing emits nothing.
  EXPECT_EQ(describe(combined.updateWatermark(1, 40)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(0, 25)), "25");
}

TEST(CombinedWatermarkTest, WatermarkOnAnIdleInputMakesItActive) {
  CombinedWatermark combined(1);
  EXPECT_EQ(describe(combined.updateStatus(0, kIdle)), "IDLE");
  EXPECT_EQ(describe(combined.updateWatermark(0, 7)), "7 then ACTIVE");
  EXPECT_FALSE(combined.isIdle());
}

TEST(CombinedWatermarkTest, ThreeInputs) {
  CombinedWatermark combined(3);
  EXPECT_EQ(describe(combined.updateWatermark(0, 3)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(1, 1)), "nothing");
  EXPECT_EQ(describe(combined.updateWatermark(2, 2)), "1");
  EXPECT_EQ(describe(combined.updateStatus(1, kIdle)), "2");
  EXPECT_EQ(describe(combined.updateWatermark(2, 9)), "3");
}

TEST(CombinedWatermarkTest, InputIndexOutOfRangeThrows) {
  CombinedWatermark combined(2);
  expectOutOfRange([&] { (void)combined.updateWatermark(2, 1); }, "2", "2");
  expectOutOfRange([&] { (void)combined.updateWatermark(-1, 1); }, "-1", "2");
  expectOutOfRange([&] { (void)combined.updateStatus(5, kIdle); }, "5", "2");
  EXPECT_FALSE(combined.isIdle());
  EXPECT_EQ(combined.combinedWatermark(), kMinWatermark);
}

TEST(CombinedWatermarkTest, ConstructorRejectsNoInputs) {
  EXPECT_THROW(CombinedWatermark(0), std::invalid_argument);
}

// A two-input operator with two upstream subtasks per input: each input goes
// through its own valve, and the combiner only sees what the valves emit.
TEST(CombinedWatermarkTest, TwoValvesFeedingACombiner) {
  WatermarkValve left(2);
  WatermarkValve right(2);
  CombinedWatermark combined(2);
  // Applies a valve's output to the combiner in the order the operator would
  // and reports everything the combiner asked for.
  auto feed = [&combined](int input, const WatermarkUpdate& valved) -> std::string {
    std::string result;
    auto append = [&result](const WatermarkUpdate& out) {
      if (!out.empty()) {
        result += (result.empty() ? "" : ", ") + describe(out);
      }
    };
    if (valved.watermark.has_value()) {
      append(combined.updateWatermark(input, *valved.watermark));
    }
    if (valved.status.has_value()) {
      append(combined.updateStatus(input, *valved.status));
    }
    return result.empty() ? "nothing" : result;
  };
  EXPECT_EQ(feed(0, left.inputWatermark(0, 10)), "nothing");
  EXPECT_EQ(feed(0, left.inputWatermark(1, 12)), "nothing");
  EXPECT_EQ(feed(1, right.inputWatermark(0, 8)), "nothing");
  EXPECT_EQ(feed(1, right.inputWatermark(1, 9)), "8");
  EXPECT_EQ(feed(1, right.inputWatermarkStatus(0, kIdle)), "9");
  // The right valve goes idle without a flush (9 is already its max); the
  // combiner drops the right input and follows the left one.
  EXPECT_EQ(feed(1, right.inputWatermarkStatus(1, kIdle)), "10");
  EXPECT_EQ(feed(0, left.inputWatermark(0, kMaxWatermark)), "12");
  EXPECT_EQ(feed(0, left.inputWatermark(1, kMaxWatermark)), "MAX");
}

// A restored valve behaves as the one it was taken from, whatever the
// channels' state: one idle, one not aligned, one ahead.
TEST(WatermarkValveSnapshotTest, RestoredValveGoesOnAsTheOriginal) {
  WatermarkValve original(3);
  (void)original.inputWatermark(0, 10);
  (void)original.inputWatermark(1, 20);
  (void)original.inputWatermark(2, 30);
  (void)original.inputWatermarkStatus(0, kIdle);  // emits 20
  (void)original.inputWatermarkStatus(1, kIdle);  // emits 30
  (void)original.inputWatermarkStatus(1, kActive);  // back, but below 30: not aligned
  WatermarkValve restored(3);
  restored.restore(original.snapshot());
  EXPECT_EQ(restored.snapshot(), original.snapshot());
  EXPECT_EQ(restored.lastOutputWatermark(), 30);
  EXPECT_TRUE(restored.isChannelIdle(0));
  // The same inputs give the same outputs on both.
  for (WatermarkValve* valve : {&original, &restored}) {
    SCOPED_TRACE(valve == &original ? "original" : "restored");
    EXPECT_EQ(describe(valve->inputWatermark(1, 25)), "nothing");
    // Channel 1 is below 30, so not aligned: channel 2 alone decides.
    EXPECT_EQ(describe(valve->inputWatermark(2, 40)), "40");
    EXPECT_EQ(describe(valve->inputWatermark(1, 45)), "nothing");
    EXPECT_EQ(describe(valve->inputWatermarkStatus(0, kActive)), "nothing");
    EXPECT_EQ(describe(valve->inputWatermark(0, 50)), "nothing");
    EXPECT_EQ(describe(valve->inputWatermark(2, 60)), "45");
  }
}

TEST(WatermarkValveSnapshotTest, RestoredIdleValveStaysIdleUntilAChannelComesBack) {
  WatermarkValve original(2);
  (void)original.inputWatermark(0, 7);
  (void)original.inputWatermarkStatus(0, kIdle);
  EXPECT_EQ(describe(original.inputWatermarkStatus(1, kIdle)), "7 then IDLE");
  WatermarkValve restored(2);
  restored.restore(original.snapshot());
  EXPECT_EQ(restored.lastOutputStatus(), kIdle);
  EXPECT_EQ(describe(restored.inputWatermark(1, 5)), "nothing");  // idle channels send nothing that counts
  EXPECT_EQ(describe(restored.inputWatermarkStatus(1, kActive)), "ACTIVE");
  EXPECT_EQ(describe(restored.inputWatermark(1, 9)), "9");
}

TEST(WatermarkValveSnapshotTest, RefusesASnapshotOfAnotherChannelCount) {
  WatermarkValve two(2);
  WatermarkValve three(3);
  const auto message = HasSubstr("a valve snapshot of 2 channels cannot restore a valve of 3");
  EXPECT_THAT([&] { three.restore(two.snapshot()); },
              Throws<std::invalid_argument>(Property(&std::invalid_argument::what, message)));
}

TEST(WatermarkValveSnapshotTest, StartAtCountsTheWatermarkAsEmitted) {
  WatermarkValve valve(2);
  valve.startAt(100);
  EXPECT_EQ(describe(valve.inputWatermark(0, 90)), "nothing");
  EXPECT_EQ(describe(valve.inputWatermark(0, 120)), "nothing");  // channel 1 still at 100
  EXPECT_EQ(describe(valve.inputWatermark(1, 110)), "110");
}

TEST(CombinedWatermarkSnapshotTest, RestoredCombinerKeepsAnIdleInputOut) {
  CombinedWatermark original(2);
  (void)original.updateWatermark(0, 5);
  (void)original.updateWatermark(1, 3);
  EXPECT_EQ(describe(original.updateStatus(1, kIdle)), "5");
  CombinedWatermark restored(2);
  restored.restore(original.snapshot());
  EXPECT_EQ(restored.snapshot(), original.snapshot());
  EXPECT_EQ(restored.combinedWatermark(), 5);
  // Input 1 is still idle: input 0 alone moves event time.
  EXPECT_EQ(describe(restored.updateWatermark(0, 8)), "8");
  CombinedWatermark other(3);
  EXPECT_THROW(other.restore(original.snapshot()), std::invalid_argument);
  CombinedWatermark rescaled(2);
  rescaled.startAt(5);
  EXPECT_EQ(describe(rescaled.updateWatermark(0, 8)), "nothing");
  EXPECT_EQ(describe(rescaled.updateWatermark(1, 6)), "6");
}

// Both snapshots go into checkpoints as bytes.
TEST(WatermarkValveSnapshotTest, SnapshotsSurviveTheirBytes) {
  WatermarkValve valve(2);
  (void)valve.inputWatermark(0, 11);
  (void)valve.inputWatermarkStatus(1, kIdle);
  const ValveSnapshot taken = valve.snapshot();
  EXPECT_EQ(deserializeFromBytes<ValveSnapshot>(serializeToBytes(taken)), taken);
  CombinedWatermark combined(2);
  (void)combined.updateWatermark(0, 4);
  (void)combined.updateStatus(1, kIdle);
  const CombinedWatermarkSnapshot combined_taken = combined.snapshot();
  EXPECT_EQ(deserializeFromBytes<CombinedWatermarkSnapshot>(serializeToBytes(combined_taken)), combined_taken);
}

}  // namespace
}  // namespace tidemark::internal
