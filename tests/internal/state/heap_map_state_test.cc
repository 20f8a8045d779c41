#include "tidemark/internal/state/heap_map_state.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <memory_resource>
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
using Entries = std::vector<std::pair<std::string, long>>;

class HeapMapStateTest : public ::testing::Test {
 protected:
  HeapKeyedStateBackend<int> backend_{KeyGroupRange{0, kMaxParallelism - 1}, kMaxParallelism};
  MapState<std::string, long>& clicks_ =
      backend_.getMapState(MapStateDescriptor<std::string, long>("clicks"));
};

TEST_F(HeapMapStateTest, EachKeySeesItsOwnMap) {
  backend_.setCurrentKey(1);
  clicks_.put("home", 1);
  backend_.setCurrentKey(2);
  EXPECT_EQ(clicks_.get("home"), std::nullopt);
  EXPECT_TRUE(clicks_.isEmpty());
  clicks_.put("home", 20);
  backend_.setCurrentKey(1);
  EXPECT_EQ(clicks_.get("home"), 1);
  EXPECT_TRUE(clicks_.contains("home"));
  EXPECT_FALSE(clicks_.contains("cart"));
  backend_.setCurrentKey(2);
  EXPECT_EQ(clicks_.get("home"), 20);
}

TEST_F(HeapMapStateTest, EntriesAreInAscendingKeyOrderWhateverTheInsertionOrder) {
  backend_.setCurrentKey(1);
  for (const char* page : {"pear", "apple", "zebra", "mango", "banana"}) {
    clicks_.put(page, static_cast<long>(std::string(page).size()));
  }
  backend_.setCurrentKey(2);
  for (const char* page : {"banana", "zebra", "apple", "pear", "mango"}) {
    clicks_.put(page, static_cast<long>(std::string(page).size()));
  }
  const Entries expected = {{"apple", 5}, {"banana", 6}, {"mango", 5}, {"pear", 4}, {"zebra", 5}};
  EXPECT_EQ(clicks_.entries(), expected);
  EXPECT_EQ(clicks_.keys(), (std::vector<std::string>{"apple", "banana", "mango", "pear", "zebra"}));
  EXPECT_EQ(clicks_.values(), (std::vector<long>{5, 6, 5, 4, 5}));
  backend_.setCurrentKey(1);
  EXPECT_EQ(clicks_.entries(), expected);
}

TEST_F(HeapMapStateTest, ForEachEntryVisitsInKeyOrderAndStopsWhenAsked) {
  backend_.setCurrentKey(1);
  for (const char* page : {"pear", "apple", "zebra", "mango"}) {
    clicks_.put(page, static_cast<long>(std::string(page).size()));
  }
  backend_.setCurrentKey(2);
  clicks_.put("other key", 0);
  backend_.setCurrentKey(1);
  Entries visited;
  clicks_.forEachEntry([&](const std::string& page, const long& n) {
    visited.emplace_back(page, n);
    return true;
  });
  EXPECT_EQ(visited, (Entries{{"apple", 5}, {"mango", 5}, {"pear", 4}, {"zebra", 5}}));

  visited.clear();
  clicks_.forEachEntry([&](const std::string& page, const long& n) {
    visited.emplace_back(page, n);
    return page < "mango";  // the visit of "mango" is the last
  });
  EXPECT_EQ(visited, (Entries{{"apple", 5}, {"mango", 5}}));

  backend_.setCurrentKey(3);
  int calls = 0;
  clicks_.forEachEntry([&](const std::string&, const long&) { return ++calls > 0; });
  EXPECT_EQ(calls, 0);
}

TEST_F(HeapMapStateTest, PutOverwritesAndPutAllLaterDuplicateWins) {
  backend_.setCurrentKey(1);
  clicks_.put("a", 1);
  clicks_.put("a", 2);
  clicks_.putAll({{"b", 3}, {"a", 4}, {"b", 5}});
  EXPECT_EQ(clicks_.entries(), (Entries{{"a", 4}, {"b", 5}}));
  EXPECT_EQ(backend_.numStateEntries(), 1u);
}

TEST_F(HeapMapStateTest, RemovingTheLastUserKeyRemovesTheEntry) {
  backend_.setCurrentKey(1);
  clicks_.putAll({});
  EXPECT_EQ(backend_.numStateEntries(), 0u);
  clicks_.put("a", 1);
  clicks_.put("b", 2);
  clicks_.remove("a");
  clicks_.remove("missing");
  EXPECT_EQ(clicks_.entries(), (Entries{{"b", 2}}));
  EXPECT_EQ(backend_.numStateEntries(), 1u);
  clicks_.remove("b");
  EXPECT_TRUE(clicks_.isEmpty());
  EXPECT_EQ(clicks_.entries(), Entries{});
  EXPECT_EQ(backend_.numStateEntries(), 0u);
  backend_.setCurrentKey(2);
  clicks_.remove("b");  // removing from an unset key stores nothing
  EXPECT_EQ(backend_.numStateEntries(), 0u);
}

TEST_F(HeapMapStateTest, ClearRemovesTheWholeMap) {
  for (int key = 0; key < 5; ++key) {
    backend_.setCurrentKey(key);
    clicks_.put("a", key);
    clicks_.put("b", key);
  }
  EXPECT_EQ(backend_.numStateEntries(), 5u);
  backend_.setCurrentKey(3);
  clicks_.clear();
  EXPECT_TRUE(clicks_.isEmpty());
  EXPECT_EQ(clicks_.keys(), std::vector<std::string>{});
  backend_.setCurrentKey(4);
  EXPECT_EQ(clicks_.entries(), (Entries{{"a", 4}, {"b", 4}}));
  for (int key = 0; key < 5; ++key) {
    backend_.setCurrentKey(key);
    clicks_.clear();
  }
  EXPECT_EQ(backend_.numStateEntries(), 0u);
}

TEST_F(HeapMapStateTest, NamespacesAreSeparate) {
  auto& state = backend_.getPartitionedState<TestWindow>(MapStateDescriptor<int, std::string>("per-window"));
  backend_.setCurrentKey(1);
  state.setCurrentNamespace(TestWindow{0, 10});
  state.put(1, "one");
  state.setCurrentNamespace(TestWindow{10, 20});
  EXPECT_TRUE(state.isEmpty());
  state.put(2, "two");
  EXPECT_EQ(state.entries(), (std::vector<std::pair<int, std::string>>{{2, "two"}}));
  state.setCurrentNamespace(TestWindow{0, 10});
  EXPECT_EQ(state.entries(), (std::vector<std::pair<int, std::string>>{{1, "one"}}));
  EXPECT_EQ(backend_.numStateEntries("per-window"), 2u);
}

TEST_F(HeapMapStateTest, SameNameReturnsTheSameObjectAndOtherTypesThrow) {
  MapState<std::string, long>& again = backend_.getMapState(MapStateDescriptor<std::string, long>("clicks"));
  EXPECT_EQ(&again, &clicks_);
  EXPECT_THROW(backend_.getMapState(MapStateDescriptor<std::string, int>("clicks")), std::logic_error);
  EXPECT_THROW(backend_.getMapState(MapStateDescriptor<int, long>("clicks")), std::logic_error);
  EXPECT_THROW(backend_.getState(ValueStateDescriptor<long>("clicks")), std::logic_error);
}

/// Forwards to the global heap and counts what it hands out.
class CountingResource final : public std::pmr::memory_resource {
 public:
  std::size_t allocations = 0;

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    ++allocations;
    return std::pmr::new_delete_resource()->allocate(bytes, alignment);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

TEST(HeapMapStatePoolTest, EntriesPutAfterOthersWereRemovedReuseTheirMemory) {
  // The state's node pool takes its memory from the default resource of the
  // moment the state is made.
  CountingResource upstream;
  std::pmr::memory_resource* const previous = std::pmr::set_default_resource(&upstream);
  HeapKeyedStateBackend<int> backend{KeyGroupRange{0, kMaxParallelism - 1}, kMaxParallelism};
  MapState<long, long>& waiting = backend.getMapState(MapStateDescriptor<long, long>("waiting"));
  std::pmr::set_default_resource(previous);

  // Each round buffers 2,000 entries over 200 keys, then removes them all,
  // as an operator buffering records until a timer does.
  auto round = [&](long first) {
    for (int key = 0; key < 200; ++key) {
      backend.setCurrentKey(key);
      for (long i = 0; i < 10; ++i) waiting.put(first + i, i);
    }
    for (int key = 0; key < 200; ++key) {
      backend.setCurrentKey(key);
      for (long i = 0; i < 10; ++i) waiting.remove(first + i);
      ASSERT_TRUE(waiting.isEmpty());
    }
  };
  round(0);
  const std::size_t after_first_round = upstream.allocations;
  EXPECT_GT(after_first_round, 0u);  // the entries came from the pool
  for (long r = 1; r <= 10; ++r) round(r * 100);
  EXPECT_EQ(upstream.allocations, after_first_round);
}

}  // namespace
}  // namespace tidemark::internal
