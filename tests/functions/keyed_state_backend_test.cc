// The contexts users see reach keyed state through KeyedStateBackend<K> only:
// the heap backend seen through it, and a second backend that implements it,
// behave the same behind KeyedRuntimeContext and KeyedStateStore.
#include "tidemark/functions/keyed_state_backend.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "internal/state/state_test_support.h"
#include "tidemark/functions/keyed_state_store.h"
#include "tidemark/functions/runtime_context.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"

namespace tidemark {
namespace {

using internal::HeapKeyedStateBackend;
using internal::testing::kMaxParallelism;
using internal::testing::TestWindow;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

/// A backend other than the heap one: its own key slot and registry, and a
/// count of the states it was asked to build. It keeps its states in memory
/// through the request, as a backend must when it has no serializer to use.
template <class K>
class SecondBackend final : public KeyedStateBackend<K> {
 public:
  KeyGroupRange getKeyGroupRange() const override { return {0, kMaxParallelism - 1}; }
  int getMaxParallelism() const override { return kMaxParallelism; }
  void setCurrentKey(const K& key, int key_group) override {
    current_.key = key;
    current_.key_group_index = key_group;
  }
  const K& getCurrentKey() const override { return *current_.key; }
  int getCurrentKeyGroup() const override { return current_.key_group_index; }

  int statesBuilt() const { return built_; }

 protected:
  internal::StateObject& getOrCreateState(const internal::StateRequest<K>& request) override {
    auto& slot = states_[request.descriptor().getName()];
    if (slot == nullptr) {
      slot = request.createOnHeap(current_, kMaxParallelism);
      ++built_;
    }
    return *slot;
  }

 private:
  internal::CurrentKeyContext<K> current_;
  std::map<std::string, std::unique_ptr<internal::StateObject>> states_;
  int built_ = 0;
};

TEST(KeyedStateBackendTest, TheInterfaceAndTheHeapsOwnPathShareOneState) {
  HeapKeyedStateBackend<std::string> heap(KeyGroupRange{0, kMaxParallelism - 1}, kMaxParallelism);
  KeyedStateBackend<std::string>& backend = heap;
  ValueStateDescriptor<long> count("count", 0L);

  ValueState<long>& seen = backend.getState(count);
  ValueState<long>& direct = heap.getPartitionedState<VoidNamespace>(count);
  EXPECT_EQ(&seen, &direct);

  heap.setCurrentKey("alice");
  seen.update(3);
  EXPECT_EQ(direct.value(), 3L);
  EXPECT_EQ(heap.numStateEntries("count"), 1u);
}

TEST(KeyedStateBackendTest, ANameReusedThroughTheInterfaceWithAnotherKindOrTypeThrows) {
  HeapKeyedStateBackend<std::string> heap(KeyGroupRange{0, kMaxParallelism - 1}, kMaxParallelism);
  KeyedStateBackend<std::string>& backend = heap;
  backend.getState(ValueStateDescriptor<long>("x"));

  try {
    backend.getListState(ListStateDescriptor<long>("x"));
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "state 'x' is a ValueState and cannot also be used as a ListState");
  }
  try {
    backend.getState(ValueStateDescriptor<int>("x"));
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "state 'x' is a ValueState of different value or namespace types than requested");
  }
  EXPECT_THROW(backend.getPartitionedState<TestWindow>(ValueStateDescriptor<long>("x")), std::logic_error);
  // The heap's typed path reads the same registry and reports the same way.
  EXPECT_THROW(heap.getPartitionedState<VoidNamespace>(ListStateDescriptor<long>("x")), std::logic_error);
}

TEST(KeyedStateBackendTest, NamespacedStateMergesThroughTheInterface) {
  HeapKeyedStateBackend<int> heap(KeyGroupRange{0, kMaxParallelism - 1}, kMaxParallelism);
  KeyedStateBackend<int>& backend = heap;
  auto& contents = backend.getPartitionedState<TestWindow>(ListStateDescriptor<int>("contents"));
  heap.setCurrentKey(7);
  const TestWindow a{0, 10}, b{5, 15}, merged{0, 15};
  contents.setCurrentNamespace(a);
  contents.add(1);
  contents.setCurrentNamespace(b);
  contents.add(2);

  contents.mergeNamespaces(merged, {a, b});

  contents.setCurrentNamespace(merged);
  EXPECT_THAT(contents.get(), ElementsAre(1, 2));
  contents.setCurrentNamespace(a);
  EXPECT_TRUE(contents.get().empty());
  EXPECT_EQ(heap.numStateEntries(), 1u);
}

TEST(KeyedStateBackendTest, ASecondBackendPlugsInBehindTheRuntimeContextAndTheStateStore) {
  SecondBackend<std::string> backend;
  KeyedRuntimeContext<std::string> runtime(RuntimeContext("count words", 0, 1, kMaxParallelism), backend);
  const TestWindow window{0, 10};
  const TestWindow* current_window = &window;
  KeyedStateStore<std::string, TestWindow> window_state(backend, current_window);

  ValueState<long>& total = runtime.getState(ValueStateDescriptor<long>("total", 0L));
  ReducingState<long>& in_window =
      window_state.getReducingState(ReducingStateDescriptor<long>("in window", [](long a, long b) { return a + b; }));
  for (const char* word : {"a", "b", "a"}) {
    backend.setCurrentKey(word, 0);
    total.update(*total.value() + 1);
    window_state.getReducingState(ReducingStateDescriptor<long>("in window", [](long a, long b) { return a + b; }))
        .add(10);
  }

  backend.setCurrentKey("a", 0);
  EXPECT_EQ(total.value(), 2L);
  EXPECT_EQ(in_window.get(), 20L);
  backend.setCurrentKey("b", 0);
  EXPECT_EQ(total.value(), 1L);
  EXPECT_EQ(in_window.get(), 10L);
  EXPECT_EQ(backend.statesBuilt(), 2);  // asked again by name, built once
  EXPECT_THROW(runtime.getListState(ListStateDescriptor<long>("total")), std::logic_error);
}

}  // namespace
}  // namespace tidemark
