// MonotonicTimerQueue: entries leave in (timestamp, registration) order
// whichever lane or heap holds them, duplicates are kept, and polling stops
// at the given time.
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tidemark/internal/operators/monotonic_timer_queue.h"

namespace tidemark::internal {
namespace {

using ::testing::ElementsAre;

using Queue = MonotonicTimerQueue<std::string, 2>;

std::vector<std::pair<Timestamp, std::string>> drain(Queue& queue, Timestamp up_to) {
  std::vector<std::pair<Timestamp, std::string>> out;
  while (auto e = queue.pollAtOrBefore(up_to)) out.emplace_back(e->timestamp, e->key);
  return out;
}

TEST(MonotonicTimerQueue, InOrderRegistrationsComeOutInOrder) {
  Queue queue;
  queue.add("a", 1);
  queue.add("b", 2);
  queue.add("c", 2);
  queue.add("d", 5);
  EXPECT_EQ(queue.size(), 4u);
  EXPECT_THAT(drain(queue, 2), ElementsAre(std::pair<Timestamp, std::string>{1, "a"},
                                           std::pair<Timestamp, std::string>{2, "b"},
                                           std::pair<Timestamp, std::string>{2, "c"}));
  EXPECT_EQ(queue.size(), 1u);
  EXPECT_THAT(drain(queue, 100), ElementsAre(std::pair<Timestamp, std::string>{5, "d"}));
  EXPECT_TRUE(queue.empty());
}

TEST(MonotonicTimerQueue, LanesAndOutOfOrderEntriesMergeByTimeThenRegistration) {
  Queue queue;
  queue.add("wake-3", 3, 0);
  queue.add("timeout-13", 13, 1);
  queue.add("wake-4", 4, 0);
  queue.add("wake-1", 1, 0);    // earlier than its lane's newest: goes to the heap
  queue.add("timeout-4", 4, 1);  // earlier than lane 1's newest too
  queue.add("wake-4b", 4, 0);
  EXPECT_THAT(drain(queue, 20),
              ElementsAre(std::pair<Timestamp, std::string>{1, "wake-1"}, std::pair<Timestamp, std::string>{3, "wake-3"},
                          std::pair<Timestamp, std::string>{4, "wake-4"},
                          std::pair<Timestamp, std::string>{4, "timeout-4"},
                          std::pair<Timestamp, std::string>{4, "wake-4b"},
                          std::pair<Timestamp, std::string>{13, "timeout-13"}));
}

TEST(MonotonicTimerQueue, DuplicatesAreKept) {
  Queue queue;
  queue.add("k", 7);
  queue.add("k", 7);
  EXPECT_EQ(queue.size(), 2u);
  EXPECT_EQ(drain(queue, 7).size(), 2u);
}

TEST(MonotonicTimerQueue, EntriesAddedWhileDrainingAtOrBeforeTheTimeStillCome) {
  Queue queue;
  queue.add("a", 1);
  std::vector<std::string> seen;
  while (auto e = queue.pollAtOrBefore(10)) {
    seen.push_back(e->key);
    if (e->key == "a") queue.add("b", 5);  // registered from inside the loop
  }
  EXPECT_THAT(seen, ElementsAre("a", "b"));
}

TEST(MonotonicTimerQueue, ALongRunReusesItsStorageAndStaysOrdered) {
  Queue queue;
  Timestamp expected = 0;
  for (Timestamp t = 0; t < 100'000; ++t) {
    queue.add(std::to_string(t), t);
    if (t % 7 == 6) {
      while (auto e = queue.pollAtOrBefore(t - 3)) {
        ASSERT_EQ(e->timestamp, expected);
        ++expected;
      }
    }
  }
  while (auto e = queue.pollAtOrBefore(kMaxWatermark)) {
    ASSERT_EQ(e->timestamp, expected);
    ++expected;
  }
  EXPECT_EQ(expected, 100'000);
}

}  // namespace
}  // namespace tidemark::internal
