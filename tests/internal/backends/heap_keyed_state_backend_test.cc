#include "tidemark/internal/backends/heap_keyed_state_backend.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "internal/state/state_test_support.h"

namespace tidemark::internal {
namespace {

using ::testing::HasSubstr;
using testing::findIntKey;
using testing::kMaxParallelism;
using testing::TestWindow;
using testing::UserId;

constexpr KeyGroupRange kAllGroups{0, kMaxParallelism - 1};

TEST(HeapKeyedStateBackendTest, SetCurrentKeyComputesTheKeyGroup) {
  HeapKeyedStateBackend<std::string> backend(kAllGroups, kMaxParallelism);
  backend.setCurrentKey("alice");
  EXPECT_EQ(backend.getCurrentKey(), "alice");
  EXPECT_EQ(backend.getCurrentKeyGroup(), assignToKeyGroup(std::string("alice"), kMaxParallelism));
  backend.setCurrentKey("bob");
  EXPECT_EQ(backend.getCurrentKey(), "bob");
  EXPECT_EQ(backend.getCurrentKeyGroup(), assignToKeyGroup(std::string("bob"), kMaxParallelism));
}

TEST(HeapKeyedStateBackendTest, SetCurrentKeyWithAKnownGroupTrustsTheCaller) {
  HeapKeyedStateBackend<int> backend(KeyGroupRange{10, 20}, kMaxParallelism);
  backend.setCurrentKey(7, 15);
  EXPECT_EQ(backend.getCurrentKey(), 7);
  EXPECT_EQ(backend.getCurrentKeyGroup(), 15);
  EXPECT_EQ(backend.getKeyGroupRange(), (KeyGroupRange{10, 20}));
  EXPECT_EQ(backend.getMaxParallelism(), kMaxParallelism);
}

TEST(HeapKeyedStateBackendTest, KeyOutsideTheRangeThrowsNamingGroupAndRange) {
  HeapKeyedStateBackend<int> backend(KeyGroupRange{0, 63}, kMaxParallelism);
  const int inside = findIntKey([](int group) { return group <= 63; });
  const int outside = findIntKey([](int group) { return group >= 64; });
  const int outside_group = assignToKeyGroup(outside, kMaxParallelism);
  backend.setCurrentKey(inside);
  try {
    backend.setCurrentKey(outside);
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("key group " + std::to_string(outside_group)));
    EXPECT_THAT(e.what(), HasSubstr("[0, 63]"));
  }
  // The failed call must not have half-switched the key.
  EXPECT_EQ(backend.getCurrentKey(), inside);
  EXPECT_EQ(backend.getCurrentKeyGroup(), assignToKeyGroup(inside, kMaxParallelism));
}

TEST(HeapKeyedStateBackendTest, ExplicitKeyGroupOutsideTheRangeThrows) {
  HeapKeyedStateBackend<int> backend(KeyGroupRange{10, 20}, kMaxParallelism);
  EXPECT_THROW(backend.setCurrentKey(1, 9), std::logic_error);
  EXPECT_THROW(backend.setCurrentKey(1, 21), std::logic_error);
  EXPECT_NO_THROW(backend.setCurrentKey(1, 10));
  EXPECT_NO_THROW(backend.setCurrentKey(1, 20));
}

TEST(HeapKeyedStateBackendTest, EmptyRangeAcceptsNoKey) {
  HeapKeyedStateBackend<int> backend(KeyGroupRange{}, kMaxParallelism);
  EXPECT_THROW(backend.setCurrentKey(1), std::logic_error);
}

TEST(HeapKeyedStateBackendTest, ConstructorRejectsInvalidArguments) {
  using Backend = HeapKeyedStateBackend<int>;
  EXPECT_THROW(Backend(KeyGroupRange{0, 0}, 0), std::invalid_argument);
  EXPECT_THROW(Backend(KeyGroupRange{0, 0}, kUpperBoundMaxParallelism + 1), std::invalid_argument);
  EXPECT_THROW(Backend(KeyGroupRange{0, 128}, 128), std::invalid_argument);
  EXPECT_THROW(Backend(KeyGroupRange{-1, 3}, 128), std::invalid_argument);
  EXPECT_NO_THROW(Backend(KeyGroupRange{0, 127}, 128));
}

TEST(HeapKeyedStateBackendTest, UsingStateOrKeyBeforeSetCurrentKeyThrows) {
  HeapKeyedStateBackend<int> backend(kAllGroups, kMaxParallelism);
  ValueState<int>& state = backend.getState(ValueStateDescriptor<int>("v"));
  EXPECT_THROW(state.value(), std::logic_error);
  EXPECT_THROW(state.update(1), std::logic_error);
  EXPECT_THROW(backend.getCurrentKey(), std::logic_error);
  EXPECT_THROW(backend.getCurrentKeyGroup(), std::logic_error);
}

TEST(HeapKeyedStateBackendTest, StatesWithDifferentNamesAreSeparate) {
  HeapKeyedStateBackend<int> backend(kAllGroups, kMaxParallelism);
  ValueState<int>& a = backend.getState(ValueStateDescriptor<int>("a"));
  ValueState<int>& b = backend.getState(ValueStateDescriptor<int>("b"));
  ListState<int>& c = backend.getListState(ListStateDescriptor<int>("c"));
  EXPECT_NE(&a, &b);
  backend.setCurrentKey(1);
  a.update(10);
  EXPECT_EQ(a.value(), 10);
  EXPECT_EQ(b.value(), std::nullopt);
  EXPECT_EQ(c.get(), std::vector<int>{});
  EXPECT_EQ(backend.numStateEntries("a"), 1u);
  EXPECT_EQ(backend.numStateEntries("b"), 0u);
  EXPECT_EQ(backend.numStateEntries(), 1u);
}

TEST(HeapKeyedStateBackendTest, SameNameWithAnotherKindThrowsNamingTheState) {
  HeapKeyedStateBackend<int> backend(kAllGroups, kMaxParallelism);
  backend.getState(ValueStateDescriptor<int>("seen"));
  try {
    backend.getListState(ListStateDescriptor<int>("seen"));
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("'seen'"));
    EXPECT_THAT(e.what(), HasSubstr("ValueState"));
    EXPECT_THAT(e.what(), HasSubstr("ListState"));
  }
  EXPECT_THROW(backend.getMapState(MapStateDescriptor<int, int>("seen")), std::logic_error);
  EXPECT_THROW(backend.getReducingState(ReducingStateDescriptor<int>("seen", [](int a, int b) { return a + b; })),
               std::logic_error);
}

TEST(HeapKeyedStateBackendTest, SameNameWithAnotherNamespaceTypeThrows) {
  HeapKeyedStateBackend<int> backend(kAllGroups, kMaxParallelism);
  backend.getState(ValueStateDescriptor<int>("v"));
  try {
    backend.getPartitionedState<TestWindow>(ValueStateDescriptor<int>("v"));
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("'v'"));
    EXPECT_THAT(e.what(), HasSubstr("different value or namespace types"));
  }
}

TEST(HeapKeyedStateBackendTest, VoidNamespacePartitionedStateIsTheKeyedState) {
  HeapKeyedStateBackend<int> backend(kAllGroups, kMaxParallelism);
  ValueState<int>& keyed = backend.getState(ValueStateDescriptor<int>("v"));
  InternalValueState<int, VoidNamespace, int>& partitioned =
      backend.getPartitionedState<VoidNamespace>(ValueStateDescriptor<int>("v"));
  EXPECT_EQ(static_cast<ValueState<int>*>(&partitioned), &keyed);
}

TEST(HeapKeyedStateBackendTest, NumStateEntriesCountsEveryStateAndReturnsToZero) {
  HeapKeyedStateBackend<int> backend(kAllGroups, kMaxParallelism);
  ValueState<int>& value = backend.getState(ValueStateDescriptor<int>("value"));
  ListState<int>& list = backend.getListState(ListStateDescriptor<int>("list"));
  MapState<int, int>& map = backend.getMapState(MapStateDescriptor<int, int>("map"));
  for (int key = 0; key < 50; ++key) {
    backend.setCurrentKey(key);
    value.update(key);
    list.add(key);
    map.put(key, key);
  }
  EXPECT_EQ(backend.numStateEntries(), 150u);
  EXPECT_EQ(backend.numKeys("list"), 50u);
  for (int key = 0; key < 50; ++key) {
    backend.setCurrentKey(key);
    value.clear();
    list.clear();
    map.clear();
  }
  EXPECT_EQ(backend.numStateEntries(), 0u);
  EXPECT_EQ(backend.numKeys("list"), 0u);
  EXPECT_EQ(backend.numStateEntries("unknown"), 0u);
}

TEST(HeapKeyedStateBackendTest, NumKeysCountsKeysNotNamespaces) {
  HeapKeyedStateBackend<int> backend(kAllGroups, kMaxParallelism);
  auto& state = backend.getPartitionedState<TestWindow>(ValueStateDescriptor<int>("per-window"));
  for (int key = 0; key < 3; ++key) {
    backend.setCurrentKey(key);
    for (long w = 0; w < 4; ++w) {
      state.setCurrentNamespace(TestWindow{w * 10, w * 10 + 10});
      state.update(key);
    }
  }
  EXPECT_EQ(backend.numStateEntries("per-window"), 12u);
  EXPECT_EQ(backend.numKeys("per-window"), 3u);
  EXPECT_EQ(state.numKeys(), 3u);
}

TEST(HeapKeyedStateBackendTest, ForEachEntryVisitsEveryKeyAndNamespace) {
  HeapKeyedStateBackend<std::string> backend(kAllGroups, kMaxParallelism);
  auto& state = backend.getPartitionedState<TestWindow>(ValueStateDescriptor<int>("v"));
  backend.setCurrentKey("a");
  state.setCurrentNamespace(TestWindow{0, 10});
  state.update(1);
  state.setCurrentNamespace(TestWindow{10, 20});
  state.update(2);
  backend.setCurrentKey("b");
  state.update(3);
  std::vector<std::tuple<std::string, long, int>> seen;
  state.forEachEntry([&](const std::string& key, const TestWindow& window, const int& value) {
    seen.emplace_back(key, window.start, value);
  });
  std::sort(seen.begin(), seen.end());
  const std::vector<std::tuple<std::string, long, int>> expected = {{"a", 0, 1}, {"a", 10, 2}, {"b", 10, 3}};
  EXPECT_EQ(seen, expected);
}

TEST(HeapKeyedStateBackendTest, KeysWithOnlyAStableHashWork) {
  HeapKeyedStateBackend<UserId> backend(kAllGroups, kMaxParallelism);
  ValueState<std::string>& name = backend.getState(ValueStateDescriptor<std::string>("name"));
  backend.setCurrentKey(UserId{1});
  name.update("one");
  backend.setCurrentKey(UserId{2});
  name.update("two");
  backend.setCurrentKey(UserId{1});
  EXPECT_EQ(name.value(), "one");
  EXPECT_EQ(backend.getCurrentKeyGroup(), assignToKeyGroup(UserId{1}, kMaxParallelism));
  EXPECT_EQ(backend.numStateEntries(), 2u);
}

TEST(HeapKeyedStateBackendTest, KeysInAPartialRangeAreStoredPerGroup) {
  // Range {64, 127}: storage is indexed by group - 64, so every owned group must map to a slot.
  HeapKeyedStateBackend<int> backend(KeyGroupRange{64, 127}, kMaxParallelism);
  ValueState<int>& state = backend.getState(ValueStateDescriptor<int>("v"));
  std::vector<int> keys;
  for (int key = 0; keys.size() < 200; ++key) {
    if (assignToKeyGroup(key, kMaxParallelism) >= 64) {
      keys.push_back(key);
    }
  }
  for (int key : keys) {
    backend.setCurrentKey(key);
    state.update(key * 2);
  }
  for (int key : keys) {
    backend.setCurrentKey(key);
    EXPECT_EQ(state.value(), key * 2);
  }
  EXPECT_EQ(backend.numStateEntries(), 200u);
}

}  // namespace
}  // namespace tidemark::internal
