#include "tidemark/internal/state/heap_reducing_state.h"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "internal/state/state_test_support.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"

namespace tidemark::internal {
namespace {

using testing::kMaxParallelism;
using testing::TestWindow;

// Not commutative, so the result shows the order in which values were reduced.
std::string concat(const std::string& stored, const std::string& added) { return stored + "," + added; }

class HeapReducingStateTest : public ::testing::Test {
 protected:
  HeapKeyedStateBackend<int> backend_{KeyGroupRange{0, kMaxParallelism - 1}, kMaxParallelism};
};

TEST_F(HeapReducingStateTest, ReducesStoredWithAddedInAddOrder) {
  std::vector<std::pair<std::string, std::string>> calls;
  ReducingState<std::string>& state = backend_.getReducingState(ReducingStateDescriptor<std::string>(
      "trail", [&calls](const std::string& stored, const std::string& added) {
        calls.emplace_back(stored, added);
        return concat(stored, added);
      }));
  backend_.setCurrentKey(1);
  state.add("a");
  EXPECT_TRUE(calls.empty());  // the first value is stored as is
  state.add("b");
  state.add("c");
  EXPECT_EQ(state.get(), "a,b,c");
  const std::vector<std::pair<std::string, std::string>> expected = {{"a", "b"}, {"a,b", "c"}};
  EXPECT_EQ(calls, expected);
}

TEST_F(HeapReducingStateTest, EachKeySeesItsOwnValue) {
  ReducingState<long>& sum = backend_.getReducingState(
      ReducingStateDescriptor<long>("sum", [](const long& a, const long& b) { return a + b; }));
  for (int key = 0; key < 4; ++key) {
    backend_.setCurrentKey(key);
    for (long v = 1; v <= key + 1; ++v) {
      sum.add(v * 10);
    }
  }
  backend_.setCurrentKey(0);
  EXPECT_EQ(sum.get(), 10);
  backend_.setCurrentKey(2);
  EXPECT_EQ(sum.get(), 60);
  backend_.setCurrentKey(3);
  EXPECT_EQ(sum.get(), 100);
  backend_.setCurrentKey(4);
  EXPECT_EQ(sum.get(), std::nullopt);
}

TEST_F(HeapReducingStateTest, ClearRemovesTheEntry) {
  ReducingState<long>& max = backend_.getReducingState(
      ReducingStateDescriptor<long>("max", [](const long& a, const long& b) { return a > b ? a : b; }));
  backend_.setCurrentKey(1);
  max.add(3);
  max.add(9);
  max.add(4);
  EXPECT_EQ(max.get(), 9);
  EXPECT_EQ(backend_.numStateEntries(), 1u);
  max.clear();
  EXPECT_EQ(max.get(), std::nullopt);
  EXPECT_EQ(backend_.numStateEntries(), 0u);
  max.add(2);  // starts over from the first value
  EXPECT_EQ(max.get(), 2);
}

TEST_F(HeapReducingStateTest, NamespacesAreSeparate) {
  auto& state = backend_.getPartitionedState<TestWindow>(ReducingStateDescriptor<std::string>("trail", concat));
  backend_.setCurrentKey(1);
  state.setCurrentNamespace(TestWindow{0, 10});
  state.add("a");
  state.setCurrentNamespace(TestWindow{10, 20});
  EXPECT_EQ(state.get(), std::nullopt);
  state.add("x");
  state.setCurrentNamespace(TestWindow{0, 10});
  state.add("b");
  EXPECT_EQ(state.get(), "a,b");
  state.setCurrentNamespace(TestWindow{10, 20});
  EXPECT_EQ(state.get(), "x");
}

TEST_F(HeapReducingStateTest, AddReportingNewIsTrueOnlyForTheAddThatMakesTheEntry) {
  auto& state = backend_.getPartitionedState<TestWindow>(ReducingStateDescriptor<std::string>("trail", concat));
  backend_.setCurrentKey(1);
  state.setCurrentNamespace(TestWindow{0, 10});
  EXPECT_TRUE(state.addReportingNew("a"));
  EXPECT_FALSE(state.addReportingNew("b"));
  state.setCurrentNamespace(TestWindow{10, 20});
  EXPECT_TRUE(state.addReportingNew("x"));
  backend_.setCurrentKey(2);
  state.setCurrentNamespace(TestWindow{0, 10});
  EXPECT_TRUE(state.addReportingNew("p"));
  backend_.setCurrentKey(1);
  EXPECT_FALSE(state.addReportingNew("c"));
  EXPECT_EQ(state.get(), "a,b,c");
  state.clear();
  EXPECT_TRUE(state.addReportingNew("d"));
  EXPECT_EQ(state.get(), "d");
}

TEST_F(HeapReducingStateTest, MergeNamespacesFoldsTargetThenSourcesInOrder) {
  auto& state = backend_.getPartitionedState<TestWindow>(ReducingStateDescriptor<std::string>("trail", concat));
  const TestWindow a{0, 10};
  const TestWindow b{5, 15};
  const TestWindow c{12, 20};
  const TestWindow empty{30, 40};
  backend_.setCurrentKey(1);
  state.setCurrentNamespace(a);
  state.add("a");
  state.setCurrentNamespace(b);
  state.add("b");
  state.setCurrentNamespace(c);
  state.add("c");
  state.mergeNamespaces(b, {c, a, empty});
  state.setCurrentNamespace(b);
  EXPECT_EQ(state.get(), "b,c,a");
  state.setCurrentNamespace(a);
  EXPECT_EQ(state.get(), std::nullopt);
  EXPECT_EQ(backend_.numStateEntries(), 1u);
  state.mergeNamespaces(empty, {TestWindow{50, 60}});  // nothing to merge creates nothing
  EXPECT_EQ(backend_.numStateEntries(), 1u);
}

TEST_F(HeapReducingStateTest, SameNameReturnsTheSameObjectAndOtherTypesThrow) {
  auto plus = [](const long& a, const long& b) { return a + b; };
  ReducingState<long>& first = backend_.getReducingState(ReducingStateDescriptor<long>("sum", plus));
  ReducingState<long>& second = backend_.getReducingState(ReducingStateDescriptor<long>("sum", plus));
  EXPECT_EQ(&first, &second);
  EXPECT_THROW(backend_.getReducingState(ReducingStateDescriptor<int>("sum", [](const int& a, const int& b) {
                 return a + b;
               })),
               std::logic_error);
  EXPECT_THROW(backend_.getState(ValueStateDescriptor<long>("sum")), std::logic_error);
}

TEST(ReducingStateDescriptorTest, RejectsAnEmptyFunction) {
  EXPECT_THROW(ReducingStateDescriptor<long>("sum", nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace tidemark::internal
