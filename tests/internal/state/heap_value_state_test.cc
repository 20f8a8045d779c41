#include "tidemark/internal/state/heap_value_state.h"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "internal/state/state_test_support.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"

namespace tidemark::internal {
namespace {

using testing::kMaxParallelism;
using testing::TestWindow;

class HeapValueStateTest : public ::testing::Test {
 protected:
  HeapKeyedStateBackend<std::string> backend_{KeyGroupRange{0, kMaxParallelism - 1}, kMaxParallelism};
};

TEST_F(HeapValueStateTest, EachKeySeesItsOwnValue) {
  ValueState<long>& state = backend_.getState(ValueStateDescriptor<long>("count"));
  backend_.setCurrentKey("alice");
  state.update(1);
  backend_.setCurrentKey("bob");
  EXPECT_EQ(state.value(), std::nullopt);
  state.update(2);
  backend_.setCurrentKey("alice");
  EXPECT_EQ(state.value(), 1);
  state.update(*state.value() + 10);
  backend_.setCurrentKey("bob");
  EXPECT_EQ(state.value(), 2);
  backend_.setCurrentKey("alice");
  EXPECT_EQ(state.value(), 11);
}

TEST_F(HeapValueStateTest, UnsetValueIsTheDescriptorDefault) {
  ValueState<long>& with_default = backend_.getState(ValueStateDescriptor<long>("with-default", 42L));
  ValueState<long>& without_default = backend_.getState(ValueStateDescriptor<long>("without-default"));
  backend_.setCurrentKey("k");
  EXPECT_EQ(with_default.value(), 42);
  EXPECT_EQ(without_default.value(), std::nullopt);
  // Reading the default must not store it.
  EXPECT_EQ(backend_.numStateEntries(), 0u);
  with_default.update(7);
  EXPECT_EQ(with_default.value(), 7);
}

TEST_F(HeapValueStateTest, ClearRemovesTheEntry) {
  ValueState<std::string>& state =
      backend_.getState(ValueStateDescriptor<std::string>("name", std::string("nobody")));
  backend_.setCurrentKey("k1");
  state.update("first");
  backend_.setCurrentKey("k2");
  state.update("second");
  EXPECT_EQ(backend_.numStateEntries(), 2u);
  state.clear();
  EXPECT_EQ(state.value(), "nobody");
  EXPECT_EQ(backend_.numStateEntries(), 1u);
  backend_.setCurrentKey("k1");
  EXPECT_EQ(state.value(), "first");
  state.clear();
  EXPECT_EQ(backend_.numStateEntries(), 0u);
  state.clear();  // clearing an unset entry is a no-op
  EXPECT_EQ(backend_.numStateEntries(), 0u);
}

TEST_F(HeapValueStateTest, UpdatingAnExistingEntryDoesNotAddOne) {
  ValueState<long>& state = backend_.getState(ValueStateDescriptor<long>("count"));
  backend_.setCurrentKey("k");
  for (long i = 0; i < 100; ++i) {
    state.update(i);
  }
  EXPECT_EQ(state.value(), 99);
  EXPECT_EQ(backend_.numStateEntries(), 1u);
}

TEST_F(HeapValueStateTest, NamespacesAreSeparate) {
  auto& state = backend_.getPartitionedState<TestWindow>(ValueStateDescriptor<long>("per-window", -1L));
  backend_.setCurrentKey("k");
  state.setCurrentNamespace(TestWindow{0, 10});
  state.update(1);
  state.setCurrentNamespace(TestWindow{10, 20});
  EXPECT_EQ(state.value(), -1);
  state.update(2);
  state.setCurrentNamespace(TestWindow{0, 10});
  EXPECT_EQ(state.value(), 1);
  EXPECT_EQ(state.getCurrentNamespace(), (TestWindow{0, 10}));
  state.clear();
  state.setCurrentNamespace(TestWindow{10, 20});
  EXPECT_EQ(state.value(), 2);
  EXPECT_EQ(backend_.numStateEntries(), 1u);
}

TEST_F(HeapValueStateTest, NamespacedStateWithoutANamespaceThrows) {
  auto& state = backend_.getPartitionedState<TestWindow>(ValueStateDescriptor<long>("per-window"));
  backend_.setCurrentKey("k");
  EXPECT_THROW(state.value(), std::logic_error);
  EXPECT_THROW(state.update(1), std::logic_error);
}

TEST_F(HeapValueStateTest, SameNameReturnsTheSameObject) {
  ValueState<long>& first = backend_.getState(ValueStateDescriptor<long>("count"));
  ValueState<long>& second = backend_.getState(ValueStateDescriptor<long>("count", 5L));
  EXPECT_EQ(&first, &second);
  backend_.setCurrentKey("k");
  first.update(3);
  EXPECT_EQ(second.value(), 3);
}

TEST_F(HeapValueStateTest, SameNameWithAnotherValueTypeThrows) {
  backend_.getState(ValueStateDescriptor<long>("count"));
  EXPECT_THROW(backend_.getState(ValueStateDescriptor<int>("count")), std::logic_error);
  EXPECT_THROW(backend_.getListState(ListStateDescriptor<long>("count")), std::logic_error);
}

}  // namespace
}  // namespace tidemark::internal
