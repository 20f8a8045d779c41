// SourceFunctionTestHarness runs a source as its task would, reaching a
// snapshot point at every record and sleep: run() goes to the end and the MAX
// watermark; runUntilSnapshot() snapshots where asked, or where the source
// releases its checkpoint lock, and a restored source goes on from there.
#include "tidemark/testing/source_function_harness.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "tidemark/connectors/collection_source.h"
#include "tidemark/functions/checkpointed_function.h"
#include "tidemark/internal/core/operator_failure.h"

namespace tidemark {
namespace {

using ::testing::HasSubstr;
using Lines = std::vector<std::string>;

/// Emits the pairs (2i, 2i + 1) for i < pairs, each pair under one hold of
/// the checkpoint lock, so that no snapshot falls inside a pair.
class PairSource final : public SourceFunction<int>, public CheckpointedFunction {
 public:
  explicit PairSource(int pairs) : pairs_(pairs) {}
  void initializeState(FunctionInitializationContext& ctx) override {
    next_pair_ = &ctx.getOperatorStateStore().getListState(ListStateDescriptor<std::int32_t>("next-pair"));
    for (std::int32_t restored : next_pair_->get()) next_ = restored;
  }
  void snapshotState(const FunctionSnapshotContext&) override { next_pair_->update({next_}); }
  void run(SourceContext<int>& ctx) override {
    while (next_ < pairs_) {
      std::lock_guard lock(ctx.getCheckpointLock());
      ctx.collect(2 * next_);
      ctx.collect(2 * next_ + 1);
      ++next_;
    }
  }

 private:
  int pairs_;
  std::int32_t next_ = 0;
  ListState<std::int32_t>* next_pair_ = nullptr;
};

/// Sleeps 100 ms before each record and emits the processing time it woke at.
class Clocked final : public SourceFunction<std::int64_t> {
 public:
  void run(SourceContext<std::int64_t>& ctx) override {
    for (int i = 0; i < 3; ++i) {
      ctx.sleep(100);
      ctx.collect(ctx.currentProcessingTime());
    }
  }
};

class WaitsOnADescriptor final : public SourceFunction<int> {
 public:
  void run(SourceContext<int>& ctx) override { ctx.waitReadable(0, 10); }
};

TEST(SourceFunctionHarnessTest, RunEmitsEveryRecordAndEndsWithTheMaxWatermark) {
  SourceFunctionTestHarness<int> harness(FromCollectionSource<int>({1, 2}));
  harness.open();
  harness.run();
  EXPECT_EQ(harness.getOutput().lines(),
            (Lines{"Record(1, no timestamp)", "Record(2, no timestamp)", "Watermark(9223372036854775807)"}));
}

TEST(SourceFunctionHarnessTest, SleepMovesTheManualClock) {
  OperatorTestHarnessOptions options;
  options.initial_processing_time = 1000;
  SourceFunctionTestHarness<std::int64_t> harness(Clocked{}, options);
  harness.open();
  harness.run();
  EXPECT_EQ(harness.extractOutputValues(), (std::vector<std::int64_t>{1100, 1200, 1300}));
  EXPECT_EQ(harness.getProcessingTime(), 1300);
}

TEST(SourceFunctionHarnessTest, ARestoredSourceGoesOnAfterTheRecordsBeforeTheSnapshot) {
  SourceFunctionTestHarness<int> first(FromCollectionSource<int>({1, 2, 3, 4}));
  first.open();
  const OperatorSubtaskState state = first.runUntilSnapshot(2, 1);
  EXPECT_EQ(first.eventsBeforeSnapshot(), 2u);

  SourceFunctionTestHarness<int> second(FromCollectionSource<int>({1, 2, 3, 4}));
  second.initializeState(state);
  second.open();
  second.run();
  EXPECT_EQ(second.extractOutputValues(), (std::vector<int>{3, 4}));
}

TEST(SourceFunctionHarnessTest, ASnapshotWaitsUntilTheSourceReleasesItsCheckpointLock) {
  SourceFunctionTestHarness<int> first(PairSource(3));
  first.open();
  // Asked for after record 1, inside the first pair: taken when the pair is out.
  const OperatorSubtaskState state = first.runUntilSnapshot(1, 1);
  EXPECT_EQ(first.eventsBeforeSnapshot(), 2u);

  SourceFunctionTestHarness<int> second(PairSource(3));
  second.initializeState(state);
  second.open();
  second.run();
  EXPECT_EQ(second.extractOutputValues(), (std::vector<int>{2, 3, 4, 5}));
}

TEST(SourceFunctionHarnessTest, ASourceWithoutCheckpointedFunctionStartsAgainAfterARestore) {
  SourceFunctionTestHarness<std::int64_t> first(Clocked{});
  first.open();
  const OperatorSubtaskState state = first.runUntilSnapshot(2, 1);
  SourceFunctionTestHarness<std::int64_t> second(Clocked{});
  second.initializeState(state);
  second.open();
  second.run();
  EXPECT_EQ(second.extractOutputValues(), (std::vector<std::int64_t>{100, 200, 300}));
}

TEST(SourceFunctionHarnessTest, ASourceThatEndsBeforeTheSnapshotIsALogicError) {
  SourceFunctionTestHarness<int> harness(FromCollectionSource<int>({1, 2}));
  harness.open();
  EXPECT_THAT([&] { harness.runUntilSnapshot(3, 1); },
              ::testing::ThrowsMessage<std::logic_error>(
                  HasSubstr("runUntilSnapshot(3): the source ended after 2 records, before the snapshot")));
}

TEST(SourceFunctionHarnessTest, ASourceThatWaitsOnADescriptorIsRefusedNamingTheOperator) {
  SourceFunctionTestHarness<int> harness(WaitsOnADescriptor{});
  harness.open();
  EXPECT_THAT([&] { harness.run(); },
              ::testing::ThrowsMessage<internal::OperatorFailure>(::testing::AllOf(
                  HasSubstr("operator 'Source' (subtask 1/1)"),
                  HasSubstr("SourceFunctionTestHarness does not run sources that wait on a file descriptor"))));
}

TEST(SourceFunctionHarnessTest, RunBeforeOpenIsALogicError) {
  SourceFunctionTestHarness<int> harness(FromCollectionSource<int>({1}));
  EXPECT_THROW(harness.run(), std::logic_error);
}

}  // namespace
}  // namespace tidemark
