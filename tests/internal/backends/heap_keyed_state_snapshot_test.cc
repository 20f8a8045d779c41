// Snapshots of the heap backend: every state kind comes back as it was,
// through bytes; key groups redistribute across parallelism; a restore into
// other types, another max parallelism or from corrupt bytes is refused with
// a message naming the state.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "internal/state/state_test_support.h"
#include "tidemark/core/job_execution_result.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"
#include "tidemark/internal/backends/keyed_state_snapshot.h"
#include "tidemark/serialization/serialization_error.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {
namespace {

using testing::kMaxParallelism;
using testing::TestWindow;
using ::testing::ElementsAre;
using ::testing::Pair;

using Backend = HeapKeyedStateBackend<std::string>;

constexpr KeyGroupRange kAllGroups{0, kMaxParallelism - 1};

/// Through bytes, as a checkpoint stores it.
KeyedStateSnapshot throughBytes(const KeyedStateSnapshot& snapshot) {
  return deserializeFromBytes<KeyedStateSnapshot>(serializeToBytes(snapshot));
}

long plus(long a, long b) { return a + b; }

struct Average {
  long sum = 0;
  long count = 0;
  auto fields() { return std::tie(sum, count); }
};
struct AverageFunction {
  Average createAccumulator() const { return {}; }
  Average add(long value, Average acc) const { return {acc.sum + value, acc.count + 1}; }
  double getResult(const Average& acc) const { return static_cast<double>(acc.sum) / static_cast<double>(acc.count); }
  Average merge(Average a, const Average& b) const { return {a.sum + b.sum, a.count + b.count}; }
};

/// One state of each kind, as an operator would register them in open().
struct AllKinds {
  explicit AllKinds(Backend& backend)
      : count(backend.getState(ValueStateDescriptor<long>("count", 0L))),
        seen(backend.getListState(ListStateDescriptor<std::string>("seen"))),
        pages(backend.getMapState(MapStateDescriptor<std::string, long>("pages"))),
        total(backend.getReducingState(ReducingStateDescriptor<long>("total", plus))),
        average(backend.getAggregatingState(
            AggregatingStateDescriptor<long, Average, double>("average", std::make_shared<AverageFunction>()))),
        per_window(backend.getPartitionedState<TestWindow>(ValueStateDescriptor<long>("per window"))) {}

  ValueState<long>& count;
  ListState<std::string>& seen;
  MapState<std::string, long>& pages;
  ReducingState<long>& total;
  AggregatingState<long, double>& average;
  HeapValueState<std::string, TestWindow, long>& per_window;
};

void record(Backend& backend, AllKinds& states, const std::string& user, const std::string& page, long amount) {
  backend.setCurrentKey(user);
  states.count.update(*states.count.value() + 1);
  states.seen.add(page);
  states.pages.put(page, states.pages.get(page).value_or(0) + 1);
  states.total.add(amount);
  states.average.add(amount);
  states.per_window.setCurrentNamespace(TestWindow{amount / 10 * 10, amount / 10 * 10 + 10});
  states.per_window.update(amount);
}

void fill(Backend& backend) {
  AllKinds states(backend);
  record(backend, states, "alice", "/home", 10);
  record(backend, states, "bob", "/cart", 25);
  record(backend, states, "alice", "/cart", 31);
}

TEST(HeapKeyedStateSnapshotTest, EveryKindComesBackThroughBytes) {
  Backend original(kAllGroups, kMaxParallelism);
  fill(original);

  Backend restored(kAllGroups, kMaxParallelism);
  const KeyedStateSnapshot snapshot = throughBytes(original.snapshot());
  restored.restore({&snapshot, 1});
  AllKinds states(restored);

  restored.setCurrentKey("alice");
  EXPECT_EQ(states.count.value(), 2L);
  EXPECT_THAT(states.seen.get(), ElementsAre("/home", "/cart"));
  EXPECT_THAT(states.pages.entries(), ElementsAre(Pair("/cart", 1L), Pair("/home", 1L)));
  EXPECT_EQ(states.total.get(), 41L);
  EXPECT_EQ(states.average.get(), 20.5);
  states.per_window.setCurrentNamespace(TestWindow{30, 40});
  EXPECT_EQ(states.per_window.value(), 31L);
  restored.setCurrentKey("bob");
  EXPECT_EQ(states.count.value(), 2L - 1);
  EXPECT_EQ(states.total.get(), 25L);
  EXPECT_EQ(restored.numStateEntries(), original.numStateEntries());

  // The restored state goes on as the original would.
  record(restored, states, "bob", "/home", 5);
  EXPECT_EQ(states.count.value(), 2L);
  EXPECT_EQ(states.average.get(), 15.0);
}

TEST(HeapKeyedStateSnapshotTest, TheSameStateMakesTheSameBytes) {
  Backend a(kAllGroups, kMaxParallelism);
  Backend b(kAllGroups, kMaxParallelism);
  fill(a);
  fill(b);
  EXPECT_EQ(serializeToBytes(a.snapshot()), serializeToBytes(b.snapshot()));
}

TEST(HeapKeyedStateSnapshotTest, KeyGroupsRedistributeWhenTheParallelismChanges) {
  Backend whole(kAllGroups, kMaxParallelism);
  ValueState<long>& count = whole.getState(ValueStateDescriptor<long>("count"));
  std::map<std::string, long> expected;
  for (long i = 0; i < 200; ++i) {
    const std::string user = "user-" + std::to_string(i);
    whole.setCurrentKey(user);
    count.update(i);
    expected[user] = i;
  }
  const KeyedStateSnapshot snapshot = throughBytes(whole.snapshot());

  // Scale out to two subtasks: each takes the key groups of its range.
  Backend low({0, 63}, kMaxParallelism);
  Backend high({64, 127}, kMaxParallelism);
  low.restore({&snapshot, 1});
  high.restore({&snapshot, 1});
  ValueState<long>& low_count = low.getState(ValueStateDescriptor<long>("count"));
  ValueState<long>& high_count = high.getState(ValueStateDescriptor<long>("count"));
  EXPECT_EQ(low.numStateEntries() + high.numStateEntries(), 200u);
  EXPECT_GT(low.numStateEntries(), 0u);
  EXPECT_GT(high.numStateEntries(), 0u);
  const KeyGroupAssigner groups(kMaxParallelism);
  for (const auto& [user, value] : expected) {
    Backend& owner = groups.keyGroupOf(user) <= 63 ? low : high;
    owner.setCurrentKey(user);
    EXPECT_EQ((&owner == &low ? low_count : high_count).value(), value) << user;
  }

  // And back to one subtask, from both snapshots.
  const std::vector<KeyedStateSnapshot> both{throughBytes(low.snapshot()), throughBytes(high.snapshot())};
  Backend merged(kAllGroups, kMaxParallelism);
  merged.restore(both);
  ValueState<long>& merged_count = merged.getState(ValueStateDescriptor<long>("count"));
  EXPECT_EQ(merged.numStateEntries(), 200u);
  merged.setCurrentKey("user-123");
  EXPECT_EQ(merged_count.value(), 123L);
}

TEST(HeapKeyedStateSnapshotTest, AStateNobodyAskedForIsKeptForTheNextSnapshot) {
  Backend original(kAllGroups, kMaxParallelism);
  fill(original);
  const KeyedStateSnapshot snapshot = original.snapshot();

  Backend restored(kAllGroups, kMaxParallelism);
  restored.restore({&snapshot, 1});
  restored.getState(ValueStateDescriptor<long>("count", 0L));  // only one of the six

  EXPECT_EQ(serializeToBytes(restored.snapshot()), serializeToBytes(snapshot));
}

TEST(HeapKeyedStateSnapshotTest, ARestoreIntoAnotherTypeOrKindNamesTheStateAndBothSides) {
  Backend original(kAllGroups, kMaxParallelism);
  original.getState(ValueStateDescriptor<long>("count"));
  const KeyedStateSnapshot snapshot = original.snapshot();

  Backend other_type(kAllGroups, kMaxParallelism);
  other_type.restore({&snapshot, 1});
  try {
    other_type.getState(ValueStateDescriptor<std::string>("count"));
    FAIL() << "expected StateMigrationException";
  } catch (const StateMigrationException& e) {
    EXPECT_STREQ(e.what(),
                 "state 'count' was snapshotted as a ValueState of i64 (key string, namespace "
                 "tidemark::VoidNamespace{}) and is now asked for as a ValueState of string (key string, namespace "
                 "tidemark::VoidNamespace{})");
  }

  Backend other_kind(kAllGroups, kMaxParallelism);
  other_kind.restore({&snapshot, 1});
  EXPECT_THROW(other_kind.getListState(ListStateDescriptor<long>("count")), StateMigrationException);
}

TEST(HeapKeyedStateSnapshotTest, AnotherMaxParallelismIsRefused) {
  Backend original(kAllGroups, kMaxParallelism);
  const KeyedStateSnapshot snapshot = original.snapshot();
  Backend wider({0, 255}, 256);
  try {
    wider.restore({&snapshot, 1});
    FAIL() << "expected StateMigrationException";
  } catch (const StateMigrationException& e) {
    EXPECT_STREQ(e.what(),
                 "the keyed state snapshot has max parallelism 128 and this job 256: key groups cannot be "
                 "redistributed across a change of max parallelism");
  }
}

TEST(HeapKeyedStateSnapshotTest, CorruptEntriesAreAnErrorNamingTheKeyGroupAndTheState) {
  Backend original(kAllGroups, kMaxParallelism);
  ValueState<std::string>& name = original.getState(ValueStateDescriptor<std::string>("name"));
  original.setCurrentKey("alice");
  name.update("Alice Liddell");
  KeyedStateSnapshot snapshot = original.snapshot();
  ASSERT_EQ(snapshot.states.size(), 1u);
  auto& [group, bytes] = *snapshot.states[0].key_groups.begin();
  bytes.resize(bytes.size() - 3);  // cut into the value

  Backend restored(kAllGroups, kMaxParallelism);
  restored.restore({&snapshot, 1});
  try {
    restored.getState(ValueStateDescriptor<std::string>("name"));
    FAIL() << "expected SerializationError";
  } catch (const SerializationError& e) {
    EXPECT_THAT(e.what(), ::testing::StartsWith("key group " + std::to_string(group) + " of state 'name': "));
  }
}

TEST(HeapKeyedStateSnapshotTest, AStateWithoutSerializerNamesTheStateAndTheType) {
  struct Opaque {
    int x = 0;
  };
  Backend backend(kAllGroups, kMaxParallelism);
  backend.getState(ValueStateDescriptor<Opaque>("opaque"));
  try {
    backend.snapshot();
    FAIL() << "expected InvalidProgramException";
  } catch (const InvalidProgramException& e) {
    EXPECT_THAT(e.what(), ::testing::StartsWith("state 'opaque' cannot be snapshotted: its value type "));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("Opaque has no TypeSerializer"));
  }
}

TEST(HeapKeyedStateSnapshotTest, RestoringAfterAStateWasUsedIsALogicError) {
  Backend backend(kAllGroups, kMaxParallelism);
  const KeyedStateSnapshot snapshot = backend.snapshot();
  backend.getState(ValueStateDescriptor<long>("count"));
  EXPECT_THROW(backend.restore({&snapshot, 1}), std::logic_error);
}

}  // namespace
}  // namespace tidemark::internal
