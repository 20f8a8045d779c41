#include "tidemark/internal/state/heap_list_state.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "internal/state/state_test_support.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"

namespace tidemark::internal {
namespace {

using testing::kMaxParallelism;
using testing::TestWindow;
using Strings = std::vector<std::string>;

class HeapListStateTest : public ::testing::Test {
 protected:
  HeapKeyedStateBackend<int> backend_{KeyGroupRange{0, kMaxParallelism - 1}, kMaxParallelism};
};

TEST_F(HeapListStateTest, EachKeySeesItsOwnListInAddOrder) {
  ListState<std::string>& state = backend_.getListState(ListStateDescriptor<std::string>("buffer"));
  backend_.setCurrentKey(1);
  state.add("a");
  backend_.setCurrentKey(2);
  state.add("x");
  backend_.setCurrentKey(1);
  state.add("b");
  state.add("c");
  EXPECT_EQ(state.get(), (Strings{"a", "b", "c"}));
  backend_.setCurrentKey(2);
  EXPECT_EQ(state.get(), (Strings{"x"}));
  backend_.setCurrentKey(3);
  EXPECT_EQ(state.get(), Strings{});
}

TEST_F(HeapListStateTest, ForEachVisitsTheCurrentKeysListInAddOrder) {
  ListState<std::string>& state = backend_.getListState(ListStateDescriptor<std::string>("buffer"));
  backend_.setCurrentKey(1);
  state.addAll({"a", "b"});
  backend_.setCurrentKey(2);
  state.add("x");
  backend_.setCurrentKey(1);
  state.add("c");
  Strings visited;
  state.forEach([&](const std::string& value) { visited.push_back(value); });
  EXPECT_EQ(visited, (Strings{"a", "b", "c"}));
  backend_.setCurrentKey(3);
  visited.clear();
  state.forEach([&](const std::string& value) { visited.push_back(value); });
  EXPECT_EQ(visited, Strings{});
}

TEST_F(HeapListStateTest, AddAllAppendsAndUpdateReplaces) {
  ListState<int>& state = backend_.getListState(ListStateDescriptor<int>("numbers"));
  backend_.setCurrentKey(1);
  state.addAll({1, 2});
  state.addAll({3});
  state.add(4);
  EXPECT_EQ(state.get(), (std::vector<int>{1, 2, 3, 4}));
  state.update({9, 8});
  EXPECT_EQ(state.get(), (std::vector<int>{9, 8}));
  EXPECT_EQ(backend_.numStateEntries(), 1u);
}

TEST_F(HeapListStateTest, EmptyListsAreNeverStored) {
  ListState<int>& state = backend_.getListState(ListStateDescriptor<int>("numbers"));
  backend_.setCurrentKey(1);
  state.addAll({});
  EXPECT_EQ(backend_.numStateEntries(), 0u);
  state.update({1});
  EXPECT_EQ(backend_.numStateEntries(), 1u);
  state.update({});
  EXPECT_EQ(state.get(), std::vector<int>{});
  EXPECT_EQ(backend_.numStateEntries(), 0u);
}

TEST_F(HeapListStateTest, ClearRemovesTheEntry) {
  ListState<int>& state = backend_.getListState(ListStateDescriptor<int>("numbers"));
  for (int key = 0; key < 10; ++key) {
    backend_.setCurrentKey(key);
    state.add(key);
    state.add(key + 1);
  }
  EXPECT_EQ(backend_.numStateEntries(), 10u);
  backend_.setCurrentKey(4);
  state.clear();
  EXPECT_EQ(state.get(), std::vector<int>{});
  EXPECT_EQ(backend_.numStateEntries(), 9u);
  backend_.setCurrentKey(5);
  EXPECT_EQ(state.get(), (std::vector<int>{5, 6}));
  for (int key = 0; key < 10; ++key) {
    backend_.setCurrentKey(key);
    state.clear();
  }
  EXPECT_EQ(backend_.numStateEntries(), 0u);
}

TEST_F(HeapListStateTest, AddReportingNewIsTrueOnlyForTheAddThatMakesTheEntry) {
  auto& state = backend_.getPartitionedState<TestWindow>(ListStateDescriptor<int>("contents"));
  backend_.setCurrentKey(1);
  state.setCurrentNamespace(TestWindow{0, 10});
  EXPECT_TRUE(state.addReportingNew(1));
  EXPECT_FALSE(state.addReportingNew(2));
  state.setCurrentNamespace(TestWindow{10, 20});
  EXPECT_TRUE(state.addReportingNew(3));
  backend_.setCurrentKey(2);
  state.setCurrentNamespace(TestWindow{0, 10});
  EXPECT_TRUE(state.addReportingNew(4));
  backend_.setCurrentKey(1);
  EXPECT_FALSE(state.addReportingNew(5));
  EXPECT_EQ(state.get(), (std::vector<int>{1, 2, 5}));
  state.clear();
  EXPECT_TRUE(state.addReportingNew(6));
  EXPECT_EQ(state.get(), (std::vector<int>{6}));
}

TEST_F(HeapListStateTest, NamespacesAreSeparate) {
  auto& state = backend_.getPartitionedState<TestWindow>(ListStateDescriptor<int>("contents"));
  backend_.setCurrentKey(1);
  state.setCurrentNamespace(TestWindow{0, 10});
  state.add(1);
  state.setCurrentNamespace(TestWindow{10, 20});
  state.add(2);
  state.add(3);
  EXPECT_EQ(state.get(), (std::vector<int>{2, 3}));
  state.setCurrentNamespace(TestWindow{0, 10});
  EXPECT_EQ(state.get(), (std::vector<int>{1}));
  state.clear();
  EXPECT_EQ(backend_.numStateEntries(), 1u);
}

TEST_F(HeapListStateTest, MergeNamespacesAppendsSourcesAfterTargetInOrder) {
  auto& state = backend_.getPartitionedState<TestWindow>(ListStateDescriptor<int>("contents"));
  const TestWindow a{0, 10};
  const TestWindow b{5, 15};
  const TestWindow c{12, 20};
  const TestWindow merged{0, 20};
  backend_.setCurrentKey(1);
  state.setCurrentNamespace(a);
  state.addAll({1, 2});
  state.setCurrentNamespace(c);
  state.add(5);
  state.setCurrentNamespace(merged);
  state.add(0);
  backend_.setCurrentKey(2);  // another key's windows must stay untouched
  state.setCurrentNamespace(a);
  state.add(100);

  backend_.setCurrentKey(1);
  state.mergeNamespaces(merged, {a, b, c, merged});
  state.setCurrentNamespace(merged);
  EXPECT_EQ(state.get(), (std::vector<int>{0, 1, 2, 5}));
  state.setCurrentNamespace(a);
  EXPECT_EQ(state.get(), std::vector<int>{});
  backend_.setCurrentKey(2);
  EXPECT_EQ(state.get(), (std::vector<int>{100}));
  EXPECT_EQ(backend_.numStateEntries(), 2u);
}

TEST_F(HeapListStateTest, SameNameReturnsTheSameObjectAndOtherTypesThrow) {
  ListState<int>& first = backend_.getListState(ListStateDescriptor<int>("numbers"));
  ListState<int>& second = backend_.getListState(ListStateDescriptor<int>("numbers"));
  EXPECT_EQ(&first, &second);
  EXPECT_THROW(backend_.getListState(ListStateDescriptor<long>("numbers")), std::logic_error);
  EXPECT_THROW(backend_.getState(ValueStateDescriptor<int>("numbers")), std::logic_error);
}

}  // namespace
}  // namespace tidemark::internal
