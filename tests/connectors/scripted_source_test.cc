// ScriptedSource deals its scripts out to its subtasks (script j to subtask
// j % P) and keeps each script's position in checkpoints: restored, a
// script's steps keep their distance from the checkpoint; rescaled from two subtasks to one,
// the one plays both scripts merged by due instant.
#include "tidemark/connectors/scripted_source.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/source_replay.h"
#include "tidemark/testing/source_function_harness.h"

namespace tidemark {
namespace {

using Source = ScriptedSource<std::string>;
using Values = std::vector<std::string>;

/// Runs subtask `index` of two until `records` records went out and snapshots there.
OperatorSubtaskState snapshotOfSubtask(const Source& source, int index, std::size_t records) {
  SourceFunctionTestHarness<std::string> harness(source, OperatorTestHarnessOptions::subtask(index, 2));
  harness.open();
  return harness.runUntilSnapshot(records, 1);
}

const Source kTwoScripts({{{10, "a1", {}}, {30, "a2", {}}, {50, "a3", {}}}, {{20, "b1", {}}, {40, "b2", {}}}});

TEST(ScriptedSourceTest, StartedWithFewerSubtasksThanScriptsEachSubtaskPlaysEveryPthScriptByDueInstant) {
  const Source three({{{10, "a1", {}}, {30, "a2", {}}}, {{20, "b1", {}}}, {{10, "c1", {}}, {25, "c2", {}}}});
  SourceFunctionTestHarness<std::string> alone(three);
  alone.open();
  alone.run();
  EXPECT_EQ(alone.extractOutputValues(), (Values{"a1", "c1", "b1", "c2", "a2"}));  // ties in script order

  std::vector<Values> played;
  for (int index = 0; index < 2; ++index) {
    SourceFunctionTestHarness<std::string> subtask(three, OperatorTestHarnessOptions::subtask(index, 2));
    subtask.open();
    subtask.run();
    played.push_back(subtask.extractOutputValues());
  }
  EXPECT_EQ(played, (std::vector<Values>{{"a1", "c1", "c2", "a2"}, {"b1"}}));
}

TEST(ScriptedSourceTest, RestoredAfterAnyStepItPlaysTheRestOfItsScript) {
  // Two steps at one instant, steps with and without a timestamp.
  const Source source = Source::single({{10, "x", 5}, {10, "y", 6}, {25, "z", {}}, {40, "w", 30}});
  testing_support::expectRestoreAtEveryRecordReplaysExactly<std::string>(source, 4);
}

TEST(ScriptedSourceTest, RestoredStepsKeepTheirDistanceFromTheCheckpoint) {
  SourceFunctionTestHarness<std::string> first(Source::single({{10, "x", {}}, {25, "y", {}}, {40, "z", {}}}));
  first.open();
  const OperatorSubtaskState state = first.runUntilSnapshot(1, 1);  // at 10 ms, after x

  // Restored at 1000 ms: y was 15 ms after the checkpoint, z 30 ms.
  SourceFunctionTestHarness<std::string> second(Source::single({{10, "x", {}}, {25, "y", {}}, {40, "z", {}}}));
  second.setProcessingTime(1000);
  second.initializeState(state);
  second.open();
  second.run();
  EXPECT_EQ(second.extractOutputValues(), (Values{"y", "z"}));
  EXPECT_EQ(second.getProcessingTime(), 1030);
}

TEST(ScriptedSourceTest, RescaledFromTwoSubtasksToOneItPlaysBothScriptsByDueInstant) {
  const std::vector<OperatorSubtaskState> states{snapshotOfSubtask(kTwoScripts, 0, 1),
                                                 snapshotOfSubtask(kTwoScripts, 1, 1)};
  // Snapshots at 10 ms (after a1) and 20 ms (after b1), restored at 100 ms:
  // a2 and b2 both 110 ms after their snapshots, a3 130 ms.
  SourceFunctionTestHarness<std::string> restored(kTwoScripts);
  restored.setProcessingTime(100);
  restored.initializeState(states);
  restored.open();
  restored.run();
  EXPECT_EQ(restored.extractOutputValues(), (Values{"a2", "b2", "a3"}));
  EXPECT_EQ(restored.getProcessingTime(), 140);
}

TEST(ScriptedSourceTest, RestoredAtTheSameParallelismEachSubtaskPlaysItsOwnScript) {
  const std::vector<OperatorSubtaskState> states{snapshotOfSubtask(kTwoScripts, 0, 2),
                                                 snapshotOfSubtask(kTwoScripts, 1, 1)};
  std::vector<Values> played;
  for (int index = 0; index < 2; ++index) {
    SourceFunctionTestHarness<std::string> restored(kTwoScripts, OperatorTestHarnessOptions::subtask(index, 2));
    restored.initializeState(states);
    restored.open();
    restored.run();
    played.push_back(restored.extractOutputValues());
  }
  EXPECT_EQ(played, (std::vector<Values>{{"a3"}, {"b2"}}));
}

TEST(ScriptedSourceTest, ARestoredSourceStillEndsWhereEndAtSays) {
  Source source = Source::single({{10, "x", {}}, {20, "y", {}}});
  source.endAt(100);
  SourceFunctionTestHarness<std::string> first(source);
  first.open();
  const OperatorSubtaskState state = first.runUntilSnapshot(1, 1);
  SourceFunctionTestHarness<std::string> second(source);
  second.setProcessingTime(1000);  // the checkpoint was at 10 ms: the input ends 90 ms after it
  second.initializeState(state);
  second.open();
  second.run();
  EXPECT_EQ(second.extractOutputValues(), (Values{"y"}));
  EXPECT_EQ(second.getProcessingTime(), 1090);
}

TEST(ScriptedSourceTest, ARestoredPositionOfAScriptTheSourceDoesNotHaveFailsTheJob) {
  const std::vector<OperatorSubtaskState> states{snapshotOfSubtask(kTwoScripts, 0, 1),
                                                 snapshotOfSubtask(kTwoScripts, 1, 1)};
  testing_support::expectRestoredRunFails<std::string>(
      Source::single({{10, "only", {}}}), states,
      "ScriptedSource: the restored position names script 1, but the source has 1 scripts");
}

}  // namespace
}  // namespace tidemark
