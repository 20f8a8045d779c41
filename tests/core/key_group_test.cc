#include "tidemark/core/key_group.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace tidemark {
namespace {

constexpr int kMaxParallelisms[] = {1, 7, 128, kUpperBoundMaxParallelism};

// A user key type that opts in through a member stableHash().
struct SensorId {
  std::string site;
  int number = 0;

  std::uint64_t stableHash() const {
    return internal::combineHash(stableKeyHash(site), stableKeyHash(number));
  }
};

static_assert(StablyHashable<std::int64_t>);
static_assert(StablyHashable<std::string>);
static_assert(StablyHashable<std::pair<int, std::string>>);
static_assert(StablyHashable<std::tuple<int, std::string, std::int64_t>>);
static_assert(StablyHashable<SensorId>);

template <class K>
void expectInRangeForAllMaxParallelisms(const K& key) {
  for (int max_parallelism : kMaxParallelisms) {
    const int group = assignToKeyGroup(key, max_parallelism);
    EXPECT_GE(group, 0) << "maxParallelism " << max_parallelism;
    EXPECT_LT(group, max_parallelism) << "maxParallelism " << max_parallelism;
  }
}

// ---------------------------------------------------------------------------------------------
// assignToKeyGroup: range

TEST(KeyGroupTest, Int64KeysLandInRange) {
  for (std::int64_t key = -5000; key <= 5000; ++key) {
    expectInRangeForAllMaxParallelisms(key);
  }
  for (std::int64_t key : {INT64_MIN, INT64_MIN + 1, std::int64_t{-1}, INT64_MAX - 1, INT64_MAX}) {
    expectInRangeForAllMaxParallelisms(key);
  }
}

TEST(KeyGroupTest, StringKeysLandInRange) {
  expectInRangeForAllMaxParallelisms(std::string());
  for (int i = 0; i < 2000; ++i) {
    expectInRangeForAllMaxParallelisms("user-" + std::to_string(i));
  }
  expectInRangeForAllMaxParallelisms(std::string(10000, 'x'));
  expectInRangeForAllMaxParallelisms(std::string("\xff\x00\x80", 3));
}

TEST(KeyGroupTest, PairAndTupleKeysLandInRange) {
  for (int i = 0; i < 500; ++i) {
    expectInRangeForAllMaxParallelisms(std::pair<int, std::string>(i, std::to_string(i * 7)));
    expectInRangeForAllMaxParallelisms(std::tuple<int, std::string, std::int64_t>(i, "k", -i));
  }
}

TEST(KeyGroupTest, UserTypeWithStableHashLandsInRange) {
  for (int i = 0; i < 1000; ++i) {
    expectInRangeForAllMaxParallelisms(
        SensorId{.site = "site-" + std::to_string(i % 13), .number = i});
  }
}

TEST(KeyGroupTest, MaxParallelismOneMapsEverythingToGroupZero) {
  for (int i = -100; i < 100; ++i) {
    EXPECT_EQ(assignToKeyGroup(i, 1), 0);
    EXPECT_EQ(assignToKeyGroup(std::to_string(i), 1), 0);
  }
}

// ---------------------------------------------------------------------------------------------
// assignToKeyGroup: stability

TEST(KeyGroupTest, SameKeyGivesSameGroup) {
  for (int i = 0; i < 1000; ++i) {
    const std::string key = "key-" + std::to_string(i);
    const std::string copy(key.data(), key.size());
    EXPECT_EQ(assignToKeyGroup(key, 128), assignToKeyGroup(copy, 128));
    EXPECT_EQ(assignToKeyGroup(std::int64_t{i}, 128), assignToKeyGroup(std::int64_t{i}, 128));
  }
}

TEST(KeyGroupTest, StringAndStringViewHashAlike) {
  for (std::string_view key : {"", "Mary", "Bob", "tidemark"}) {
    EXPECT_EQ(stableKeyHash(std::string(key)), stableKeyHash(key));
    EXPECT_EQ(assignToKeyGroup(std::string(key), 128), assignToKeyGroup(key, 128));
  }
}

TEST(KeyGroupTest, IntegerWidthDoesNotChangeTheGroupOfNonNegativeValues) {
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(assignToKeyGroup(i, 128), assignToKeyGroup(std::int64_t{i}, 128));
  }
}

// Persisted state is partitioned by these values: if any of them changes, the
// hash changed and existing snapshots can no longer be rescaled. The expected
// numbers were computed independently from the documented algorithm
// (fmix64 for integers, FNV-1a then fmix64 for bytes).
TEST(KeyGroupTest, Int64HashesAndGroupsArePinned) {
  EXPECT_EQ(stableKeyHash(std::int64_t{0}), 0x0ULL);
  EXPECT_EQ(stableKeyHash(std::int64_t{1}), 0xb456bcfc34c2cb2cULL);
  EXPECT_EQ(stableKeyHash(std::int64_t{42}), 0x810879608e4259ccULL);
  EXPECT_EQ(stableKeyHash(std::int64_t{-1}), 0x64b5720b4b825f21ULL);

  EXPECT_EQ(assignToKeyGroup(std::int64_t{0}, 128), 0);
  EXPECT_EQ(assignToKeyGroup(std::int64_t{1}, 128), 98);
  EXPECT_EQ(assignToKeyGroup(std::int64_t{42}, 128), 27);
  EXPECT_EQ(assignToKeyGroup(std::int64_t{-1}, 128), 125);
  EXPECT_EQ(assignToKeyGroup(std::int64_t{1234567890123}, 128), 64);

  EXPECT_EQ(assignToKeyGroup(std::int64_t{1}, 32768), 7138);
  EXPECT_EQ(assignToKeyGroup(std::int64_t{42}, 32768), 2203);
  EXPECT_EQ(assignToKeyGroup(std::int64_t{-1}, 32768), 26237);
  EXPECT_EQ(assignToKeyGroup(std::int64_t{1234567890123}, 32768), 18880);
}

TEST(KeyGroupTest, StringHashesAndGroupsArePinned) {
  EXPECT_EQ(stableKeyHash(std::string()), 0xefd01f60ba992926ULL);
  EXPECT_EQ(stableKeyHash(std::string("Mary")), 0xf49d907607c43794ULL);
  EXPECT_EQ(stableKeyHash(std::string("Bob")), 0x2ff0a3da2d3c6dc3ULL);

  EXPECT_EQ(assignToKeyGroup(std::string(), 128), 69);
  EXPECT_EQ(assignToKeyGroup(std::string("Mary"), 128), 28);
  EXPECT_EQ(assignToKeyGroup(std::string("Bob"), 128), 108);
  EXPECT_EQ(assignToKeyGroup(std::string("tidemark"), 128), 122);

  EXPECT_EQ(assignToKeyGroup(std::string("Mary"), 32768), 29980);
  EXPECT_EQ(assignToKeyGroup(std::string("Bob"), 32768), 31468);
  EXPECT_EQ(assignToKeyGroup(std::string("tidemark"), 32768), 27642);
}

TEST(KeyGroupTest, CompositeHashesAndGroupsArePinned) {
  const std::pair<std::int64_t, std::string> pair_key(1, "a");
  EXPECT_EQ(stableKeyHash(pair_key), 0x079c6b83ce461fc6ULL);
  EXPECT_EQ(assignToKeyGroup(pair_key, 128), 116);

  const std::tuple<std::int64_t, std::string, std::int64_t> tuple_key(7, "x", 3);
  EXPECT_EQ(stableKeyHash(tuple_key), 0x4dfed3e18a5ee5dcULL);
  EXPECT_EQ(assignToKeyGroup(tuple_key, 128), 116);
}

TEST(KeyGroupTest, CompositeKeysAreOrderSensitive) {
  EXPECT_NE(stableKeyHash(std::pair<int, int>(1, 2)), stableKeyHash(std::pair<int, int>(2, 1)));
  EXPECT_NE(stableKeyHash(std::tuple<int, int, int>(1, 2, 3)),
            stableKeyHash(std::tuple<int, int, int>(3, 2, 1)));
}

TEST(KeyGroupTest, UserTypeUsesItsStableHash) {
  const SensorId sensor{.site = "north", .number = 4};
  EXPECT_EQ(stableKeyHash(sensor), sensor.stableHash());
  EXPECT_EQ(assignToKeyGroup(sensor, 128), keyGroupForHash(sensor.stableHash(), 128));
  EXPECT_EQ(assignToKeyGroup(sensor, 128),
            assignToKeyGroup(SensorId{.site = "north", .number = 4}, 128));
}

// ---------------------------------------------------------------------------------------------
// Key groups <-> subtasks

TEST(KeyGroupTest, OperatorIndexAndKeyGroupRangeAreInverse) {
  for (int max_parallelism : kMaxParallelisms) {
    for (int parallelism = 1; parallelism <= 7; ++parallelism) {
      SCOPED_TRACE(testing::Message()
                   << "maxParallelism " << max_parallelism << ", parallelism " << parallelism);
      std::vector<int> owners(static_cast<std::size_t>(max_parallelism), 0);
      int next_start = 0;
      for (int index = 0; index < parallelism; ++index) {
        const KeyGroupRange range =
            computeKeyGroupRangeForOperatorIndex(max_parallelism, parallelism, index);
        // Contiguous: each subtask starts where the previous one ended.
        EXPECT_EQ(range.start, next_start) << "subtask " << index;
        next_start = range.end + 1;
        for (int group = range.start; group <= range.end; ++group) {
          ASSERT_TRUE(range.contains(group));
          EXPECT_EQ(computeOperatorIndexForKeyGroup(max_parallelism, parallelism, group), index);
          ++owners[static_cast<std::size_t>(group)];
        }
      }
      EXPECT_EQ(next_start, max_parallelism) << "ranges must cover every key group";
      for (int group = 0; group < max_parallelism; ++group) {
        ASSERT_EQ(owners[static_cast<std::size_t>(group)], 1) << "key group " << group;
      }
    }
  }
}

// KeyGroupAssigner masks and shifts for a power-of-two max parallelism and
// divides otherwise; either way it must agree with the free functions.
TEST(KeyGroupTest, KeyGroupAssignerAgreesWithTheFreeFunctions) {
  for (int max_parallelism : {1, 2, 7, 96, 100, 128, 1000, 4096, kUpperBoundMaxParallelism}) {
    SCOPED_TRACE(testing::Message() << "maxParallelism " << max_parallelism);
    const KeyGroupAssigner assigner(max_parallelism);
    EXPECT_EQ(assigner.maxParallelism(), max_parallelism);
    for (std::int64_t key = -500; key < 5000; ++key) {
      ASSERT_EQ(assigner.keyGroupOf(key), assignToKeyGroup(key, max_parallelism)) << "key " << key;
    }
    for (const std::string key : {"", "Mary", "Bob", "a much longer key than the others"}) {
      ASSERT_EQ(assigner.keyGroupOf(key), assignToKeyGroup(key, max_parallelism)) << "key " << key;
    }
    for (int parallelism : {1, 2, 3, 7, 128}) {
      for (int group = 0; group < max_parallelism; ++group) {
        ASSERT_EQ(assigner.operatorIndexOf(group, parallelism),
                  computeOperatorIndexForKeyGroup(max_parallelism, parallelism, group))
            << "parallelism " << parallelism << ", key group " << group;
      }
    }
  }
}

TEST(KeyGroupTest, EverySubtaskOwnsABalancedShareWhenParallelismFits) {
  for (int max_parallelism : kMaxParallelisms) {
    for (int parallelism = 1; parallelism <= std::min(7, max_parallelism); ++parallelism) {
      const int low = max_parallelism / parallelism;
      for (int index = 0; index < parallelism; ++index) {
        const int size =
            computeKeyGroupRangeForOperatorIndex(max_parallelism, parallelism, index).size();
        EXPECT_GE(size, low) << max_parallelism << "/" << parallelism << " subtask " << index;
        EXPECT_LE(size, low + 1) << max_parallelism << "/" << parallelism << " subtask " << index;
      }
    }
  }
}

// More subtasks than key groups: the surplus subtasks own nothing, and the
// partition above still holds.
TEST(KeyGroupTest, SurplusSubtasksGetEmptyRanges) {
  EXPECT_EQ(computeKeyGroupRangeForOperatorIndex(1, 7, 0), (KeyGroupRange{0, 0}));
  for (int index = 1; index < 7; ++index) {
    EXPECT_EQ(computeKeyGroupRangeForOperatorIndex(1, 7, index).size(), 0);
  }
}

TEST(KeyGroupTest, PinnedRangesFor128GroupsOverThreeSubtasks) {
  EXPECT_EQ(computeKeyGroupRangeForOperatorIndex(128, 3, 0), (KeyGroupRange{0, 42}));
  EXPECT_EQ(computeKeyGroupRangeForOperatorIndex(128, 3, 1), (KeyGroupRange{43, 85}));
  EXPECT_EQ(computeKeyGroupRangeForOperatorIndex(128, 3, 2), (KeyGroupRange{86, 127}));
}

TEST(KeyGroupTest, KeyGroupRangeBasics) {
  const KeyGroupRange empty;
  EXPECT_EQ(empty.size(), 0);
  EXPECT_FALSE(empty.contains(0));
  const KeyGroupRange range{3, 5};
  EXPECT_EQ(range.size(), 3);
  EXPECT_FALSE(range.contains(2));
  EXPECT_TRUE(range.contains(3));
  EXPECT_TRUE(range.contains(5));
  EXPECT_FALSE(range.contains(6));
}

// ---------------------------------------------------------------------------------------------
// Balance

TEST(KeyGroupTest, TenThousandIntKeysReachEveryOneOf128Groups) {
  std::vector<int> counts(128, 0);
  for (int key = 0; key < 10000; ++key) {
    ++counts[static_cast<std::size_t>(assignToKeyGroup(key, 128))];
  }
  for (int group = 0; group < 128; ++group) {
    EXPECT_GT(counts[static_cast<std::size_t>(group)], 0) << "key group " << group;
  }
}

TEST(KeyGroupTest, TenThousandStringKeysReachEveryOneOf128Groups) {
  std::vector<int> counts(128, 0);
  for (int key = 0; key < 10000; ++key) {
    ++counts[static_cast<std::size_t>(assignToKeyGroup("order-" + std::to_string(key), 128))];
  }
  for (int group = 0; group < 128; ++group) {
    EXPECT_GT(counts[static_cast<std::size_t>(group)], 0) << "key group " << group;
  }
}

}  // namespace
}  // namespace tidemark
