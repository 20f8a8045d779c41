// Operator state moves between subtasks as the contract says: back to its own
// subtask at the same parallelism, in contiguous even shares when rescaled,
// to everyone when it is union state; snapshots that disagree are refused.
#include "tidemark/internal/state/operator_state_snapshot.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tidemark/core/job_execution_result.h"

namespace tidemark::internal {
namespace {

using ::testing::HasSubstr;
using Elements = std::vector<std::string>;
constexpr auto kSplit = OperatorStateDistribution::SPLIT_DISTRIBUTE;
constexpr auto kUnion = OperatorStateDistribution::UNION;

OperatorListStateSnapshot list(std::string name, OperatorStateDistribution distribution, Elements elements,
                               std::string signature = "i64") {
  return {std::move(name), distribution, std::move(signature), std::move(elements)};
}

OperatorStateSnapshot subtask(int index, int parallelism, std::vector<OperatorListStateSnapshot> lists) {
  return {index, parallelism, std::move(lists)};
}

/// The elements of list `name` that subtask `index` of `parallelism` restores.
Elements share(const std::vector<OperatorStateSnapshot>& old, int index, int parallelism, const std::string& name) {
  for (const OperatorListStateSnapshot& restored : redistributeOperatorState(old, index, parallelism)) {
    if (restored.name == name) return restored.elements;
  }
  return {"<no list " + name + ">"};
}

TEST(OperatorStateSnapshotTest, AtTheSameParallelismEachSubtaskGetsBackWhatItWrote) {
  const std::vector<OperatorStateSnapshot> old{subtask(1, 2, {list("offsets", kSplit, {"c"})}),
                                               subtask(0, 2, {list("offsets", kSplit, {"a", "b"})})};
  EXPECT_EQ(share(old, 0, 2, "offsets"), (Elements{"a", "b"}));
  EXPECT_EQ(share(old, 1, 2, "offsets"), (Elements{"c"}));
}

TEST(OperatorStateSnapshotTest, RescaledDownOneSubtaskTakesEveryElementInSubtaskOrder) {
  const std::vector<OperatorStateSnapshot> old{subtask(1, 2, {list("offsets", kSplit, {"c"})}),
                                               subtask(0, 2, {list("offsets", kSplit, {"a", "b"})})};
  EXPECT_EQ(share(old, 0, 1, "offsets"), (Elements{"a", "b", "c"}));
}

TEST(OperatorStateSnapshotTest, RescaledUpTheFirstSubtasksTakeOneMoreOfAnUnevenSplit) {
  const std::vector<OperatorStateSnapshot> old{subtask(0, 1, {list("offsets", kSplit, {"a", "b", "c", "d"})})};
  EXPECT_EQ(share(old, 0, 3, "offsets"), (Elements{"a", "b"}));
  EXPECT_EQ(share(old, 1, 3, "offsets"), (Elements{"c"}));
  EXPECT_EQ(share(old, 2, 3, "offsets"), (Elements{"d"}));
}

TEST(OperatorStateSnapshotTest, RescaledToMoreSubtasksThanElementsTheLastGetAnEmptyList) {
  const std::vector<OperatorStateSnapshot> old{subtask(0, 2, {list("offsets", kSplit, {"a"})}),
                                               subtask(1, 2, {list("offsets", kSplit, {})})};
  EXPECT_EQ(share(old, 0, 3, "offsets"), (Elements{"a"}));
  EXPECT_EQ(share(old, 1, 3, "offsets"), Elements{});
  EXPECT_EQ(share(old, 2, 3, "offsets"), Elements{});
}

TEST(OperatorStateSnapshotTest, UnionStateGoesWholeToEverySubtaskAtAnyParallelism) {
  const std::vector<OperatorStateSnapshot> old{subtask(1, 2, {list("scripts", kUnion, {"s1"})}),
                                               subtask(0, 2, {list("scripts", kUnion, {"s0"})})};
  for (int parallelism : {1, 2, 3}) {
    for (int index = 0; index < parallelism; ++index) {
      EXPECT_EQ(share(old, index, parallelism, "scripts"), (Elements{"s0", "s1"}))
          << "subtask " << index << " of " << parallelism;
    }
  }
}

TEST(OperatorStateSnapshotTest, ListsComeBackSortedByNameWithTheirShape) {
  const std::vector<OperatorStateSnapshot> old{
      subtask(0, 1, {list("b", kUnion, {"x"}, "str"), list("a", kSplit, {"y"})})};
  const std::vector<OperatorListStateSnapshot> restored = redistributeOperatorState(old, 0, 1);
  ASSERT_EQ(restored.size(), 2u);
  EXPECT_EQ(restored[0].name, "a");
  EXPECT_EQ(restored[0].distribution, kSplit);
  EXPECT_EQ(restored[0].element_signature, "i64");
  EXPECT_EQ(restored[1].name, "b");
  EXPECT_EQ(restored[1].distribution, kUnion);
  EXPECT_EQ(restored[1].element_signature, "str");
}

TEST(OperatorStateSnapshotTest, SubtasksThatDisagreeAboutAListAreRefusedNamingIt) {
  const std::vector<OperatorStateSnapshot> other_type{subtask(0, 2, {list("offsets", kSplit, {"a"}, "i64")}),
                                                      subtask(1, 2, {list("offsets", kSplit, {"b"}, "str")})};
  EXPECT_THAT([&] { redistributeOperatorState(other_type, 0, 2); },
              ::testing::ThrowsMessage<StateMigrationException>(
                  HasSubstr("operator state 'offsets' differs between the snapshots restored: a split list of i64 in "
                            "one, a split list of str in another")));
  const std::vector<OperatorStateSnapshot> other_distribution{subtask(0, 2, {list("offsets", kSplit, {"a"})}),
                                                              subtask(1, 2, {list("offsets", kUnion, {"b"})})};
  EXPECT_THAT([&] { redistributeOperatorState(other_distribution, 0, 1); },
              ::testing::ThrowsMessage<StateMigrationException>(HasSubstr("a split list of i64 in one, a union list")));
}

TEST(OperatorStateSnapshotTest, TwoSnapshotsOfOneSubtaskAreRefused) {
  const std::vector<OperatorStateSnapshot> old{subtask(1, 2, {}), subtask(1, 2, {})};
  EXPECT_THAT([&] { redistributeOperatorState(old, 0, 2); },
              ::testing::ThrowsMessage<StateMigrationException>(
                  HasSubstr("two snapshots restored are both of subtask 2")));
}

}  // namespace
}  // namespace tidemark::internal
