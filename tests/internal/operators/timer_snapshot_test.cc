// Timers in snapshots: restored at the same parallelism they fire in the same
// order as without the restore; at another parallelism each subtask gets the
// timers of its key groups; bad bytes are reported with the key group.
#include "tidemark/internal/operators/timer_snapshot.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tidemark/core/job_execution_result.h"
#include "tidemark/core/void_namespace.h"
#include "tidemark/internal/time/manual_processing_time_service.h"
#include "tidemark/serialization/serialization_error.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {
namespace {

using ::testing::IsEmpty;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAreArray;
using Entry = TimerEntry<std::string, VoidNamespace>;

constexpr int kMaxParallelism = 128;
constexpr KeyGroupRange kAllGroups{0, kMaxParallelism - 1};

class Recorder final : public TimerTarget<std::string, VoidNamespace> {
 public:
  void onEventTime(const Entry& timer) override {
    fired.push_back("E " + timer.key + "@" + std::to_string(timer.timestamp));
  }
  void onProcessingTime(const Entry& timer) override {
    fired.push_back("P " + timer.key + "@" + std::to_string(timer.timestamp));
  }
  std::vector<std::string> fired;
};

/// A timer service with its clock and the log of what fired.
struct Timers {
  ManualProcessingTimeService clock;
  Recorder recorder;
  InternalTimerService<std::string, VoidNamespace> service{clock, recorder};

  std::vector<std::string> fireAll() {
    service.advanceWatermark(kMaxWatermark);
    clock.setCurrentTime(1'000'000);
    return recorder.fired;
  }
};

void registerSome(InternalTimerService<std::string, VoidNamespace>& service) {
  // Several keys on the same times, registered out of key order: the order
  // within a time is the registration order, and must survive the restore.
  for (const char* key : {"zoe", "adam", "mia", "bob", "lea", "carl", "ida"}) {
    service.registerEventTimeTimer(key, {}, 200);
    service.registerEventTimeTimer(key, {}, 100);
    service.registerProcessingTimeTimer(key, {}, 50);
  }
  service.registerEventTimeTimer("adam", {}, 150);
  service.deleteEventTimeTimer("mia", {}, 100);
}

TimerSnapshot throughBytes(const TimerSnapshot& snapshot) {
  return deserializeFromBytes<TimerSnapshot>(serializeToBytes(snapshot));
}

TEST(TimerSnapshotTest, RestoredTimersFireInTheOriginalOrder) {
  const KeyGroupAssigner groups(kMaxParallelism);
  Timers original;
  registerSome(original.service);
  const TimerSnapshot snapshot = throughBytes(snapshotTimers(original.service, groups));

  Timers restored;
  restoreTimers(restored.service, {&snapshot, 1}, kAllGroups, groups);

  EXPECT_EQ(restored.service.numEventTimeTimers(), original.service.numEventTimeTimers());
  EXPECT_EQ(restored.service.numProcessingTimeTimers(), 7u);
  const std::vector<std::string> expected = original.fireAll();
  EXPECT_EQ(expected.size(), 7u + 7u + 6u + 1u);
  EXPECT_EQ(restored.fireAll(), expected);
}

TEST(TimerSnapshotTest, TimersMoveWithTheirKeyGroupsAcrossParallelism) {
  const KeyGroupAssigner groups(kMaxParallelism);
  Timers original;
  registerSome(original.service);
  const TimerSnapshot snapshot = throughBytes(snapshotTimers(original.service, groups));

  Timers low, high;
  restoreTimers(low.service, {&snapshot, 1}, {0, 63}, groups);
  restoreTimers(high.service, {&snapshot, 1}, {64, 127}, groups);

  std::vector<std::string> split = low.fireAll();
  const std::vector<std::string> high_fired = high.fireAll();
  EXPECT_THAT(low.recorder.fired, ::testing::Not(IsEmpty()));
  EXPECT_THAT(high_fired, ::testing::Not(IsEmpty()));
  split.insert(split.end(), high_fired.begin(), high_fired.end());
  EXPECT_THAT(split, UnorderedElementsAreArray(original.fireAll()));
}

TEST(TimerSnapshotTest, AKeyUnderTheWrongKeyGroupIsReported) {
  const KeyGroupAssigner groups(kMaxParallelism);
  Timers original;
  original.service.registerEventTimeTimer("adam", {}, 100);
  TimerSnapshot snapshot = snapshotTimers(original.service, groups);
  ASSERT_EQ(snapshot.event_time.size(), 1u);
  const int group = snapshot.event_time.begin()->first;
  const int wrong = (group + 1) % kMaxParallelism;
  snapshot.event_time = {{wrong, snapshot.event_time.begin()->second}};

  Timers restored;
  try {
    restoreTimers(restored.service, {&snapshot, 1}, kAllGroups, groups);
    FAIL() << "expected SerializationError";
  } catch (const SerializationError& e) {
    EXPECT_EQ(std::string(e.what()), "timers of key group " + std::to_string(wrong) +
                                         ": a timer's key belongs to key group " + std::to_string(group));
  }
}

TEST(TimerSnapshotTest, TruncatedTimersAreReportedWithTheirKeyGroup) {
  const KeyGroupAssigner groups(kMaxParallelism);
  Timers original;
  original.service.registerProcessingTimeTimer("adam", {}, 100);
  TimerSnapshot snapshot = snapshotTimers(original.service, groups);
  auto& [group, bytes] = *snapshot.processing_time.begin();
  bytes.resize(bytes.size() - 2);

  Timers restored;
  try {
    restoreTimers(restored.service, {&snapshot, 1}, kAllGroups, groups);
    FAIL() << "expected SerializationError";
  } catch (const SerializationError& e) {
    EXPECT_THAT(e.what(), StartsWith("timers of key group " + std::to_string(group) + ": "));
  }
  EXPECT_EQ(restored.service.numProcessingTimeTimers(), 0u);
}

/// A key type with hashes but no serializer.
struct Opaque {
  int id = 0;
  friend bool operator==(const Opaque&, const Opaque&) = default;
  template <class H>
  friend H AbslHashValue(H h, const Opaque& o) {
    return H::combine(std::move(h), o.id);
  }
  std::uint64_t stableHash() const { return static_cast<std::uint64_t>(id); }
};

TEST(TimerSnapshotTest, KeysWithoutSerializerAreAnInvalidProgram) {
  struct Ignore final : TimerTarget<Opaque, VoidNamespace> {
    void onEventTime(const TimerEntry<Opaque, VoidNamespace>&) override {}
    void onProcessingTime(const TimerEntry<Opaque, VoidNamespace>&) override {}
  } target;
  ManualProcessingTimeService clock;
  InternalTimerService<Opaque, VoidNamespace> service(clock, target);
  const KeyGroupAssigner groups(kMaxParallelism);
  try {
    snapshotTimers(service, groups);
    FAIL() << "expected InvalidProgramException";
  } catch (const InvalidProgramException& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("cannot be snapshotted: its key type "
                                               "tidemark::internal::(anonymous namespace)::Opaque has no TypeSerializer"));
  }
}

}  // namespace
}  // namespace tidemark::internal
