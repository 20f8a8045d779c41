// OperatorStateStore: lists registered by name keep their values and come
// back restored; a name asked for with another shape is refused, at
// registration and at restore; restored lists nobody asks for are kept.
#include "tidemark/functions/operator_state_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tidemark/core/job_execution_result.h"
#include "tidemark/serialization/serialization_error.h"

namespace tidemark {
namespace {

using ::testing::HasSubstr;
using internal::OperatorListStateSnapshot;
using internal::OperatorStateDistribution;
using Offsets = std::vector<std::int64_t>;

/// The lists a store with `values` in a split list "offsets" snapshots.
std::vector<OperatorListStateSnapshot> snapshotOf(const Offsets& values) {
  OperatorStateStore store("source", {});
  store.getListState(ListStateDescriptor<std::int64_t>("offsets")).update(values);
  return store.snapshotLists();
}

TEST(OperatorStateStoreTest, AListKeepsItsValuesAndOneNameIsOneList) {
  OperatorStateStore store("source", {});
  ListState<std::int64_t>& offsets = store.getListState(ListStateDescriptor<std::int64_t>("offsets"));
  offsets.add(3);
  offsets.addAll({4, 5});
  EXPECT_EQ(&store.getListState(ListStateDescriptor<std::int64_t>("offsets")), &offsets);
  EXPECT_EQ(offsets.get(), (Offsets{3, 4, 5}));
  offsets.update({7});
  EXPECT_EQ(offsets.get(), (Offsets{7}));
  offsets.clear();
  EXPECT_EQ(offsets.get(), Offsets{});
}

TEST(OperatorStateStoreTest, ASnapshotHoldsEveryListSortedByNameWithItsShape) {
  OperatorStateStore store("source", {});
  store.getUnionListState(ListStateDescriptor<std::string>("b")).add("x");
  store.getListState(ListStateDescriptor<std::int64_t>("a")).addAll({1, 2});
  const std::vector<OperatorListStateSnapshot> lists = store.snapshotLists();
  ASSERT_EQ(lists.size(), 2u);
  EXPECT_EQ(lists[0].name, "a");
  EXPECT_EQ(lists[0].distribution, OperatorStateDistribution::SPLIT_DISTRIBUTE);
  EXPECT_EQ(lists[0].element_signature, "i64");
  EXPECT_EQ(lists[0].elements, (std::vector<std::string>{serializeToBytes(std::int64_t{1}), serializeToBytes(std::int64_t{2})}));
  EXPECT_EQ(lists[1].name, "b");
  EXPECT_EQ(lists[1].distribution, OperatorStateDistribution::UNION);
  EXPECT_EQ(lists[1].elements, (std::vector<std::string>{serializeToBytes(std::string("x"))}));
}

TEST(OperatorStateStoreTest, ARestoredListComesBackWithItsValues) {
  OperatorStateStore restored("source", snapshotOf({10, 20}));
  EXPECT_EQ(restored.getListState(ListStateDescriptor<std::int64_t>("offsets")).get(), (Offsets{10, 20}));
}

TEST(OperatorStateStoreTest, ARestoredListNobodyAsksForGoesIntoTheNextSnapshotUnchanged) {
  const std::vector<OperatorListStateSnapshot> before = snapshotOf({10, 20});
  OperatorStateStore restored("source", before);
  restored.getListState(ListStateDescriptor<std::int64_t>("other")).add(1);
  const std::vector<OperatorListStateSnapshot> after = restored.snapshotLists();
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(after[0].name, "offsets");
  EXPECT_EQ(after[0].elements, before[0].elements);
  EXPECT_EQ(after[1].name, "other");
}

TEST(OperatorStateStoreTest, ANameAskedForWithAnotherShapeIsAnInvalidProgram) {
  OperatorStateStore store("source", {});
  store.getListState(ListStateDescriptor<std::int64_t>("offsets"));
  EXPECT_THAT([&] { store.getListState(ListStateDescriptor<std::string>("offsets")); },
              ::testing::ThrowsMessage<InvalidProgramException>(
                  HasSubstr("operator state 'offsets' of operator 'source' was asked for as a split list of i64, and "
                            "now as a split list of string")));
  EXPECT_THAT([&] { store.getUnionListState(ListStateDescriptor<std::int64_t>("offsets")); },
              ::testing::ThrowsMessage<InvalidProgramException>(HasSubstr("and now as a union list of i64")));
}

TEST(OperatorStateStoreTest, ARestoredListOfAnotherShapeIsAStateMigrationError) {
  OperatorStateStore restored("source", snapshotOf({10}));
  EXPECT_THAT([&] { restored.getUnionListState(ListStateDescriptor<std::int64_t>("offsets")); },
              ::testing::ThrowsMessage<StateMigrationException>(
                  HasSubstr("operator state 'offsets' of operator 'source' was snapshotted as a split list of i64 and "
                            "is now asked for as a union list of i64")));
}

TEST(OperatorStateStoreTest, ACorruptRestoredElementIsASerializationErrorNamingItsPlace) {
  std::vector<OperatorListStateSnapshot> corrupt = snapshotOf({10, 20});
  corrupt[0].elements[1].resize(3);
  OperatorStateStore restored("source", corrupt);
  EXPECT_THAT([&] { restored.getListState(ListStateDescriptor<std::int64_t>("offsets")); },
              ::testing::ThrowsMessage<SerializationError>(
                  HasSubstr("operator state 'offsets' of operator 'source', element 1: ")));
}

}  // namespace
}  // namespace tidemark
