// A function that is a CheckpointedFunction keeps its operator state in the
// operator's snapshots, whatever operator runs it: restored, it gets its
// lists back (isRestored() tells), rescaled, its split lists are shared out.
#include "tidemark/functions/checkpointed_function.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/tidemark.h"
#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/testing/one_input_harness.h"

namespace tidemark {
namespace {

using Values = std::vector<std::string>;

/// Buffers values and emits them joined three at a time; the buffer is split
/// operator state. It says whether it was restored with its first output.
class BatchOfThree final : public ProcessFunction<std::string, std::string>, public CheckpointedFunction {
 public:
  void initializeState(FunctionInitializationContext& ctx) override {
    buffered_ = &ctx.getOperatorStateStore().getListState(ListStateDescriptor<std::string>("buffered"));
    restored_ = ctx.isRestored();
  }
  void snapshotState(const FunctionSnapshotContext&) override {}  // the list is the buffer: nothing to copy

  void processElement(const std::string& value, Context&, Collector<std::string>& out) override {
    buffered_->add(value);
    const std::vector<std::string> batch = buffered_->get();
    if (batch.size() < 3) return;
    std::string joined = restored_ ? "restored:" : "fresh:";
    for (const std::string& part : batch) joined += part;
    out.collect(joined);
    buffered_->clear();
  }

 private:
  ListState<std::string>* buffered_ = nullptr;
  bool restored_ = false;
};

/// Counts the records of all keys in operator state, next to its keyed state.
class CountAll final : public KeyedProcessFunction<std::string, std::string, std::string>, public CheckpointedFunction {
 public:
  void initializeState(FunctionInitializationContext& ctx) override {
    count_state_ = &ctx.getOperatorStateStore().getListState(ListStateDescriptor<std::int64_t>("count"));
    for (std::int64_t restored : count_state_->get()) count_ += restored;
  }
  void snapshotState(const FunctionSnapshotContext& ctx) override {
    count_state_->update({count_});
    last_checkpoint_ = ctx.getCheckpointId();
  }
  void processElement(const std::string& value, Context&, Collector<std::string>& out) override {
    ++count_;
    out.collect(value + "#" + std::to_string(count_) + " after checkpoint " + std::to_string(last_checkpoint_));
  }

 private:
  ListState<std::int64_t>* count_state_ = nullptr;
  std::int64_t count_ = 0;
  std::int64_t last_checkpoint_ = 0;
};

TEST(CheckpointedFunctionTest, AProcessFunctionGetsItsListBackAfterARestore) {
  OneInputStreamOperatorTestHarness before(BatchOfThree{});
  before.open();
  before.processElement("a", 1);
  before.processElement("b", 2);
  const OperatorSubtaskState state = before.snapshot(1);

  OneInputStreamOperatorTestHarness after(BatchOfThree{});
  after.initializeState(state);
  after.open();
  after.processElement("c", 3);
  EXPECT_EQ(after.extractOutputValues(), (Values{"restored:abc"}));
}

TEST(CheckpointedFunctionTest, RescaledFromTwoSubtasksToOneTheSplitListsAreJoinedInSubtaskOrder) {
  std::vector<OperatorSubtaskState> states;
  for (const auto& [index, value] : std::vector<std::pair<int, std::string>>{{0, "x"}, {1, "y"}}) {
    OneInputStreamOperatorTestHarness before(BatchOfThree{}, OperatorTestHarnessOptions::subtask(index, 2));
    before.open();
    before.processElement(value, 1);
    states.push_back(before.snapshot(1));
  }
  OneInputStreamOperatorTestHarness after(BatchOfThree{});
  after.initializeState(states);
  after.open();
  after.processElement("z", 2);
  EXPECT_EQ(after.extractOutputValues(), (Values{"restored:xyz"}));
}

TEST(CheckpointedFunctionTest, AFreshFunctionIsNotRestored) {
  OneInputStreamOperatorTestHarness harness(BatchOfThree{});
  harness.open();
  for (const char* value : {"a", "b", "c"}) harness.processElement(value, 1);
  EXPECT_EQ(harness.extractOutputValues(), (Values{"fresh:abc"}));
}

TEST(CheckpointedFunctionTest, AKeyedProcessFunctionKeepsOperatorStateNextToItsKeyedState) {
  auto identity = [](const std::string& value) { return value; };
  KeyedOneInputStreamOperatorTestHarness<std::string, std::string, std::string> before(CountAll{}, identity);
  before.open();
  before.processElement("a", 1);
  before.processElement("b", 2);
  const OperatorSubtaskState state = before.snapshot(7);

  KeyedOneInputStreamOperatorTestHarness<std::string, std::string, std::string> after(CountAll{}, identity);
  after.initializeState(state);
  after.open();
  after.processElement("c", 3);
  EXPECT_EQ(before.extractOutputValues(), (Values{"a#1 after checkpoint 0", "b#2 after checkpoint 0"}));
  EXPECT_EQ(after.extractOutputValues(), (Values{"c#3 after checkpoint 0"}));
  const OperatorSubtaskState again = before.snapshot(8);
  (void)again;
  before.processElement("d", 4);
  EXPECT_EQ(before.extractOutputValues().back(), "d#3 after checkpoint 8");
}

}  // namespace
}  // namespace tidemark
