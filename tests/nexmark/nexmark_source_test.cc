// The Nexmark source keeps each subtask's position in checkpoints: restored
// after any event, every subtask makes the rest of its events, each once,
// with the same watermarks; a paced source keeps its rate from the restored
// event on; another parallelism is refused.
#include "nexmark/nexmark_source.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nexmark/nexmark_test_support.h"
#include "support/source_replay.h"
#include "tidemark/testing/source_function_harness.h"

namespace tidemark::nexmark {
namespace {

using testing_support::Lines;

/// 60 events, 20 per millisecond (blocks of 20 per subtask), 200 ms out of order.
SourceOptions smallRun() {
  SourceOptions options;
  options.generator = testing::denseConfig();
  options.generator.max_out_of_orderness = 200;
  options.events = 60;
  return options;
}

TEST(NexmarkSourceTest, RestoredAfterAnyEventItMakesTheRestExactlyOnce) {
  testing_support::expectRestoreAtEveryRecordReplaysExactly<Event>(NexmarkSource(smallRun()), 60);
}

TEST(NexmarkSourceTest, RestoredAtTheSameParallelismEachSubtaskGoesOnWithItsOwnBlocks) {
  const NexmarkSource source(smallRun());
  // Subtask 0 makes events 0-19 and 40-59, subtask 1 events 20-39.
  std::vector<Lines> uninterrupted;
  for (int index = 0; index < 2; ++index) {
    uninterrupted.push_back(testing_support::runToEnd<Event>(source, OperatorTestHarnessOptions::subtask(index, 2)));
  }
  for (std::size_t records = 1; records < 20; ++records) {
    std::vector<OperatorSubtaskState> states;
    std::vector<Lines> joined;
    for (int index = 0; index < 2; ++index) {
      SourceFunctionTestHarness<Event> first(source, OperatorTestHarnessOptions::subtask(index, 2));
      first.open();
      // Subtask 0 stops at the end of a block or within one, subtask 1 later.
      states.push_back(first.runUntilSnapshot(index == 0 ? records * 2 : records, 1));
      Lines lines = first.getOutput().lines();
      lines.resize(first.eventsBeforeSnapshot());
      joined.push_back(std::move(lines));
    }
    for (int index = 0; index < 2; ++index) {
      SourceFunctionTestHarness<Event> second(source, OperatorTestHarnessOptions::subtask(index, 2));
      second.initializeState(states);  // union state: each subtask finds its own position
      second.open();
      second.run();
      for (std::string& line : second.getOutput().lines()) joined[static_cast<std::size_t>(index)].push_back(line);
      EXPECT_EQ(joined[static_cast<std::size_t>(index)], uninterrupted[static_cast<std::size_t>(index)])
          << "subtask " << index << ", snapshot after " << records << " records";
    }
  }
}

TEST(NexmarkSourceTest, APacedSourceKeepsItsRateFromTheRestoredEventOn) {
  SourceOptions paced = smallRun();
  paced.rate = 1000;  // event n due at n ms
  paced.pacing = Pacing::kJobClock;
  SourceFunctionTestHarness<Event> first{NexmarkSource(paced)};
  first.open();
  const OperatorSubtaskState state = first.runUntilSnapshot(10, 1);
  EXPECT_EQ(first.getProcessingTime(), 9);  // made event 9 at 9 ms, then stopped

  OperatorTestHarnessOptions later;
  later.initial_processing_time = 500;
  SourceFunctionTestHarness<Event> second(NexmarkSource(paced), later);
  second.initializeState(state);
  second.open();
  second.run();
  EXPECT_EQ(second.extractOutputValues().size(), 50u);
  EXPECT_EQ(second.getProcessingTime(), 549);  // event 10 at once, event 59 49 ms later
}

TEST(NexmarkSourceTest, RestoringAtAnotherParallelismIsRefused) {
  const NexmarkSource source(smallRun());
  std::vector<OperatorSubtaskState> states;
  for (int index = 0; index < 2; ++index) {
    SourceFunctionTestHarness<Event> first(source, OperatorTestHarnessOptions::subtask(index, 2));
    first.open();
    states.push_back(first.runUntilSnapshot(5, 1));
  }
  testing_support::expectRestoredRunFails<Event>(
      source, states, "NexmarkSource: restores only at the parallelism it was checkpointed with (2), not 1");
}

}  // namespace
}  // namespace tidemark::nexmark
