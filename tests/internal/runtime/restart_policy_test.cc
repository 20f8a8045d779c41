// Which failures a restart strategy survives: fixed delay counts restarts,
// failure rate looks at the newest failures' instants.
#include "tidemark/internal/runtime/restart_policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <climits>
#include <stdexcept>

namespace tidemark::internal {
namespace {

using testing::ThrowsMessage;

TEST(RestartPolicyTest, NoRestartNeverRestarts) {
  RestartPolicy policy(RestartStrategies::noRestart());
  EXPECT_FALSE(policy.restartAfterFailureAt(0));
  EXPECT_EQ(policy.strategy().describe(), "no restart");
}

TEST(RestartPolicyTest, FixedDelayRestartsTheGivenNumberOfTimesThenFails) {
  RestartPolicy policy(RestartStrategies::fixedDelayRestart(2, 500));
  EXPECT_TRUE(policy.restartAfterFailureAt(10));
  EXPECT_TRUE(policy.restartAfterFailureAt(20));
  EXPECT_FALSE(policy.restartAfterFailureAt(100000));
  EXPECT_EQ(policy.delay(), 500);
  EXPECT_EQ(policy.strategy().describe(), "fixed delay (2 restarts, 500 ms apart)");
  EXPECT_EQ(RestartStrategies::fixedDelayRestart(INT_MAX, 1000).describe(),
            "fixed delay (unlimited restarts, 1000 ms apart)");
}

TEST(RestartPolicyTest, FixedDelayWithNoAttemptsFailsAtTheFirstFailure) {
  RestartPolicy policy(RestartStrategies::fixedDelayRestart(0, 0));
  EXPECT_FALSE(policy.restartAfterFailureAt(0));
}

TEST(RestartPolicyTest, FailureRateFailsAtTheNthFailureWithinTheInterval) {
  RestartPolicy policy(RestartStrategies::failureRateRestart(3, 1000, 0));
  EXPECT_TRUE(policy.restartAfterFailureAt(0));
  EXPECT_TRUE(policy.restartAfterFailureAt(400));
  // The third failure within 1000 ms of the first: the job fails.
  EXPECT_FALSE(policy.restartAfterFailureAt(1000));
}

TEST(RestartPolicyTest, FailureRateRestartsWhenTheOldestOfTheNewestFailuresIsOutsideTheInterval) {
  RestartPolicy policy(RestartStrategies::failureRateRestart(3, 1000, 0));
  EXPECT_TRUE(policy.restartAfterFailureAt(0));
  EXPECT_TRUE(policy.restartAfterFailureAt(400));
  EXPECT_TRUE(policy.restartAfterFailureAt(1001));  // 0 is more than 1000 ms before
  EXPECT_TRUE(policy.restartAfterFailureAt(1500));  // 400 is more than 1000 ms before
  EXPECT_FALSE(policy.restartAfterFailureAt(2000));  // 1001, 1500, 2000 within 1000 ms
}

TEST(RestartPolicyTest, FailureRateOfOneNeverRestarts) {
  RestartPolicy policy(RestartStrategies::failureRateRestart(1, 1000, 0));
  EXPECT_FALSE(policy.restartAfterFailureAt(5000));
}

TEST(RestartPolicyTest, ImpossibleArgumentsAreRefusedNamingThem) {
  EXPECT_THAT([] { RestartStrategies::fixedDelayRestart(-1, 0); },
              ThrowsMessage<std::invalid_argument>("fixedDelayRestart(-1, ...): the number of restarts must be at least 0"));
  EXPECT_THAT([] { RestartStrategies::fixedDelayRestart(1, -5); },
              ThrowsMessage<std::invalid_argument>("fixedDelayRestart(..., -5): the delay must be at least 0 ms"));
  EXPECT_THAT([] { RestartStrategies::failureRateRestart(0, 10, 0); },
              ThrowsMessage<std::invalid_argument>(
                  "failureRateRestart(0, ...): the number of failures per interval must be at least 1"));
  EXPECT_THAT([] { RestartStrategies::failureRateRestart(1, 0, 0); },
              ThrowsMessage<std::invalid_argument>(
                  "failureRateRestart(..., 0, ...): the failure interval must be at least 1 ms"));
  EXPECT_THAT([] { RestartStrategies::failureRateRestart(1, 10, -1); },
              ThrowsMessage<std::invalid_argument>("failureRateRestart(..., -1): the delay must be at least 0 ms"));
}

}  // namespace
}  // namespace tidemark::internal
