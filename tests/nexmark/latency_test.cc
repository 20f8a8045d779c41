#include <gtest/gtest.h>

#include <memory>

#include "nexmark/latency_histogram.h"
#include "nexmark/query.h"

namespace tidemark::nexmark {
namespace {

TEST(LatencyHistogramTest, IsExactForSmallValuesAndWithinThreePercentAbove) {
  LatencyHistogram histogram;
  EXPECT_EQ(histogram.percentile(99), 0);
  for (std::int64_t v = 1; v <= 50; ++v) histogram.record(v);
  EXPECT_EQ(histogram.percentile(50), 25);
  EXPECT_EQ(histogram.percentile(100), 50);

  LatencyHistogram large;
  for (std::int64_t v = 1; v <= 100'000; ++v) large.record(v * 1000);  // 1 us .. 100 ms
  EXPECT_NEAR(static_cast<double>(large.percentile(50)), 50e6, 50e6 * 0.03);
  EXPECT_NEAR(static_cast<double>(large.percentile(99)), 99e6, 99e6 * 0.03);
  EXPECT_EQ(large.max(), 100'000'000);
  EXPECT_EQ(large.count(), 100'000);
}

TEST(LatencyHistogramTest, MergesAndClampsNegativeValues) {
  LatencyHistogram a;
  LatencyHistogram b;
  a.record(-5);
  b.record(1'000'000);
  a.merge(b);
  EXPECT_EQ(a.count(), 2);
  EXPECT_EQ(a.percentile(50), 0);
  EXPECT_NEAR(static_cast<double>(a.percentile(100)), 1e6, 1e6 * 0.03);
}

TEST(LatencyScheduleTest, PlacesEventsAndWatermarksOnTheRunsSchedule) {
  GeneratorConfig config;
  config.events_per_second = 1000;  // one event per ms, event time = wall time
  config.max_out_of_orderness = 5;
  auto clock = std::make_shared<RunClock>();
  const std::int64_t start = clock->start();
  const LatencySchedule schedule(config, 1000, 2, 500, clock);
  EXPECT_EQ(schedule.originNs(LatencyOrigin::event(0)), start);
  EXPECT_EQ(schedule.originNs(LatencyOrigin::event(250)), start + 250'000'000);
  // Watermark >= 99 needs a nominal time of 99 + 5 + 1 = 105 on both subtasks:
  // event 105 on one of them, event 106 on the other.
  EXPECT_EQ(schedule.originNs(LatencyOrigin::watermark(99)), start + 106'000'000);
  EXPECT_THROW(LatencySchedule(config, 0, 1, 500, clock), std::invalid_argument);
  EXPECT_THROW(LatencySchedule(config, 1000, 1, 0, clock), std::invalid_argument);
}

TEST(LatencyScheduleTest, AWatermarkPastTheLastEventIsPassedWhenTheInputEnds) {
  GeneratorConfig config;
  config.events_per_second = 1000;
  config.max_out_of_orderness = 5;
  auto clock = std::make_shared<RunClock>();
  const std::int64_t start = clock->start();
  const LatencySchedule schedule(config, 1000, 2, 500, clock);
  // Event 493 + 1 would be the first on the last subtask past 487 + 5 + 1:
  // within the run, so counted from there.
  EXPECT_EQ(schedule.originNs(LatencyOrigin::watermark(487)), start + 494'000'000);
  // Windows that end at 999 or at the end of time fire with the final
  // watermark, after the run's last event (499), not at an event never made.
  EXPECT_EQ(schedule.originNs(LatencyOrigin::watermark(999)), start + 499'000'000);
  EXPECT_EQ(schedule.originNs(LatencyOrigin::watermark(kMaxWatermark)), start + 499'000'000);
}

TEST(LatencyScheduleTest, AWatermarkWaitsForTheSubtaskWhoseBlockComesLast) {
  GeneratorConfig config;
  config.events_per_second = 10'000;  // 10 events per ms: subtasks take turns every 10 events
  config.max_out_of_orderness = 0;
  auto clock = std::make_shared<RunClock>();
  const std::int64_t start = clock->start();
  // Watermark >= 99 needs nominal time 100 on every subtask. Millisecond 100
  // is events 1000 to 1009, block 100.
  const LatencySchedule one(config, 10'000, 1, 5000, clock);
  EXPECT_EQ(one.originNs(LatencyOrigin::watermark(99)), start + 100'000'000);
  // At parallelism 2 block 100 is subtask 0's; subtask 1 gets past 100 with
  // block 101, event 1010.
  const LatencySchedule two(config, 10'000, 2, 5000, clock);
  EXPECT_EQ(two.originNs(LatencyOrigin::watermark(99)), start + 101'000'000);
  // Nominal time 101 starts in block 101 (subtask 1): subtask 0 follows at
  // block 102, event 1020.
  EXPECT_EQ(two.originNs(LatencyOrigin::watermark(100)), start + 102'000'000);
  // At parallelism 3 the last subtask to get there starts block 102.
  const LatencySchedule three(config, 10'000, 3, 5000, clock);
  EXPECT_EQ(three.originNs(LatencyOrigin::watermark(99)), start + 102'000'000);
}

}  // namespace
}  // namespace tidemark::nexmark
