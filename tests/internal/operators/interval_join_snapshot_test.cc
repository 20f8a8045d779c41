// The interval join goes on from a snapshot as if nothing happened: both
// buffers and the cleanup timers come back, at the same parallelism (the same
// output, line for line) and after a rescale (the same pairs).
#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/string_interval_join.h"
#include "tidemark/core/key_group.h"
#include "tidemark/functions/process_join_function.h"
#include "tidemark/internal/operators/interval_join_operator.h"
#include "tidemark/testing/operator_subtask_state.h"
#include "tidemark/testing/two_input_harness.h"

namespace tidemark {
namespace {

using Selector = testing_support::StringSelector;
using JoinOperator = testing_support::StringIntervalJoin;
using Harness = testing_support::StringJoinHarness;
constexpr auto keyOf = &testing_support::keyBeforeColon;

class PairUp : public ProcessJoinFunction<std::string, std::string, std::string> {
 public:
  void processElement(const std::string& left, const std::string& right, Context&,
                      Collector<std::string>& out) override {
    out.collect(left + "|" + right);
  }
};

std::unique_ptr<JoinOperator> makeJoin() {
  return std::make_unique<JoinOperator>(-6, 8, true, false, std::make_unique<PairUp>(), Selector(keyOf),
                                        Selector(keyOf));
}

struct Step {
  bool left;
  std::string element;
  Timestamp time;
};

/// Three keys, both sides, timestamps rising with some disorder; after each
/// step both inputs' watermarks move to time - 2.
std::vector<Step> steps() {
  const char* keys[] = {"a", "b", "c"};
  std::vector<Step> result;
  for (int i = 0; i < 40; ++i) {
    const Timestamp time = i + (i % 4 == 3 ? -2 : 0);
    const bool left = (i % 3) != 1;
    result.push_back({left, fmt::format("{}:{}{}", keys[(i / 2) % 3], left ? 'L' : 'R', i), time});
  }
  return result;
}

void feed(Harness& harness, const std::vector<Step>& input, Timestamp& last,
          const std::function<bool(const std::string&)>& owns = nullptr) {
  for (const Step& step : input) {
    if (!owns || owns(keyOf(step.element))) {
      if (step.left) {
        harness.processElement1(step.element, step.time);
      } else {
        harness.processElement2(step.element, step.time);
      }
    }
    if (step.time - 2 > last) {
      last = step.time - 2;
      harness.processWatermark1(last);
      harness.processWatermark2(last);
    }
  }
}

std::vector<std::string> records(const Harness& harness) {
  std::vector<std::string> lines;
  for (const std::string& line : harness.getOutput().lines()) {
    if (line.starts_with("Record")) lines.push_back(line);
  }
  return lines;
}

TEST(IntervalJoinSnapshotTest, BuffersAndCleanupTimersComeBackAtTheSameAndAtAnotherParallelism) {
  const std::vector<Step> input = steps();
  Harness whole(makeJoin());
  whole.open();
  Timestamp last = kMinWatermark;
  feed(whole, input, last);
  const std::vector<std::string> expected = whole.getOutput().lines();
  std::vector<std::string> expected_records = records(whole);
  std::sort(expected_records.begin(), expected_records.end());
  ASSERT_GT(expected_records.size(), 20u);

  for (std::size_t cut : {std::size_t{5}, input.size() / 2, input.size() - 3}) {
    const std::vector<Step> before_steps(input.begin(), input.begin() + static_cast<std::ptrdiff_t>(cut));
    const std::vector<Step> after_steps(input.begin() + static_cast<std::ptrdiff_t>(cut), input.end());
    Harness before(makeJoin());
    before.open();
    Timestamp before_last = kMinWatermark;
    feed(before, before_steps, before_last);
    EXPECT_GT(before.numEventTimeTimers(), 0u);
    const OperatorSubtaskState state = before.snapshot(1);

    Harness after(makeJoin());
    after.initializeState(state);
    after.open();
    EXPECT_EQ(after.numEventTimeTimers(), before.numEventTimeTimers());
    EXPECT_EQ(after.numKeyedStateEntries(), before.numKeyedStateEntries());
    Timestamp after_last = before_last;
    feed(after, after_steps, after_last);
    std::vector<std::string> lines = before.getOutput().lines();
    for (const std::string& line : after.getOutput().lines()) lines.push_back(line);
    EXPECT_EQ(lines, expected) << "restored after " << cut << " steps";

    std::vector<std::string> rescaled = records(before);
    for (int subtask = 0; subtask < 2; ++subtask) {
      Harness half(makeJoin(), {.parallelism = 2, .subtask_index = subtask});
      half.initializeState(state);
      half.open();
      const KeyGroupRange range = half.getOperatorContext().key_group_range;
      const KeyGroupAssigner groups(half.getOperatorContext().max_parallelism);
      Timestamp half_last = before_last;
      feed(half, after_steps, half_last, [&](const std::string& key) { return range.contains(groups.keyGroupOf(key)); });
      for (const std::string& line : records(half)) rescaled.push_back(line);
    }
    std::sort(rescaled.begin(), rescaled.end());
    EXPECT_EQ(rescaled, expected_records) << "rescaled after " << cut << " steps";
  }
}

}  // namespace
}  // namespace tidemark
