// The harnesses snapshot and restore an operator as a checkpoint would: a
// keyed process function with state and timers goes on after a restore as if
// nothing happened, at the same parallelism and after a rescale; a rolling
// reduce does too; an operator asked before open() says so.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/tidemark.h"
#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/testing/operator_subtask_state.h"

namespace tidemark {
namespace {

using ::testing::HasSubstr;
using Event = std::pair<std::string, std::int64_t>;  // (user, amount)

/// A running sum per user, and a reminder 10 ms after each event that
/// reports the sum then and the event time the function saw.
class SumWithReminders : public KeyedProcessFunction<std::string, Event, std::string> {
 public:
  void open() override { sum_ = &getRuntimeContext().getState(ValueStateDescriptor<std::int64_t>("sum", 0)); }

  void processElement(const Event& event, Context& ctx, Collector<std::string>& out) override {
    sum_->update(*sum_->value() + event.second);
    out.collect(event.first + "=" + std::to_string(*sum_->value()) +
                " wm=" + std::to_string(ctx.timerService().currentWatermark()));
    ctx.timerService().registerEventTimeTimer(*ctx.timestamp() + 10);
  }

  void onTimer(Timestamp time, OnTimerContext& ctx, Collector<std::string>& out) override {
    out.collect("reminder " + ctx.getCurrentKey() + "@" + std::to_string(time) +
                " sum=" + std::to_string(*sum_->value()));
  }

 private:
  ValueState<std::int64_t>* sum_ = nullptr;
};

std::string userOf(const Event& event) { return event.first; }

using Harness = KeyedOneInputStreamOperatorTestHarness<std::string, Event, std::string>;

struct Step {
  Event event;
  Timestamp time;
  Timestamp watermark_after;
};

const std::vector<Step> kBefore = {
    {{"alice", 5}, 100, 95}, {{"bob", 7}, 102, 101}, {{"carol", 1}, 104, 103}, {{"alice", 2}, 108, 107},
    {{"dave", 4}, 110, 109}, {{"bob", 3}, 111, 110},
};
const std::vector<Step> kAfter = {
    {{"erin", 6}, 113, 112}, {{"alice", 1}, 115, 114}, {{"carol", 9}, 116, 115}, {{"bob", 2}, 125, 130},
};

void run(Harness& harness, const std::vector<Step>& steps) {
  for (const Step& step : steps) {
    harness.processElement(step.event, step.time);
    harness.processWatermark(step.watermark_after);
  }
}

std::vector<std::string> uninterrupted(const std::vector<Step>& steps) {
  Harness harness(SumWithReminders{}, userOf);
  harness.open();
  run(harness, steps);
  return harness.extractOutputValues();
}

std::vector<Step> operator+(std::vector<Step> a, const std::vector<Step>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(HarnessSnapshotTest, AKeyedProcessFunctionGoesOnAfterARestoreAsIfNothingHappened) {
  Harness before(SumWithReminders{}, userOf);
  before.open();
  run(before, kBefore);
  const OperatorSubtaskState state = before.snapshot(1);
  std::vector<std::string> output = before.extractOutputValues();

  Harness after(SumWithReminders{}, userOf);
  after.initializeState(state);
  after.open();
  // open() asked for "sum", which filled it; the timers came back with it.
  EXPECT_EQ(after.numKeyedStateEntries(), before.numKeyedStateEntries());
  EXPECT_EQ(after.numEventTimeTimers(), before.numEventTimeTimers());
  run(after, kAfter);
  const std::vector<std::string> rest = after.extractOutputValues();
  output.insert(output.end(), rest.begin(), rest.end());

  // Sums, timers and the event time the function sees all carried over.
  EXPECT_EQ(output, uninterrupted(kBefore + kAfter));
  EXPECT_EQ(rest.front(), "erin=6 wm=110");
}

TEST(HarnessSnapshotTest, KeysAndTimersFollowTheirKeyGroupsWhenTheParallelismDoubles) {
  Harness before(SumWithReminders{}, userOf);
  before.open();
  run(before, kBefore);
  const OperatorSubtaskState state = before.snapshot(7);

  std::vector<std::string> rescaled;
  for (int subtask = 0; subtask < 2; ++subtask) {
    Harness half(SumWithReminders{}, userOf, {.parallelism = 2, .subtask_index = subtask});
    half.initializeState(state);
    half.open();
    const KeyGroupRange range = half.getOperatorContext().key_group_range;
    const KeyGroupAssigner groups(half.getOperatorContext().max_parallelism);
    for (const Step& step : kAfter) {
      if (range.contains(groups.keyGroupOf(step.event.first))) half.processElement(step.event, step.time);
      half.processWatermark(step.watermark_after);
    }
    const std::vector<std::string> out = half.extractOutputValues();
    rescaled.insert(rescaled.end(), out.begin(), out.end());
  }

  std::vector<std::string> expected = uninterrupted(kBefore + kAfter);
  expected.erase(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(before.extractOutputValues().size()));
  std::sort(rescaled.begin(), rescaled.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(rescaled, expected);
}

TEST(HarnessSnapshotTest, ARollingReduceGoesOnFromItsSnapshot) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  auto summed = env.fromElements<Event>({Event{"x", 0}})
                    .keyBy(userOf)
                    .reduce([](const Event& a, const Event& b) { return Event{a.first, a.second + b.second}; });
  KeyedOneInputStreamOperatorTestHarness<std::string, Event, Event> before(summed);
  before.open();
  before.processElement(Event{"a", 1}, 1);
  before.processElement(Event{"b", 10}, 2);
  before.processElement(Event{"a", 2}, 3);
  const OperatorSubtaskState state = before.snapshot(3);

  KeyedOneInputStreamOperatorTestHarness<std::string, Event, Event> after(summed);
  after.initializeState(state);
  after.open();
  after.processElement(Event{"a", 4}, 4);
  after.processElement(Event{"b", 5}, 5);
  EXPECT_EQ(after.extractOutputValues(), (std::vector<Event>{{"a", 7}, {"b", 15}}));
}

TEST(HarnessSnapshotTest, AnOperatorAskedForASnapshotBeforeOpenSaysSo) {
  auto op = std::make_unique<internal::KeyedProcessOperator<std::string, Event, std::string, std::string (*)(const Event&)>>(
      std::make_unique<SumWithReminders>(), userOf);
  EXPECT_THAT([&] { op->snapshotState(1); },
              ::testing::ThrowsMessage<std::logic_error>(HasSubstr("was asked for a snapshot before open()")));
}

TEST(HarnessSnapshotTest, InitializeStateAfterOpenIsALogicErrorAndCorruptStateIsReported) {
  Harness harness(SumWithReminders{}, userOf);
  harness.open();
  const OperatorSubtaskState state = harness.snapshot(1);
  EXPECT_THROW(harness.initializeState(state), std::logic_error);

  Harness fresh(SumWithReminders{}, userOf);
  std::string bytes = state.bytes();
  bytes.pop_back();
  EXPECT_THROW(fresh.initializeState(OperatorSubtaskState(bytes)), SerializationError);
}

}  // namespace
}  // namespace tidemark
