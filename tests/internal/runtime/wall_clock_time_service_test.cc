// The wall clock time service answers with the reading an input task's loop
// pinned for the batch, and fires timers against that same reading. Pinned
// readings lie far in the past here, so the real wall clock (decades later)
// cannot be what the service answers or fires by.
#include "tidemark/internal/runtime/wall_clock_time_service.h"

#include <gtest/gtest.h>

#include <vector>

namespace tidemark::internal {
namespace {

TEST(WallClockTimeServiceTest, UnpinnedReadsTheWallClock) {
  WallClockTimeService time;
  const Timestamp before = wallClockMillis();
  const Timestamp read = time.currentProcessingTime();
  EXPECT_LE(before, read);
  EXPECT_LE(read, wallClockMillis());
}

TEST(WallClockTimeServiceTest, AnswersWithThePinnedReading) {
  WallClockTimeService time;
  time.pin(1'000);
  EXPECT_EQ(time.currentProcessingTime(), 1'000);
  EXPECT_EQ(time.currentProcessingTime(), 1'000);
  time.pin(1'007);
  EXPECT_EQ(time.currentProcessingTime(), 1'007);
}

TEST(WallClockTimeServiceTest, AnEarlierReadingDoesNotMoveTimeBack) {
  WallClockTimeService time;
  time.pin(2'000);
  time.pin(1'500);  // the wall clock was set back
  EXPECT_EQ(time.currentProcessingTime(), 2'000);
}

TEST(WallClockTimeServiceTest, TimersFireAgainstThePinnedReading) {
  WallClockTimeService time;
  std::vector<Timestamp> fired;
  time.pin(1'000);
  time.registerTimer(1'001, [&](Timestamp now) { fired.push_back(now); });
  time.registerTimer(1'000, [&](Timestamp now) { fired.push_back(now); });
  time.fireDue();
  EXPECT_EQ(fired, (std::vector<Timestamp>{1'000}));
  EXPECT_EQ(time.nextDeadline(), 1'001);
  time.pin(1'001);
  time.fireDue();
  EXPECT_EQ(fired, (std::vector<Timestamp>{1'000, 1'001}));
  EXPECT_EQ(time.nextDeadline(), kMaxWatermark);
}

}  // namespace
}  // namespace tidemark::internal
