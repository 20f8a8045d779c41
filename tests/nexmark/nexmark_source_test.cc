// The Nexmark source keeps each subtask's position in checkpoints: restored
// after any event, every subtask makes the rest of its events, each once,
// with the same watermarks; a paced source keeps its rate from the restored
// event on; restored at another parallelism, again and again, every event is
// made exactly once.
#include "nexmark/nexmark_source.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

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

/// The records among `lines` (not the watermarks).
Lines recordsOf(const Lines& lines) {
  Lines records;
  for (const std::string& line : lines) {
    if (line.starts_with("Record(")) records.push_back(line);
  }
  return records;
}

/// Runs each subtask of `parallelism`, restored from `states` (none: a fresh
/// start), until it made `records[i]` records and snapshots there (or to the
/// end, for kToTheEnd; or snapshots before it runs, for kBeforeRun: a
/// subtask with nothing left to make); adds what it made to `made`.
constexpr std::size_t kToTheEnd = 0;
constexpr std::size_t kBeforeRun = static_cast<std::size_t>(-1);
std::vector<OperatorSubtaskState> runGeneration(const NexmarkSource& source, int parallelism,
                                                const std::vector<OperatorSubtaskState>& states,
                                                const std::vector<std::size_t>& records, Lines& made) {
  std::vector<OperatorSubtaskState> snapshots;
  for (int index = 0; index < parallelism; ++index) {
    SourceFunctionTestHarness<Event> harness(source, OperatorTestHarnessOptions::subtask(index, parallelism));
    if (!states.empty()) harness.initializeState(states);
    harness.open();
    const std::size_t target = records[static_cast<std::size_t>(index)];
    if (target == kBeforeRun) {
      snapshots.push_back(harness.snapshot(1));
      continue;
    }
    if (target == kToTheEnd) {
      harness.run();
      for (const std::string& line : recordsOf(harness.getOutput().lines())) made.push_back(line);
      continue;
    }
    snapshots.push_back(harness.runUntilSnapshot(target, 1));
    Lines lines = harness.getOutput().lines();
    lines.resize(harness.eventsBeforeSnapshot());
    for (const std::string& line : recordsOf(lines)) made.push_back(line);
  }
  return snapshots;
}

Lines sorted(Lines lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(NexmarkSourceTest, RestoredAtAnotherParallelismItMakesEveryEventNotYetMadeExactlyOnce) {
  const NexmarkSource source(smallRun());
  const Lines every = sorted(recordsOf(testing_support::runToEnd<Event>(source)));
  ASSERT_EQ(every.size(), 60u);
  // Subtask 0 of 2 makes blocks 0 and 2 (events 0-19, 40-59), subtask 1 block 1 (20-39).
  for (const std::size_t first : {1u, 19u, 20u, 25u, 39u}) {
    for (const std::size_t second : {1u, 10u, 19u}) {
      for (const int to : {1, 3}) {
        SCOPED_TRACE(fmt::format("snapshot after {} and {} records, restored at parallelism {}", first, second, to));
        Lines made;
        const auto states = runGeneration(source, 2, {}, {first, second}, made);
        runGeneration(source, to, states, std::vector<std::size_t>(static_cast<std::size_t>(to), kToTheEnd), made);
        EXPECT_EQ(sorted(made), every);
      }
    }
  }
}

TEST(NexmarkSourceTest, RescaledAgainItStillMakesEveryEventExactlyOnce) {
  const NexmarkSource source(smallRun());
  const Lines every = sorted(recordsOf(testing_support::runToEnd<Event>(source)));
  Lines made;
  // 2 -> 3 -> 3 (the same generation goes on) -> 1: four runs, three generations.
  // At 2, subtask 0 makes 0-19 and 40-44, subtask 1 20-24. At 3, subtask 0
  // owns block 0, all made; subtask 1 makes 25-27 of block 1, subtask 2 45-46
  // of block 2; then 28-29 and 47. At 1, the rest: 30-39 and 48-59.
  auto states = runGeneration(source, 2, {}, {25, 5}, made);
  states = runGeneration(source, 3, states, {kBeforeRun, 3, 2}, made);
  states = runGeneration(source, 3, states, {kBeforeRun, 2, 1}, made);
  EXPECT_EQ(made.size(), 38u);
  runGeneration(source, 1, states, {kToTheEnd}, made);
  EXPECT_EQ(sorted(made), every);
}

}  // namespace
}  // namespace tidemark::nexmark
