// The window operator leaves no state and no timers behind once its windows
// are cleaned up (docs/semantics.md 4.3, 4.6): a million keys hold a million state
// entries and a million timers while their window is open, and nothing once
// the watermark passed the window's cleanup time; likewise for sessions with
// allowed lateness (merging sets, merged-away windows) and for sliding windows
// with a ProcessWindowFunction that keeps per-window state.
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <span>
#include <string>

#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

struct Item {
  std::int64_t key = 0;
  std::int64_t v = 0;
  friend std::ostream& operator<<(std::ostream& os, const Item& i) { return os << i.key << ':' << i.v; }
};

Item sumItems(const Item& a, const Item& b) { return Item{a.key, a.v + b.v}; }
std::int64_t keyOf(const Item& i) { return i.key; }

KeyedStream<std::int64_t, Item> keyed(StreamExecutionEnvironment& env) {
  return env.fromElements<Item>({Item{0, 0}}).keyBy(keyOf);
}

template <class OUT>
using Harness = KeyedOneInputStreamOperatorTestHarness<std::int64_t, Item, OUT>;

// `num_keys` keys in one tumbling window, each with its own state entry and
// timer until the watermark reaches the window's end, and nothing after.
// `general` names the default trigger, which keeps the general
// WindowOperator; without it the API may pick its slicing operator, which
// must report the same.
void checkManyKeys(bool general, std::int64_t num_keys) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto windowed = keyed(env).window(TumblingEventTimeWindows::of(1000));
  if (general) windowed.trigger(EventTimeTrigger::create());
  Harness<Item> h(windowed.reduce(sumItems));
  h.open();
  for (std::int64_t key = 0; key < num_keys; ++key) h.processElement(Item{key, 1}, key % 1000);
  // A second element for some keys changes nothing but the reduced value.
  for (std::int64_t key = 0; key < num_keys; key += 1000) h.processElement(Item{key, 2}, 999);
  EXPECT_EQ(h.numKeyedStateEntries(), static_cast<std::size_t>(num_keys));
  EXPECT_EQ(h.numEventTimeTimers(), static_cast<std::size_t>(num_keys));

  h.processWatermark(998);  // one before the windows' maxTimestamp: nothing fires
  EXPECT_EQ(h.getOutput().size(), 1u);
  EXPECT_EQ(h.numKeyedStateEntries(), static_cast<std::size_t>(num_keys));
  EXPECT_EQ(h.numEventTimeTimers(), static_cast<std::size_t>(num_keys));

  h.processWatermark(999);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
  EXPECT_EQ(h.numProcessingTimeTimers(), 0u);

  const std::vector<StreamRecord<Item>> records = h.getOutput().records();
  ASSERT_EQ(records.size(), static_cast<std::size_t>(num_keys));
  std::int64_t total = 0;
  std::size_t stamped_999 = 0;
  for (const auto& r : records) {
    total += r.value.v;
    if (r.has_timestamp && r.timestamp == 999) ++stamped_999;
  }
  EXPECT_EQ(total, num_keys + 2 * (num_keys / 1000));
  EXPECT_EQ(stamped_999, static_cast<std::size_t>(num_keys));
  // Timers fire in registration order: the keys in the order they arrived.
  EXPECT_EQ(records.front().value.key, 0);
  EXPECT_EQ(records.front().value.v, 3);
  EXPECT_EQ(records.back().value.key, num_keys - 1);
  EXPECT_EQ(h.getOutput().watermarks(), (std::vector<Timestamp>{998, 999}));
}

TEST(WindowStateCleanupTest, AMillionKeysLeaveNoStateAndNoTimersBehind) { checkManyKeys(/*general=*/false, 1'000'000); }

// A quarter of the keys: the general operator costs about 4x per element, and
// the test must stay fast in a Debug + ASan build.
TEST(WindowStateCleanupTest, ManyKeysLeaveNoStateAndNoTimersBehindInTheGeneralOperator) {
  checkManyKeys(/*general=*/true, 250'000);
}

TEST(WindowStateCleanupTest, SessionsWithLatenessLeaveNothingBehind) {
  constexpr std::int64_t kKeys = 5'000;
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  const OutputTag<Item> late("late");
  Harness<Item> h(keyed(env)
                      .window(EventTimeSessionWindows::withGap(100))
                      .allowedLateness(1000)
                      .sideOutputLateData(late)
                      .reduce(sumItems));
  h.captureSideOutput(late);
  h.open();
  // Per key: sessions [0,100) and [200,300); a late element bridges them
  // after both fired, and one arrives after the cleanup.
  for (std::int64_t key = 0; key < kKeys; ++key) {
    h.processElement(Item{key, 1}, 0);
    h.processElement(Item{key, 2}, 200);
  }
  // Per key: two contents, the merging set; two trigger and two cleanup timers.
  EXPECT_EQ(h.numKeyedStateEntries(), static_cast<std::size_t>(3 * kKeys));
  EXPECT_EQ(h.numEventTimeTimers(), static_cast<std::size_t>(4 * kKeys));
  h.processWatermark(500);
  EXPECT_EQ(h.numEventTimeTimers(), static_cast<std::size_t>(2 * kKeys));
  for (std::int64_t key = 0; key < kKeys; ++key) h.processElement(Item{key, 4}, 100);
  // Merged into [0,300): one contents, the merging set, one cleanup timer (1299).
  EXPECT_EQ(h.numKeyedStateEntries(), static_cast<std::size_t>(2 * kKeys));
  EXPECT_EQ(h.numEventTimeTimers(), static_cast<std::size_t>(kKeys));
  h.processWatermark(1298);
  EXPECT_EQ(h.numKeyedStateEntries(), static_cast<std::size_t>(2 * kKeys));
  h.processWatermark(1299);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
  for (std::int64_t key = 0; key < kKeys; ++key) h.processElement(Item{key, 8}, 150);
  EXPECT_EQ(h.getSideOutput(late).size(), static_cast<std::size_t>(kKeys));
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
  // Per key: 1 and 2 at their ends, then 7 for the merged session.
  EXPECT_EQ(h.getOutput().records().size(), static_cast<std::size_t>(3 * kKeys));
}

/// Keeps a per-window firing count and clears it when the window is cleaned up.
class CountFirings : public ProcessWindowFunction<Item, std::int64_t, std::int64_t, TimeWindow> {
 public:
  void process(const std::int64_t&, Context& ctx, std::span<const Item> elements,
               Collector<std::int64_t>& out) override {
    ValueState<std::int64_t>& fires = ctx.windowState().getState(fires_);
    fires.update(fires.value().value_or(0) + 1);
    out.collect(static_cast<std::int64_t>(elements.size()));
  }
  void clear(Context& ctx) override { ctx.windowState().getState(fires_).clear(); }

 private:
  ValueStateDescriptor<std::int64_t> fires_{"fires"};
};

TEST(WindowStateCleanupTest, SlidingWindowsWithPerWindowStateLeaveNothingBehind) {
  constexpr std::int64_t kKeys = 5'000;
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  Harness<std::int64_t> h(
      keyed(env).window(SlidingEventTimeWindows::of(2000, 1000)).allowedLateness(500).process(CountFirings{}));
  h.open();
  for (std::int64_t key = 0; key < kKeys; ++key) h.processElement(Item{key, 1}, 1500);  // [1000,3000), [0,2000)
  // Per key and window: contents; trigger timer and cleanup timer.
  EXPECT_EQ(h.numKeyedStateEntries(), static_cast<std::size_t>(2 * kKeys));
  EXPECT_EQ(h.numEventTimeTimers(), static_cast<std::size_t>(4 * kKeys));
  h.processWatermark(1999);  // [0,2000) fires: + its firing count
  EXPECT_EQ(h.numKeyedStateEntries(), static_cast<std::size_t>(3 * kKeys));
  h.processWatermark(2499);  // [0,2000) cleaned up: contents and firing count
  EXPECT_EQ(h.numKeyedStateEntries(), static_cast<std::size_t>(kKeys));
  EXPECT_EQ(h.numEventTimeTimers(), static_cast<std::size_t>(2 * kKeys));
  h.processWatermark(3499);
  EXPECT_EQ(h.numKeyedStateEntries(), 0u);
  EXPECT_EQ(h.numEventTimeTimers(), 0u);
  EXPECT_EQ(h.getOutput().records().size(), static_cast<std::size_t>(2 * kKeys));
}

}  // namespace
}  // namespace tidemark
