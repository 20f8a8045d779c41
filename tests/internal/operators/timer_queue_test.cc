#include "tidemark/internal/operators/timer_queue.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "tidemark/core/time.h"
#include "tidemark/core/void_namespace.h"

namespace tidemark::internal {
namespace {

using Queue = TimerQueue<std::int64_t, int>;
using Entry = TimerEntry<std::int64_t, int>;

// Drains every timer at or before `t` as "key/ns@ts" strings.
template <class K, class N>
std::vector<std::string> drain(TimerQueue<K, N>& queue, Timestamp t = kMaxWatermark) {
  std::vector<std::string> out;
  while (auto e = queue.pollAtOrBefore(t)) {
    out.push_back(std::to_string(e->key) + "/" + std::to_string(e->ns) + "@" +
                  std::to_string(e->timestamp));
  }
  return out;
}

TEST(TimerQueueTest, StartsEmpty) {
  Queue queue;
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.size(), 0u);
  EXPECT_EQ(queue.peekTimestamp(), std::nullopt);
  EXPECT_EQ(queue.pollAtOrBefore(kMaxWatermark), std::nullopt);
}

TEST(TimerQueueTest, SameTimerTwiceIsStoredOnce) {
  Queue queue;
  EXPECT_TRUE(queue.add(1, 0, 10));
  EXPECT_FALSE(queue.add(1, 0, 10));
  EXPECT_EQ(queue.size(), 1u);
  EXPECT_EQ(drain(queue), (std::vector<std::string>{"1/0@10"}));
  EXPECT_TRUE(queue.empty());
}

TEST(TimerQueueTest, DuplicateKeepsOriginalPlaceInLine) {
  Queue queue;
  queue.add(1, 0, 10);
  queue.add(2, 0, 10);
  EXPECT_FALSE(queue.add(1, 0, 10));
  EXPECT_EQ(drain(queue), (std::vector<std::string>{"1/0@10", "2/0@10"}));
}

TEST(TimerQueueTest, RemoveDeletesExactlyThatTimer) {
  Queue queue;
  queue.add(1, 0, 10);
  queue.add(1, 0, 20);
  queue.add(2, 0, 10);
  EXPECT_TRUE(queue.remove(1, 0, 10));
  EXPECT_FALSE(queue.contains(1, 0, 10));
  EXPECT_TRUE(queue.contains(1, 0, 20));
  EXPECT_EQ(queue.size(), 2u);
  EXPECT_EQ(drain(queue), (std::vector<std::string>{"2/0@10", "1/0@20"}));
}

TEST(TimerQueueTest, RemoveOfAbsentTimerIsNoOp) {
  Queue queue;
  EXPECT_FALSE(queue.remove(1, 0, 10));
  queue.add(1, 0, 10);
  EXPECT_FALSE(queue.remove(1, 0, 11));
  EXPECT_FALSE(queue.remove(2, 0, 10));
  EXPECT_FALSE(queue.remove(1, 1, 10));
  EXPECT_TRUE(queue.remove(1, 0, 10));
  EXPECT_FALSE(queue.remove(1, 0, 10));
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.peekTimestamp(), std::nullopt);
}

TEST(TimerQueueTest, OrderIsTimestampThenRegistrationAcrossKeys) {
  Queue queue;
  queue.add(3, 0, 20);
  queue.add(1, 0, 10);
  queue.add(2, 0, 20);
  queue.add(9, 0, 5);
  queue.add(0, 0, 10);
  queue.add(1, 0, 20);
  EXPECT_EQ(drain(queue), (std::vector<std::string>{"9/0@5", "1/0@10", "0/0@10", "3/0@20", "2/0@20",
                                                    "1/0@20"}));
}

TEST(TimerQueueTest, DeleteThenRegisterAgainMovesBehindSameTimestamp) {
  Queue queue;
  queue.add(1, 0, 10);
  queue.add(2, 0, 10);
  queue.add(3, 0, 10);
  EXPECT_TRUE(queue.remove(1, 0, 10));
  EXPECT_TRUE(queue.add(1, 0, 10));
  EXPECT_EQ(drain(queue), (std::vector<std::string>{"2/0@10", "3/0@10", "1/0@10"}));
}

TEST(TimerQueueTest, DeleteThenRegisterAgainOfOnlyTimerAtTimestamp) {
  Queue queue;
  queue.add(1, 0, 10);
  queue.add(2, 0, 20);
  EXPECT_TRUE(queue.remove(1, 0, 10));
  EXPECT_EQ(queue.peekTimestamp(), 20);
  EXPECT_TRUE(queue.add(1, 0, 10));
  EXPECT_EQ(queue.peekTimestamp(), 10);
  EXPECT_EQ(drain(queue), (std::vector<std::string>{"1/0@10", "2/0@20"}));
}

TEST(TimerQueueTest, PollStopsAtBound) {
  Queue queue;
  queue.add(1, 0, 10);
  queue.add(2, 0, 11);
  queue.add(3, 0, 12);
  EXPECT_EQ(queue.pollAtOrBefore(9), std::nullopt);
  EXPECT_EQ(drain(queue, 11), (std::vector<std::string>{"1/0@10", "2/0@11"}));
  EXPECT_EQ(queue.peekTimestamp(), 12);
  EXPECT_EQ(queue.pollAtOrBefore(12), (Entry{3, 0, 12}));
}

TEST(TimerQueueTest, PeekFollowsRemovalOfHead) {
  Queue queue;
  queue.add(1, 0, 30);
  queue.add(1, 0, 10);
  queue.add(1, 0, 20);
  EXPECT_EQ(queue.peekTimestamp(), 10);
  queue.remove(1, 0, 10);
  EXPECT_EQ(queue.peekTimestamp(), 20);
  queue.remove(1, 0, 30);
  EXPECT_EQ(queue.peekTimestamp(), 20);
  queue.remove(1, 0, 20);
  EXPECT_EQ(queue.peekTimestamp(), std::nullopt);
}

TEST(TimerQueueTest, ExtremeAndNegativeTimestamps) {
  Queue queue;
  queue.add(1, 0, kMaxWatermark);
  queue.add(2, 0, 0);
  queue.add(3, 0, -5);
  queue.add(4, 0, kMinWatermark);
  queue.add(5, 0, -1);
  EXPECT_EQ(queue.peekTimestamp(), kMinWatermark);
  EXPECT_EQ(drain(queue, kMinWatermark),
            (std::vector<std::string>{"4/0@" + std::to_string(kMinWatermark)}));
  EXPECT_EQ(drain(queue, -1), (std::vector<std::string>{"3/0@-5", "5/0@-1"}));
  EXPECT_EQ(drain(queue, kMaxWatermark - 1), (std::vector<std::string>{"2/0@0"}));
  EXPECT_EQ(drain(queue, kMaxWatermark),
            (std::vector<std::string>{"1/0@" + std::to_string(kMaxWatermark)}));
}

TEST(TimerQueueTest, NamespacesAreSeparate) {
  Queue queue;
  EXPECT_TRUE(queue.add(1, 0, 10));
  EXPECT_TRUE(queue.add(1, 1, 10));
  EXPECT_EQ(queue.size(), 2u);
  EXPECT_TRUE(queue.remove(1, 0, 10));
  EXPECT_TRUE(queue.contains(1, 1, 10));
  EXPECT_EQ(drain(queue), (std::vector<std::string>{"1/1@10"}));
}

TEST(TimerQueueTest, TimerAddedWhileDrainingSameTimestampFiresInSameLoop) {
  Queue queue;
  queue.add(1, 0, 10);
  queue.add(2, 0, 10);
  std::vector<std::string> fired;
  while (auto e = queue.pollAtOrBefore(10)) {
    fired.push_back(std::to_string(e->key));
    if (fired.size() == 1) queue.add(3, 0, 10);
    // Re-adding a timer that already fired is a new registration.
    if (fired.size() == 3) queue.add(1, 0, 10);
    if (fired.size() > 10) break;
  }
  EXPECT_EQ(fired, (std::vector<std::string>{"1", "2", "3", "1"}));
  EXPECT_TRUE(queue.empty());
}

TEST(TimerQueueTest, EarlierTimerAddedWhileDrainingBecomesHead) {
  Queue queue;
  queue.add(1, 0, 10);
  queue.add(2, 0, 10);
  queue.add(3, 0, 20);
  std::vector<std::string> fired;
  while (auto e = queue.pollAtOrBefore(20)) {
    fired.push_back(std::to_string(e->key) + "@" + std::to_string(e->timestamp));
    if (e->key == 1) queue.add(7, 0, 5);
  }
  EXPECT_EQ(fired, (std::vector<std::string>{"1@10", "7@5", "2@10", "3@20"}));
}

TEST(TimerQueueTest, SizeAndContainsTrackLiveTimers) {
  Queue queue;
  for (int k = 0; k < 5; ++k) queue.add(k, 0, 100 + k % 2);
  EXPECT_EQ(queue.size(), 5u);
  EXPECT_TRUE(queue.contains(4, 0, 100));
  EXPECT_FALSE(queue.contains(4, 0, 101));
  queue.pollAtOrBefore(100);
  EXPECT_EQ(queue.size(), 4u);
  EXPECT_FALSE(queue.contains(0, 0, 100));
  EXPECT_FALSE(queue.empty());
}

TEST(TimerQueueTest, ForEachVisitsLiveTimersInFiringOrder) {
  Queue queue;
  queue.add(1, 0, 20);
  queue.add(2, 0, 10);
  queue.add(3, 0, 20);
  queue.add(4, 0, 10);
  queue.remove(2, 0, 10);
  queue.pollAtOrBefore(10);  // Takes key 4.
  queue.add(5, 0, 15);
  std::vector<std::string> seen;
  queue.forEach([&](const std::int64_t& key, const int& ns, Timestamp t) {
    seen.push_back(std::to_string(key) + "/" + std::to_string(ns) + "@" + std::to_string(t));
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"5/0@15", "1/0@20", "3/0@20"}));
}

// Many timers on one timestamp: the bucket switches to its hash index and
// compacts tombstones, which must not change the order.
TEST(TimerQueueTest, LargeBucketKeepsOrderThroughRemovesAndCompaction) {
  Queue queue;
  for (int k = 0; k < 200; ++k) EXPECT_TRUE(queue.add(k, 0, 7));
  for (int k = 0; k < 200; ++k) EXPECT_FALSE(queue.add(k, 0, 7));
  for (int k = 0; k < 200; ++k) {
    if (k % 10 != 3) {
      EXPECT_TRUE(queue.remove(k, 0, 7));
    }
  }
  EXPECT_TRUE(queue.add(5, 0, 7));
  EXPECT_FALSE(queue.add(13, 0, 7));
  EXPECT_EQ(queue.size(), 21u);
  std::vector<std::string> expected;
  for (int k = 3; k < 200; k += 10) expected.push_back(std::to_string(k) + "/0@7");
  expected.push_back("5/0@7");
  EXPECT_EQ(drain(queue), expected);
}

TEST(TimerQueueTest, RecycledBucketsStartClean) {
  Queue queue;
  for (int round = 0; round < 3; ++round) {
    for (int t = 0; t < 50; ++t) {
      for (int k = 0; k < 20; ++k) queue.add(k, round, round * 100 + t);
    }
    EXPECT_EQ(queue.size(), 1000u);
    Timestamp last = kMinWatermark;
    std::int64_t expected_key = 0;
    while (auto e = queue.pollAtOrBefore(kMaxWatermark)) {
      ASSERT_GE(e->timestamp, last);
      if (e->timestamp != last) expected_key = 0;
      last = e->timestamp;
      ASSERT_EQ(e->key, expected_key++);
      ASSERT_EQ(e->ns, round);
    }
    EXPECT_TRUE(queue.empty());
  }
}

// A bucket that grew very large gives its memory back when it empties; the
// recycled bucket must still work.
TEST(TimerQueueTest, HugeBucketIsReleasedAndReused) {
  Queue queue;
  for (int k = 0; k < 70000; ++k) queue.add(k, 0, 1);
  EXPECT_EQ(queue.size(), 70000u);
  std::int64_t expected = 0;
  while (auto e = queue.pollAtOrBefore(1)) ASSERT_EQ(e->key, expected++);
  EXPECT_EQ(expected, 70000);
  for (int k = 0; k < 20; ++k) queue.add(20 - k, 0, 2);
  EXPECT_FALSE(queue.add(20, 0, 2));
  EXPECT_TRUE(queue.remove(19, 0, 2));
  EXPECT_EQ(queue.size(), 19u);
  EXPECT_EQ(queue.pollAtOrBefore(2), (Entry{20, 0, 2}));
  EXPECT_EQ(queue.pollAtOrBefore(2), (Entry{18, 0, 2}));
}

TEST(TimerQueueTest, StringKeysAndVoidNamespace) {
  TimerQueue<std::string, VoidNamespace> queue;
  EXPECT_TRUE(queue.add("b", VoidNamespace{}, 3));
  EXPECT_TRUE(queue.add("a", VoidNamespace{}, 3));
  EXPECT_FALSE(queue.add("b", VoidNamespace{}, 3));
  auto first = queue.pollAtOrBefore(3);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->key, "b");
  EXPECT_EQ(queue.pollAtOrBefore(3)->key, "a");
}

// A key type with only std::hash, as allowed by the contract.
struct StdHashedKey {
  int id;
  friend bool operator==(const StdHashedKey&, const StdHashedKey&) = default;
};

}  // namespace
}  // namespace tidemark::internal

template <>
struct std::hash<tidemark::internal::StdHashedKey> {
  std::size_t operator()(const tidemark::internal::StdHashedKey& k) const noexcept {
    return std::hash<int>()(k.id);
  }
};

namespace tidemark::internal {
namespace {

TEST(TimerQueueTest, KeyWithOnlyStdHash) {
  TimerQueue<StdHashedKey, VoidNamespace> queue;
  for (int k = 0; k < 20; ++k) EXPECT_TRUE(queue.add(StdHashedKey{k}, VoidNamespace{}, 1));
  EXPECT_FALSE(queue.add(StdHashedKey{19}, VoidNamespace{}, 1));
  EXPECT_TRUE(queue.remove(StdHashedKey{0}, VoidNamespace{}, 1));
  EXPECT_EQ(queue.pollAtOrBefore(1)->key.id, 1);
  EXPECT_EQ(queue.size(), 18u);
}

// The obvious implementation: a (timestamp, registration number) ordered set
// plus a map from timer to its registration number.
class ReferenceQueue {
 public:
  bool add(std::int64_t key, int ns, Timestamp t) {
    auto [it, inserted] = seq_of_.try_emplace({t, key, ns}, next_seq_);
    if (!inserted) return false;
    order_.emplace(t, next_seq_, key, ns);
    ++next_seq_;
    return true;
  }
  bool remove(std::int64_t key, int ns, Timestamp t) {
    auto it = seq_of_.find({t, key, ns});
    if (it == seq_of_.end()) return false;
    order_.erase({t, it->second, key, ns});
    seq_of_.erase(it);
    return true;
  }
  bool contains(std::int64_t key, int ns, Timestamp t) const {
    return seq_of_.count({t, key, ns}) > 0;
  }
  std::optional<Timestamp> peekTimestamp() const {
    if (order_.empty()) return std::nullopt;
    return std::get<0>(*order_.begin());
  }
  std::optional<Entry> pollAtOrBefore(Timestamp t) {
    if (order_.empty() || std::get<0>(*order_.begin()) > t) return std::nullopt;
    auto [ts, seq, key, ns] = *order_.begin();
    order_.erase(order_.begin());
    seq_of_.erase({ts, key, ns});
    return Entry{key, ns, ts};
  }
  std::size_t size() const { return order_.size(); }
  std::vector<Entry> all() const {
    std::vector<Entry> out;
    for (const auto& [ts, seq, key, ns] : order_) out.push_back(Entry{key, ns, ts});
    return out;
  }

 private:
  std::set<std::tuple<Timestamp, std::uint64_t, std::int64_t, int>> order_;
  std::map<std::tuple<Timestamp, std::int64_t, int>, std::uint64_t> seq_of_;
  std::uint64_t next_seq_ = 0;
};

TEST(TimerQueueTest, RandomizedAgainstReference) {
  std::mt19937_64 rng(20240607);
  Queue queue;
  ReferenceQueue reference;
  // Timers once added, so removes and re-adds mostly hit real timers.
  std::vector<Entry> known;
  std::optional<Entry> last_added;
  Timestamp low = 0;
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  auto someTimer = [&](Timestamp span, std::int64_t max_key) {
    if (!known.empty() && pick(0, 3) != 0) {
      return known[static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(known.size()) - 1))];
    }
    return Entry{pick(0, max_key), static_cast<int>(pick(0, 2)), low + pick(-2, span)};
  };
  for (int op = 0; op < 100000; ++op) {
    // Phases vary how crowded timestamps are, from one timer per timestamp
    // (bucket churn, stale heap items, heap rebuilds) to hundreds (indexed
    // buckets, tombstone compaction).
    const int phase = (op / 5000) % 4;
    const Timestamp span = phase == 0 ? 5000 : phase == 1 ? 40 : phase == 2 ? 3 : 300;
    const std::int64_t max_key = phase == 2 ? 400 : 60;
    const std::int64_t poll_share = phase == 2 ? 3 : 20;
    const std::int64_t action = pick(0, 99);
    if (action < 40) {
      // A quarter of the adds repeat the previous add, as window operators
      // do (trigger timer, then cleanup timer), whatever happened between.
      const Entry e = last_added && pick(0, 3) == 0 ? *last_added
                      : pick(0, 2) == 0             ? someTimer(span, max_key)
                                                    : Entry{pick(0, max_key), static_cast<int>(pick(0, 2)),
                                                            low + pick(-2, span)};
      ASSERT_EQ(queue.add(e.key, e.ns, e.timestamp), reference.add(e.key, e.ns, e.timestamp))
          << "op " << op;
      last_added = e;
      if (known.size() < 4096) {
        known.push_back(e);
      } else {
        known[static_cast<std::size_t>(pick(0, 4095))] = e;
      }
    } else if (action < 95 - poll_share) {
      const Entry e = someTimer(span, max_key);
      ASSERT_EQ(queue.remove(e.key, e.ns, e.timestamp), reference.remove(e.key, e.ns, e.timestamp))
          << "op " << op;
    } else if (action < 100 - poll_share) {
      const Entry e = someTimer(span, max_key);
      ASSERT_EQ(queue.contains(e.key, e.ns, e.timestamp), reference.contains(e.key, e.ns, e.timestamp))
          << "op " << op;
    } else {
      const Timestamp bound = low + pick(-3, span / 4 + 1);
      const int polls = static_cast<int>(pick(1, 8));
      for (int i = 0; i < polls; ++i) {
        auto got = queue.pollAtOrBefore(bound);
        auto want = reference.pollAtOrBefore(bound);
        ASSERT_EQ(got, want) << "op " << op;
        if (!want) break;
      }
      if (pick(0, 3) == 0) low = bound;
    }
    ASSERT_EQ(queue.size(), reference.size()) << "op " << op;
    ASSERT_EQ(queue.empty(), reference.size() == 0) << "op " << op;
    ASSERT_EQ(queue.peekTimestamp(), reference.peekTimestamp()) << "op " << op;
    if (op % 997 == 0) {
      std::vector<Entry> visited;
      queue.forEach([&](const std::int64_t& k, const int& n, Timestamp ts) {
        visited.push_back(Entry{k, n, ts});
      });
      ASSERT_EQ(visited, reference.all()) << "op " << op;
    }
  }
  std::vector<Entry> rest;
  while (auto e = queue.pollAtOrBefore(kMaxWatermark)) rest.push_back(*e);
  EXPECT_EQ(rest, reference.all());
}

// Releasing many buckets that are not at the head leaves stale heap items
// behind, which forces heap rebuilds; re-adding released timestamps creates
// duplicate heap items.
TEST(TimerQueueTest, ChurnOfSparseTimestampsMatchesReference) {
  Queue queue;
  ReferenceQueue reference;
  auto add = [&](std::int64_t k, Timestamp t) {
    ASSERT_EQ(queue.add(k, 0, t), reference.add(k, 0, t));
  };
  auto remove = [&](std::int64_t k, Timestamp t) {
    ASSERT_EQ(queue.remove(k, 0, t), reference.remove(k, 0, t));
  };
  for (Timestamp t = 0; t < 3000; ++t) add(t % 7, t * 3);
  for (Timestamp t = 2999; t >= 1; --t) {
    if (t % 3 != 0) remove(t % 7, t * 3);
    if (t % 50 == 0) add(100, t * 3 + 1);
  }
  for (Timestamp t = 0; t < 3000; t += 5) add(200, t * 3);
  for (Timestamp t = 0; t < 3000; t += 4) remove(t % 7, t * 3);
  ASSERT_EQ(queue.size(), reference.size());
  for (Timestamp bound = 0; bound < 9100; bound += 250) {
    while (true) {
      auto got = queue.pollAtOrBefore(bound);
      ASSERT_EQ(got, reference.pollAtOrBefore(bound));
      ASSERT_EQ(queue.peekTimestamp(), reference.peekTimestamp());
      if (!got) break;
    }
  }
  EXPECT_TRUE(queue.empty());
}

// One crowded timestamp under removes, re-adds and partial draining: the
// bucket compacts its tombstones while keeping registration order.
TEST(TimerQueueTest, ChurnInsideOneCrowdedTimestampMatchesReference) {
  std::mt19937_64 rng(7);
  Queue queue;
  ReferenceQueue reference;
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 300; ++i) {
      const auto k = static_cast<std::int64_t>(rng() % 500);
      ASSERT_EQ(queue.add(k, 0, 42), reference.add(k, 0, 42));
    }
    for (int i = 0; i < 250; ++i) {
      const auto k = static_cast<std::int64_t>(rng() % 500);
      ASSERT_EQ(queue.remove(k, 0, 42), reference.remove(k, 0, 42));
    }
    for (int i = 0; i < 10; ++i) ASSERT_EQ(queue.pollAtOrBefore(42), reference.pollAtOrBefore(42));
    ASSERT_EQ(queue.size(), reference.size());
  }
  std::vector<Entry> rest;
  while (auto e = queue.pollAtOrBefore(42)) rest.push_back(*e);
  EXPECT_EQ(rest, reference.all());
}

}  // namespace
}  // namespace tidemark::internal
