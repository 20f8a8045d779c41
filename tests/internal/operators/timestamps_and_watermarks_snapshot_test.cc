// assignTimestampsAndWatermarks keeps its watermark state in snapshots:
// restored, the generator goes on from the largest timestamp it saw, no
// watermark it emitted comes again, an idle stream stays idle and says so
// again at its first periodic emit; rescaled, the generators start afresh
// from the least watermark; a generator that cannot read its own state back
// is reported naming the operator.
#include "tidemark/internal/operators/timestamps_and_watermarks_operator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tidemark/serialization/serialization_error.h"
#include "tidemark/testing/one_input_harness.h"

namespace tidemark::internal {
namespace {

using ::testing::HasSubstr;
using Lines = std::vector<std::string>;
using Operator = TimestampsAndWatermarksOperator<std::int64_t>;
using Harness = OneInputStreamOperatorTestHarness<std::int64_t, std::int64_t>;

/// Timestamps are the values; watermarks lag 10 ms behind, every 200 ms of processing time.
WatermarkStrategy<std::int64_t> boundedBy10() {
  return WatermarkStrategy<std::int64_t>::forBoundedOutOfOrderness(10).withTimestampAssigner(
      [](const std::int64_t& value) { return value; });
}

std::unique_ptr<Operator> assigner(const WatermarkStrategy<std::int64_t>& strategy = boundedBy10()) {
  return std::make_unique<Operator>(strategy);
}

/// Saw `values`, emitted at 200 ms, and snapshotted.
OperatorSubtaskState snapshotAfter(const std::vector<std::int64_t>& values, bool emit,
                                   const OperatorTestHarnessOptions& options = {}) {
  Harness harness(assigner(), options);
  harness.open();
  for (std::int64_t value : values) harness.processElement(value, 0);
  if (emit) harness.setProcessingTime(200);
  return harness.snapshot(1);
}

TEST(TimestampsAndWatermarksSnapshotTest, TheGeneratorGoesOnFromTheLargestTimestampItSaw) {
  Harness restored(assigner());
  restored.initializeState(snapshotAfter({100, 150}, false));
  restored.open();
  restored.processElement(120, 0);
  restored.setProcessingTime(200);
  // 150 - 10 - 1, not 120 - 10 - 1: the 150 seen before the failure still counts.
  EXPECT_EQ(restored.getOutput().lines(), (Lines{"Record(120 @ 120)", "Watermark(139)"}));
}

TEST(TimestampsAndWatermarksSnapshotTest, AWatermarkEmittedBeforeTheFailureIsNotEmittedAgain) {
  Harness restored(assigner());
  restored.initializeState(snapshotAfter({100, 150}, true));
  restored.open();
  restored.processElement(140, 0);
  restored.setProcessingTime(200);
  restored.processElement(160, 0);
  restored.setProcessingTime(400);
  EXPECT_EQ(restored.getOutput().lines(), (Lines{"Record(140 @ 140)", "Record(160 @ 160)", "Watermark(149)"}));
}

WatermarkStrategy<std::int64_t> idleAfter300() { return boundedBy10().withIdleness(300); }

/// Saw 100 at 0 ms; by 800 ms idle, and snapshotted.
OperatorSubtaskState snapshotOfAnIdleStream() {
  Harness before(assigner(idleAfter300()));
  before.open();
  before.processElement(100, 0);
  // 200: saw an event; 400: the countdown starts; 600: not yet 300 ms; 800: idle.
  for (Timestamp now : {200, 400, 600, 800}) before.setProcessingTime(now);
  EXPECT_EQ(before.getOutput().watermarkStatuses(), (std::vector<WatermarkStatus>{WatermarkStatus::IDLE}));
  return before.snapshot(1);
}

/// A harness at 800 ms restored from snapshotOfAnIdleStream(), opened.
std::unique_ptr<Harness> restoredIdleAt800() {
  OperatorTestHarnessOptions later;
  later.initial_processing_time = 800;
  auto restored = std::make_unique<Harness>(assigner(idleAfter300()), later);
  restored->initializeState(snapshotOfAnIdleStream());
  restored->open();
  return restored;
}

TEST(TimestampsAndWatermarksSnapshotTest, AnIdleStreamIsStillIdleAfterARestore) {
  const std::unique_ptr<Harness> restored = restoredIdleAt800();
  restored->processElement(120, 800);
  restored->setProcessingTime(1000);
  // Active again with its next watermark, as a stream that never failed would be.
  EXPECT_EQ(restored->getOutput().watermarkStatuses(), (std::vector<WatermarkStatus>{WatermarkStatus::ACTIVE}));
  EXPECT_EQ(restored->getOutput().lines(), (Lines{"Record(120 @ 120)", "Watermark(109)"}));
}

TEST(TimestampsAndWatermarksSnapshotTest, RestoredIdleItSaysSoAgainOnceAtItsFirstPeriodicEmit) {
  const std::unique_ptr<Harness> restored = restoredIdleAt800();
  restored->setProcessingTime(999);
  EXPECT_TRUE(restored->getOutput().watermarkStatuses().empty());
  // For a task downstream that was rescaled, and so starts this channel active.
  restored->setProcessingTime(1000);
  EXPECT_EQ(restored->getOutput().watermarkStatuses(), (std::vector<WatermarkStatus>{WatermarkStatus::IDLE}));
  restored->setProcessingTime(1400);
  EXPECT_EQ(restored->getOutput().watermarkStatuses(), (std::vector<WatermarkStatus>{WatermarkStatus::IDLE}));
  EXPECT_TRUE(restored->getOutput().lines().empty());
}

TEST(TimestampsAndWatermarksSnapshotTest, RescaledTheGeneratorsStartAfreshFromTheLeastWatermark) {
  const std::vector<OperatorSubtaskState> states{snapshotAfter({150}, true, OperatorTestHarnessOptions::subtask(0, 2)),
                                                 snapshotAfter({100}, true, OperatorTestHarnessOptions::subtask(1, 2))};
  Harness restored(assigner());
  restored.initializeState(states);
  restored.open();
  restored.processElement(95, 0);
  restored.setProcessingTime(200);
  restored.processElement(120, 0);
  restored.setProcessingTime(400);
  // From 89 (the least of 139 and 89) on, with a generator that saw only 95, then 120.
  EXPECT_EQ(restored.getOutput().lines(), (Lines{"Record(95 @ 95)", "Record(120 @ 120)", "Watermark(109)"}));
}

/// Writes one byte of state and reads eight back: its snapshots cannot be restored.
class Mismatched final : public WatermarkGenerator<std::int64_t> {
 public:
  void onEvent(const std::int64_t&, Timestamp, WatermarkOutput&) override {}
  void onPeriodicEmit(WatermarkOutput&) override {}
  void snapshotState(DataOutput& out) const override { out.writeFixed(std::uint8_t{1}); }
  void restoreState(DataInput& in) override { (void)in.readFixed<std::int64_t>("the mismatched field"); }
};

TEST(TimestampsAndWatermarksSnapshotTest, AGeneratorThatCannotReadItsStateIsReportedNamingTheOperator) {
  const auto strategy = WatermarkStrategy<std::int64_t>::forGenerator([] {
    return std::unique_ptr<WatermarkGenerator<std::int64_t>>(std::make_unique<Mismatched>());
  });
  Harness before(assigner(strategy));
  before.open();
  const OperatorSubtaskState state = before.snapshot(1);
  Harness restored(assigner(strategy));
  restored.initializeState(state);
  EXPECT_THAT([&] { restored.open(); },
              ::testing::ThrowsMessage<std::runtime_error>(::testing::AllOf(
                  HasSubstr("restoring the watermark generator of operator 'operator' (subtask 1/1): "),
                  HasSubstr("the mismatched field"))));
}

}  // namespace
}  // namespace tidemark::internal
