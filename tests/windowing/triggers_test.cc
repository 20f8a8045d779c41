// The built-in triggers, each driven by hand through FakeTriggerContext:
// results, timers, per-window state and its removal, merging.
#include <chrono>
#include <cstdint>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tidemark/windowing/continuous_event_time_trigger.h"
#include "tidemark/windowing/continuous_processing_time_trigger.h"
#include "tidemark/windowing/count_trigger.h"
#include "tidemark/windowing/event_time_trigger.h"
#include "tidemark/windowing/global_window.h"
#include "tidemark/windowing/never_trigger.h"
#include "tidemark/windowing/processing_time_trigger.h"
#include "tidemark/windowing/purging_trigger.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/trigger.h"
#include "windowing/fake_trigger_context.h"

namespace tidemark {
namespace {

using internal::testing::FakeTimer;
using internal::testing::FakeTriggerContext;
using internal::testing::FiredTimer;
using ::testing::HasSubstr;
using Times = std::set<Timestamp>;
using TimeTimers = std::set<FakeTimer<TimeWindow>>;

constexpr TriggerResult CONTINUE = TriggerResult::CONTINUE;
constexpr TriggerResult FIRE = TriggerResult::FIRE;
constexpr TriggerResult PURGE = TriggerResult::PURGE;
constexpr TriggerResult FIRE_AND_PURGE = TriggerResult::FIRE_AND_PURGE;

// Every built-in factory result is a specification for any element type.
static_assert(TriggerSpec<EventTimeTrigger, int, TimeWindow>);
static_assert(TriggerSpec<ProcessingTimeTrigger, std::string, TimeWindow>);
static_assert(TriggerSpec<CountTrigger, int, GlobalWindow>);
static_assert(TriggerSpec<NeverTrigger, int, GlobalWindow>);
static_assert(TriggerSpec<ContinuousEventTimeTrigger, int, TimeWindow>);
static_assert(TriggerSpec<ContinuousProcessingTimeTrigger, int, GlobalWindow>);
static_assert(TriggerSpec<PurgingTriggerSpec<CountTrigger>, int, GlobalWindow>);

std::string message(const std::exception& e) { return e.what(); }

template <class F>
std::string thrownInvalidArgument(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return message(e);
  }
  ADD_FAILURE() << "no std::invalid_argument thrown";
  return "";
}

// ---------------------------------------------------------------- EventTimeTrigger

class EventTimeTriggerTest : public ::testing::Test {
 protected:
  std::unique_ptr<Trigger<int, TimeWindow>> trigger = internal::makeTrigger<int, TimeWindow>(EventTimeTrigger::create());
  FakeTriggerContext<TimeWindow> ctx;
  TimeWindow window{0, 10000};
};

TEST_F(EventTimeTriggerTest, OnElementRegistersTimerAtMaxTimestampAndContinues) {
  ctx.useWindow(window);
  EXPECT_EQ(trigger->onElement(1, 500, window, ctx), CONTINUE);
  EXPECT_EQ(ctx.eventTimers(), (TimeTimers{{9999, "key-a", window}}));
  EXPECT_TRUE(ctx.processingTimers().empty());
  EXPECT_EQ(ctx.numStateEntries(), 0u);

  // The same time again is one timer.
  EXPECT_EQ(trigger->onElement(2, 700, window, ctx), CONTINUE);
  EXPECT_EQ(ctx.eventTimers().size(), 1u);
}

TEST_F(EventTimeTriggerTest, OnElementFiresAtOnceWhenTheWatermarkReachedMaxTimestamp) {
  ctx.useWindow(window);
  ctx.setCurrentWatermark(9998);
  EXPECT_EQ(trigger->onElement(1, 9000, window, ctx), CONTINUE);
  EXPECT_EQ(ctx.eventTimerTimes(), Times{9999});

  FakeTriggerContext<TimeWindow> late_ctx;
  late_ctx.useWindow(window);
  late_ctx.setCurrentWatermark(9999);
  EXPECT_EQ(trigger->onElement(1, 9000, window, late_ctx), FIRE);
  EXPECT_TRUE(late_ctx.eventTimers().empty());

  late_ctx.setCurrentWatermark(12000);
  EXPECT_EQ(trigger->onElement(2, 5000, window, late_ctx), FIRE);
  EXPECT_TRUE(late_ctx.eventTimers().empty());
}

TEST_F(EventTimeTriggerTest, OnEventTimeFiresOnlyAtMaxTimestamp) {
  ctx.useWindow(window);
  EXPECT_EQ(trigger->onEventTime(9999, window, ctx), FIRE);
  // The operator's cleanup timer at maxTimestamp + allowedLateness must not fire it again.
  EXPECT_EQ(trigger->onEventTime(10999, window, ctx), CONTINUE);
  EXPECT_EQ(trigger->onEventTime(5000, window, ctx), CONTINUE);
  EXPECT_EQ(trigger->onProcessingTime(9999, window, ctx), CONTINUE);
}

TEST_F(EventTimeTriggerTest, FiresThroughTheTimerWhenTheWatermarkPasses) {
  ctx.useWindow(window);
  trigger->onElement(1, 500, window, ctx);
  EXPECT_EQ(ctx.advanceWatermark(*trigger, 9998), std::vector<FiredTimer>{});
  EXPECT_EQ(ctx.advanceWatermark(*trigger, 9999), (std::vector<FiredTimer>{{9999, FIRE}}));
  EXPECT_TRUE(ctx.eventTimers().empty());
}

TEST_F(EventTimeTriggerTest, ClearDeletesTheTimer) {
  ctx.useWindow(window);
  trigger->onElement(1, 500, window, ctx);
  trigger->clear(window, ctx);
  EXPECT_TRUE(ctx.eventTimers().empty());
  EXPECT_EQ(ctx.numStateEntries(), 0u);
}

TEST_F(EventTimeTriggerTest, TimersAreScopedToKeyAndWindow) {
  const TimeWindow other{10000, 20000};
  ctx.useWindow(window);
  trigger->onElement(1, 500, window, ctx);
  ctx.useWindow(other);
  trigger->onElement(1, 15000, other, ctx);
  ctx.setCurrentKey("key-b");
  trigger->onElement(1, 15000, other, ctx);
  EXPECT_EQ(ctx.eventTimers(),
            (TimeTimers{{9999, "key-a", window}, {19999, "key-a", other}, {19999, "key-b", other}}));

  // Clearing one key's window leaves the others.
  trigger->clear(other, ctx);
  EXPECT_EQ(ctx.eventTimers(), (TimeTimers{{9999, "key-a", window}, {19999, "key-a", other}}));
}

TEST_F(EventTimeTriggerTest, OnMergeRegistersOnlyWhenMaxTimestampIsAfterTheWatermark) {
  EXPECT_TRUE(trigger->canMerge());
  const TimeWindow merged{1000, 7000};
  ctx.useWindow(merged);
  ctx.setMergedWindows({TimeWindow{1000, 4000}, TimeWindow{4000, 7000}});
  ctx.setCurrentWatermark(6998);
  trigger->onMerge(merged, ctx);
  EXPECT_EQ(ctx.eventTimers(), (TimeTimers{{6999, "key-a", merged}}));

  // At watermark == maxTimestamp the next onElement fires; a timer would fire twice.
  FakeTriggerContext<TimeWindow> late_ctx;
  late_ctx.useWindow(merged);
  late_ctx.setCurrentWatermark(6999);
  trigger->onMerge(merged, late_ctx);
  EXPECT_TRUE(late_ctx.eventTimers().empty());
  EXPECT_EQ(trigger->onElement(1, 6500, merged, late_ctx), FIRE);
}

TEST_F(EventTimeTriggerTest, Names) {
  EXPECT_EQ(trigger->toString(), "EventTimeTrigger()");
  EXPECT_EQ(EventTimeTrigger::create().toString(), "EventTimeTrigger()");
}

// The window operator skips onElement for a window that holds elements while
// the trigger says it would only register its timer again.
TEST_F(EventTimeTriggerTest, RepeatsOnElementOnlyBeforeTheWatermarkReachesMaxTimestamp) {
  const auto* repeats = dynamic_cast<const internal::WindowEndTimerTrigger<TimeWindow>*>(trigger.get());
  ASSERT_NE(repeats, nullptr);
  ctx.setCurrentProcessingTime(50000);  // plays no part
  EXPECT_TRUE(repeats->repeatsOnElement(window, ctx));
  ctx.setCurrentWatermark(9998);
  EXPECT_TRUE(repeats->repeatsOnElement(window, ctx));
  // From here on every element fires the window (a late firing).
  ctx.setCurrentWatermark(9999);
  EXPECT_FALSE(repeats->repeatsOnElement(window, ctx));
  ctx.setCurrentWatermark(12000);
  EXPECT_FALSE(repeats->repeatsOnElement(window, ctx));
}

// ---------------------------------------------------------------- ProcessingTimeTrigger

class ProcessingTimeTriggerTest : public ::testing::Test {
 protected:
  std::unique_ptr<Trigger<int, TimeWindow>> trigger = ProcessingTimeTrigger::create().build<int, TimeWindow>();
  FakeTriggerContext<TimeWindow> ctx;
  TimeWindow window{0, 10000};
};

TEST_F(ProcessingTimeTriggerTest, OnElementRegistersProcessingTimerAtMaxTimestamp) {
  ctx.useWindow(window);
  ctx.setCurrentProcessingTime(1234);
  // The element's timestamp plays no part.
  EXPECT_EQ(trigger->onElement(1, kMinWatermark, window, ctx), CONTINUE);
  EXPECT_EQ(ctx.processingTimers(), (TimeTimers{{9999, "key-a", window}}));
  EXPECT_TRUE(ctx.eventTimers().empty());
  EXPECT_EQ(ctx.numStateEntries(), 0u);
}

TEST_F(ProcessingTimeTriggerTest, FiresOnItsProcessingTimer) {
  ctx.useWindow(window);
  trigger->onElement(1, 0, window, ctx);
  EXPECT_EQ(ctx.advanceProcessingTime(*trigger, 9998), std::vector<FiredTimer>{});
  EXPECT_EQ(ctx.advanceProcessingTime(*trigger, 10500), (std::vector<FiredTimer>{{9999, FIRE}}));
  EXPECT_EQ(trigger->onEventTime(9999, window, ctx), CONTINUE);
}

TEST_F(ProcessingTimeTriggerTest, RepeatsOnElementOnlyBeforeProcessingTimeReachesMaxTimestamp) {
  const auto* repeats = dynamic_cast<const internal::WindowEndTimerTrigger<TimeWindow>*>(trigger.get());
  ASSERT_NE(repeats, nullptr);
  ctx.setCurrentWatermark(20000);  // plays no part
  ctx.setCurrentProcessingTime(0);
  EXPECT_TRUE(repeats->repeatsOnElement(window, ctx));
  ctx.setCurrentProcessingTime(9998);
  EXPECT_TRUE(repeats->repeatsOnElement(window, ctx));
  // On an event-time window, kept after its processing-time timer fired,
  // each element registers a timer that fires it again.
  ctx.setCurrentProcessingTime(9999);
  EXPECT_FALSE(repeats->repeatsOnElement(window, ctx));
}

// A trigger that sees every element is not skipped.
TEST(WindowEndTimerTriggerTest, OtherBuiltInTriggersAreNotSkipped) {
  EXPECT_EQ(dynamic_cast<const internal::WindowEndTimerTrigger<GlobalWindow>*>(
                CountTrigger::of(3).build<int, GlobalWindow>().get()),
            nullptr);
  EXPECT_EQ(dynamic_cast<const internal::WindowEndTimerTrigger<TimeWindow>*>(
                PurgingTrigger::of(EventTimeTrigger::create()).build<int, TimeWindow>().get()),
            nullptr);
  EXPECT_EQ(dynamic_cast<const internal::WindowEndTimerTrigger<TimeWindow>*>(
                ContinuousEventTimeTrigger::of(1000).build<int, TimeWindow>().get()),
            nullptr);
}

TEST_F(ProcessingTimeTriggerTest, ClearDeletesTheTimer) {
  ctx.useWindow(window);
  trigger->onElement(1, 0, window, ctx);
  trigger->clear(window, ctx);
  EXPECT_TRUE(ctx.processingTimers().empty());
}

TEST_F(ProcessingTimeTriggerTest, OnMergeRegistersOnlyWhenMaxTimestampIsAfterNow) {
  EXPECT_TRUE(trigger->canMerge());
  const TimeWindow merged{1000, 7000};
  ctx.useWindow(merged);
  ctx.setCurrentProcessingTime(6998);
  trigger->onMerge(merged, ctx);
  EXPECT_EQ(ctx.processingTimerTimes(), Times{6999});

  FakeTriggerContext<TimeWindow> late_ctx;
  late_ctx.useWindow(merged);
  late_ctx.setCurrentProcessingTime(6999);
  trigger->onMerge(merged, late_ctx);
  EXPECT_TRUE(late_ctx.processingTimers().empty());
}

TEST_F(ProcessingTimeTriggerTest, Names) {
  EXPECT_EQ(trigger->toString(), "ProcessingTimeTrigger()");
  EXPECT_EQ(ProcessingTimeTrigger::create().toString(), "ProcessingTimeTrigger()");
}

// ---------------------------------------------------------------- CountTrigger

TEST(CountTriggerTest, FiresEveryNElementsAndResetsTheCount) {
  auto trigger = CountTrigger::of(3).build<int, GlobalWindow>();
  FakeTriggerContext<GlobalWindow> ctx;
  const GlobalWindow window;
  ctx.useWindow(window);

  std::vector<TriggerResult> results;
  std::vector<std::size_t> entries;
  for (int i = 1; i <= 7; ++i) {
    results.push_back(trigger->onElement(i, i, window, ctx));
    entries.push_back(ctx.numStateEntries("count"));
  }
  EXPECT_EQ(results, (std::vector<TriggerResult>{CONTINUE, CONTINUE, FIRE, CONTINUE, CONTINUE, FIRE, CONTINUE}));
  // The count is removed when it fires, not left at 0.
  EXPECT_EQ(entries, (std::vector<std::size_t>{1, 1, 0, 1, 1, 0, 1}));
  EXPECT_TRUE(ctx.eventTimers().empty());
  EXPECT_TRUE(ctx.processingTimers().empty());
  EXPECT_EQ(trigger->onEventTime(kMaxWatermark, window, ctx), CONTINUE);
  EXPECT_EQ(trigger->onProcessingTime(100, window, ctx), CONTINUE);
}

TEST(CountTriggerTest, OfOneFiresOnEveryElement) {
  auto trigger = CountTrigger::of(1).build<int, GlobalWindow>();
  FakeTriggerContext<GlobalWindow> ctx;
  const GlobalWindow window;
  ctx.useWindow(window);
  EXPECT_EQ(trigger->onElement(1, 0, window, ctx), FIRE);
  EXPECT_EQ(trigger->onElement(2, 0, window, ctx), FIRE);
  EXPECT_EQ(ctx.numStateEntries(), 0u);
}

TEST(CountTriggerTest, CountsPerKeyAndWindowInOneTrigger) {
  auto trigger = CountTrigger::of(2).build<int, TimeWindow>();
  FakeTriggerContext<TimeWindow> ctx;
  const TimeWindow w1{0, 10};
  const TimeWindow w2{10, 20};

  ctx.useWindow(w1);
  EXPECT_EQ(trigger->onElement(1, 1, w1, ctx), CONTINUE);  // a, w1: 1
  ctx.useWindow(w2);
  EXPECT_EQ(trigger->onElement(1, 11, w2, ctx), CONTINUE);  // a, w2: 1
  ctx.setCurrentKey("key-b");
  ctx.useWindow(w1);
  EXPECT_EQ(trigger->onElement(1, 2, w1, ctx), CONTINUE);  // b, w1: 1
  EXPECT_EQ(ctx.numStateEntries(), 3u);

  ctx.setCurrentKey("key-a");
  EXPECT_EQ(trigger->onElement(1, 3, w1, ctx), FIRE);  // a, w1: 2
  ctx.setCurrentKey("key-b");
  ctx.useWindow(w2);
  EXPECT_EQ(trigger->onElement(1, 12, w2, ctx), CONTINUE);  // b, w2: 1
  EXPECT_EQ(ctx.numStateEntries(), 3u);
}

TEST(CountTriggerTest, ClearRemovesTheCount) {
  auto trigger = CountTrigger::of(5).build<int, TimeWindow>();
  FakeTriggerContext<TimeWindow> ctx;
  const TimeWindow window{0, 10};
  ctx.useWindow(window);
  trigger->onElement(1, 1, window, ctx);
  trigger->onElement(2, 2, window, ctx);
  EXPECT_EQ(ctx.numStateEntries(), 1u);
  trigger->clear(window, ctx);
  EXPECT_EQ(ctx.numStateEntries(), 0u);
  // Counting starts over.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(trigger->onElement(i, 3, window, ctx), CONTINUE);
  EXPECT_EQ(trigger->onElement(9, 3, window, ctx), FIRE);
}

TEST(CountTriggerTest, OnMergeSumsTheCounts) {
  auto trigger = CountTrigger::of(4).build<int, TimeWindow>();
  EXPECT_TRUE(trigger->canMerge());
  FakeTriggerContext<TimeWindow> ctx;
  const TimeWindow w1{1000, 4000};
  const TimeWindow w2{4000, 7000};
  const TimeWindow merged{1000, 7000};

  ctx.useWindow(w1);
  trigger->onElement(1, 1000, w1, ctx);
  trigger->onElement(2, 1500, w1, ctx);
  ctx.useWindow(w2);
  trigger->onElement(3, 4000, w2, ctx);
  EXPECT_EQ(ctx.numStateEntries("count"), 2u);

  ctx.useWindow(merged);
  ctx.setMergedWindows({w1, w2});
  trigger->onMerge(merged, ctx);
  // The counts moved into the merged window: 2 + 1 = 3.
  EXPECT_EQ(ctx.numStateEntries("count"), 1u);
  EXPECT_EQ(trigger->onElement(4, 5000, merged, ctx), FIRE);
  EXPECT_EQ(ctx.numStateEntries("count"), 0u);
}

TEST(CountTriggerTest, RejectsCountsBelowOne) {
  EXPECT_THAT(thrownInvalidArgument([] { CountTrigger::of(0); }), HasSubstr("CountTrigger"));
  EXPECT_THAT(thrownInvalidArgument([] { CountTrigger::of(0); }), HasSubstr("got 0"));
  EXPECT_THAT(thrownInvalidArgument([] { CountTrigger::of(-3); }), HasSubstr("got -3"));
}

TEST(CountTriggerTest, Names) {
  EXPECT_EQ(CountTrigger::of(3).toString(), "CountTrigger(3)");
  EXPECT_EQ((CountTrigger::of(3).build<int, GlobalWindow>()->toString()), "CountTrigger(3)");
  EXPECT_EQ(CountTrigger::of(3).getMaxCount(), 3);
}

// ---------------------------------------------------------------- PurgingTrigger

/// A user trigger that answers what the test tells it to, and records calls.
class ScriptedTrigger : public Trigger<int, TimeWindow> {
 public:
  explicit ScriptedTrigger(TriggerResult result, bool can_merge = false) : result_(result), can_merge_(can_merge) {}

  TriggerResult onElement(const int&, Timestamp, const TimeWindow&, TriggerContext<TimeWindow>&) override {
    return result_;
  }
  TriggerResult onEventTime(Timestamp, const TimeWindow&, TriggerContext<TimeWindow>&) override { return result_; }
  TriggerResult onProcessingTime(Timestamp, const TimeWindow&, TriggerContext<TimeWindow>&) override {
    return result_;
  }
  void clear(const TimeWindow&, TriggerContext<TimeWindow>& ctx) override { ctx.registerEventTimeTimer(-42); }
  bool canMerge() const override { return can_merge_; }
  void onMerge(const TimeWindow&, OnMergeContext<TimeWindow>& ctx) override { ctx.registerEventTimeTimer(-7); }
  std::string toString() const override { return "ScriptedTrigger()"; }

 private:
  TriggerResult result_;
  bool can_merge_;
};

TEST(PurgingTriggerTest, TurnsFireIntoFireAndPurge) {
  auto trigger = internal::makeTrigger<int, GlobalWindow>(PurgingTrigger::of(CountTrigger::of(2)));
  FakeTriggerContext<GlobalWindow> ctx;
  const GlobalWindow window;
  ctx.useWindow(window);
  EXPECT_EQ(trigger->onElement(1, 0, window, ctx), CONTINUE);
  EXPECT_EQ(trigger->onElement(2, 0, window, ctx), FIRE_AND_PURGE);
  EXPECT_EQ(trigger->onElement(3, 0, window, ctx), CONTINUE);
  EXPECT_EQ(trigger->onElement(4, 0, window, ctx), FIRE_AND_PURGE);
}

TEST(PurgingTriggerTest, PurgesTimerFiringsOfTheInnerTrigger) {
  auto trigger = PurgingTrigger::of(EventTimeTrigger::create()).build<int, TimeWindow>();
  FakeTriggerContext<TimeWindow> ctx;
  const TimeWindow window{0, 1000};
  ctx.useWindow(window);
  EXPECT_EQ(trigger->onElement(1, 10, window, ctx), CONTINUE);
  EXPECT_EQ(ctx.eventTimerTimes(), Times{999});
  EXPECT_EQ(ctx.advanceWatermark(*trigger, 999), (std::vector<FiredTimer>{{999, FIRE_AND_PURGE}}));
  EXPECT_EQ(trigger->onEventTime(1999, window, ctx), CONTINUE);
  // A late element fires at once, and is purged too.
  EXPECT_EQ(trigger->onElement(2, 500, window, ctx), FIRE_AND_PURGE);

  auto processing = PurgingTrigger::of(ProcessingTimeTrigger::create()).build<int, TimeWindow>();
  EXPECT_EQ(processing->onProcessingTime(999, window, ctx), FIRE_AND_PURGE);
}

TEST(PurgingTriggerTest, PassesEverythingButFireThrough) {
  FakeTriggerContext<TimeWindow> ctx;
  const TimeWindow window{0, 1000};
  ctx.useWindow(window);
  for (TriggerResult inner : {CONTINUE, PURGE, FIRE_AND_PURGE}) {
    auto trigger = PurgingTrigger::of(ScriptedTrigger(inner)).build<int, TimeWindow>();
    EXPECT_EQ(trigger->onElement(1, 0, window, ctx), inner);
    EXPECT_EQ(trigger->onEventTime(0, window, ctx), inner);
    EXPECT_EQ(trigger->onProcessingTime(0, window, ctx), inner);
  }
  auto firing = PurgingTrigger::of(ScriptedTrigger(FIRE)).build<int, TimeWindow>();
  EXPECT_EQ(firing->onElement(1, 0, window, ctx), FIRE_AND_PURGE);
  EXPECT_EQ(firing->onEventTime(0, window, ctx), FIRE_AND_PURGE);
  EXPECT_EQ(firing->onProcessingTime(0, window, ctx), FIRE_AND_PURGE);
}

TEST(PurgingTriggerTest, DelegatesClearCanMergeAndOnMerge) {
  FakeTriggerContext<TimeWindow> ctx;
  const TimeWindow window{0, 1000};
  ctx.useWindow(window);

  auto user = PurgingTrigger::of(ScriptedTrigger(CONTINUE, /*can_merge=*/true)).build<int, TimeWindow>();
  EXPECT_TRUE(user->canMerge());
  user->clear(window, ctx);
  user->onMerge(window, ctx);
  EXPECT_EQ(ctx.eventTimerTimes(), (Times{-42, -7}));
  EXPECT_FALSE((PurgingTrigger::of(ScriptedTrigger(CONTINUE)).build<int, TimeWindow>()->canMerge()));
  EXPECT_FALSE((PurgingTrigger::of(NeverTrigger::create()).build<int, GlobalWindow>()->canMerge()));

  // Count state: clear removes it, onMerge sums it.
  auto count = PurgingTrigger::of(CountTrigger::of(3)).build<int, TimeWindow>();
  FakeTriggerContext<TimeWindow> count_ctx;
  const TimeWindow w1{0, 10};
  const TimeWindow w2{5, 15};
  const TimeWindow merged{0, 15};
  count_ctx.useWindow(w1);
  count->onElement(1, 1, w1, count_ctx);
  count_ctx.useWindow(w2);
  count->onElement(2, 6, w2, count_ctx);
  count_ctx.useWindow(merged);
  count_ctx.setMergedWindows({w1, w2});
  count->onMerge(merged, count_ctx);
  EXPECT_EQ(count_ctx.numStateEntries(), 1u);
  count->clear(merged, count_ctx);
  EXPECT_EQ(count_ctx.numStateEntries(), 0u);
}

TEST(PurgingTriggerTest, NestsAndCopies) {
  auto nested = PurgingTrigger::of(PurgingTrigger::of(CountTrigger::of(1))).build<int, GlobalWindow>();
  FakeTriggerContext<GlobalWindow> ctx;
  const GlobalWindow window;
  ctx.useWindow(window);
  EXPECT_EQ(nested->onElement(1, 0, window, ctx), FIRE_AND_PURGE);
  EXPECT_EQ(nested->toString(), "PurgingTrigger(PurgingTrigger(CountTrigger(1)))");

  // A copy (what a subtask gets) is a working trigger of its own.
  using Impl = internal::PurgingTriggerImpl<int, GlobalWindow, CountTrigger>;
  const Impl original(CountTrigger::of(2));
  auto copy = internal::makeTrigger<int, GlobalWindow>(original);
  EXPECT_EQ(copy->toString(), "PurgingTrigger(CountTrigger(2))");
  EXPECT_EQ(copy->onElement(1, 0, window, ctx), CONTINUE);
  EXPECT_EQ(copy->onElement(2, 0, window, ctx), FIRE_AND_PURGE);
}

TEST(PurgingTriggerTest, Names) {
  EXPECT_EQ(PurgingTrigger::of(CountTrigger::of(5)).toString(), "PurgingTrigger(CountTrigger(5))");
  EXPECT_EQ((PurgingTrigger::of(EventTimeTrigger::create()).build<int, TimeWindow>()->toString()),
            "PurgingTrigger(EventTimeTrigger())");
  EXPECT_EQ((PurgingTrigger::of(ScriptedTrigger(FIRE)).build<int, TimeWindow>()->toString()),
            "PurgingTrigger(ScriptedTrigger())");
  EXPECT_EQ(PurgingTrigger::of(CountTrigger::of(5)).getNestedTrigger(), CountTrigger::of(5));
}

// ---------------------------------------------------------------- ContinuousEventTimeTrigger

class ContinuousEventTimeTriggerTest : public ::testing::Test {
 protected:
  std::unique_ptr<Trigger<int, TimeWindow>> trigger = ContinuousEventTimeTrigger::of(1000).build<int, TimeWindow>();
  FakeTriggerContext<TimeWindow> ctx;
  TimeWindow window{0, 10000};
};

TEST_F(ContinuousEventTimeTriggerTest, FirstElementRegistersTheNextIntervalAndTheWindowEnd) {
  ctx.useWindow(window);
  EXPECT_EQ(trigger->onElement(1, 2500, window, ctx), CONTINUE);
  EXPECT_EQ(ctx.eventTimerTimes(), (Times{3000, 9999}));
  EXPECT_EQ(ctx.numStateEntries("fire-time"), 1u);

  // A fire time is stored: later elements add nothing.
  EXPECT_EQ(trigger->onElement(2, 4700, window, ctx), CONTINUE);
  EXPECT_EQ(ctx.eventTimerTimes(), (Times{3000, 9999}));
  EXPECT_TRUE(ctx.processingTimers().empty());
}

TEST_F(ContinuousEventTimeTriggerTest, FiresEveryIntervalAndAtTheWindowEnd) {
  ctx.useWindow(window);
  trigger->onElement(1, 2500, window, ctx);
  EXPECT_EQ(ctx.advanceWatermark(*trigger, 2999), std::vector<FiredTimer>{});
  EXPECT_EQ(ctx.advanceWatermark(*trigger, 3000), (std::vector<FiredTimer>{{3000, FIRE}}));
  EXPECT_EQ(ctx.eventTimerTimes(), (Times{4000, 9999}));

  // The fire at 9000 clamps the next one to maxTimestamp, which is already
  // registered: the window end fires once.
  EXPECT_EQ(ctx.advanceWatermark(*trigger, 9999),
            (std::vector<FiredTimer>{
                {4000, FIRE}, {5000, FIRE}, {6000, FIRE}, {7000, FIRE}, {8000, FIRE}, {9000, FIRE}, {9999, FIRE}}));
  EXPECT_TRUE(ctx.eventTimers().empty());
  EXPECT_EQ(ctx.numStateEntries("fire-time"), 1u);

  trigger->clear(window, ctx);
  EXPECT_EQ(ctx.numStateEntries(), 0u);
  EXPECT_TRUE(ctx.eventTimers().empty());
}

TEST_F(ContinuousEventTimeTriggerTest, IgnoresTimersItDidNotStore) {
  ctx.useWindow(window);
  trigger->onElement(1, 2500, window, ctx);
  EXPECT_EQ(trigger->onEventTime(2000, window, ctx), CONTINUE);
  EXPECT_EQ(trigger->onEventTime(10999, window, ctx), CONTINUE);
  EXPECT_EQ(trigger->onProcessingTime(3000, window, ctx), CONTINUE);
  EXPECT_EQ(ctx.eventTimerTimes(), (Times{3000, 9999}));
}

TEST_F(ContinuousEventTimeTriggerTest, LateElementFiresAtOnceWithoutTimers) {
  ctx.useWindow(window);
  ctx.setCurrentWatermark(9999);
  EXPECT_EQ(trigger->onElement(1, 5000, window, ctx), FIRE);
  EXPECT_TRUE(ctx.eventTimers().empty());
  EXPECT_EQ(ctx.numStateEntries(), 0u);
}

TEST_F(ContinuousEventTimeTriggerTest, TruncatingRemainderForNegativeTimestamps) {
  const TimeWindow negative{-10000, 0};
  ctx.useWindow(negative);
  // -2500 % 1000 == -500 (toward zero), so start = -2000 and the first fire is
  // at -1000, not at -2000 as a floor would give.
  trigger->onElement(1, -2500, negative, ctx);
  EXPECT_EQ(ctx.eventTimerTimes(), (Times{-1000, -1}));
}

TEST_F(ContinuousEventTimeTriggerTest, NextFireIsClampedToTheWindowEnd) {
  const TimeWindow short_window{0, 2500};
  ctx.useWindow(short_window);
  trigger->onElement(1, 2100, short_window, ctx);
  EXPECT_EQ(ctx.eventTimerTimes(), Times{2499});
  EXPECT_EQ(ctx.advanceWatermark(*trigger, 2499), (std::vector<FiredTimer>{{2499, FIRE}}));
}

TEST_F(ContinuousEventTimeTriggerTest, OnMergeKeepsTheEarliestFireTime) {
  EXPECT_TRUE(trigger->canMerge());
  const TimeWindow w1{0, 4000};
  const TimeWindow w2{3000, 7000};
  const TimeWindow merged{0, 7000};
  ctx.useWindow(w2);
  trigger->onElement(1, 3500, w2, ctx);  // fire time 4000
  ctx.useWindow(w1);
  trigger->onElement(2, 2500, w1, ctx);  // fire time 3000
  EXPECT_EQ(ctx.numStateEntries("fire-time"), 2u);

  ctx.useWindow(merged);
  ctx.setMergedWindows({w1, w2});
  trigger->onMerge(merged, ctx);
  EXPECT_EQ(ctx.numStateEntries("fire-time"), 1u);
  EXPECT_EQ(ctx.eventTimerTimes(), Times{3000});
  EXPECT_EQ(trigger->onEventTime(3000, merged, ctx), FIRE);
  EXPECT_EQ(ctx.eventTimerTimes(), (Times{3000, 4000}));

  trigger->clear(merged, ctx);
  EXPECT_EQ(ctx.numStateEntries(), 0u);
  EXPECT_EQ(ctx.eventTimerTimes(), Times{3000});
}

TEST_F(ContinuousEventTimeTriggerTest, WorksWithGlobalWindows) {
  auto global = ContinuousEventTimeTrigger::of(std::chrono::seconds(1)).build<int, GlobalWindow>();
  FakeTriggerContext<GlobalWindow> global_ctx;
  const GlobalWindow window_of_all;
  global_ctx.useWindow(window_of_all);
  global->onElement(1, 1500, window_of_all, global_ctx);
  EXPECT_EQ(global_ctx.eventTimerTimes(), (Times{2000, kMaxWatermark}));
  EXPECT_EQ(global_ctx.advanceWatermark(*global, 4000),
            (std::vector<FiredTimer>{{2000, FIRE}, {3000, FIRE}, {4000, FIRE}}));
  EXPECT_EQ(global_ctx.eventTimerTimes(), (Times{5000, kMaxWatermark}));
}

TEST_F(ContinuousEventTimeTriggerTest, ValidationAndNames) {
  EXPECT_THAT(thrownInvalidArgument([] { ContinuousEventTimeTrigger::of(0); }),
              HasSubstr("ContinuousEventTimeTrigger: interval must be > 0, got 0 ms"));
  EXPECT_THAT(thrownInvalidArgument([] { ContinuousEventTimeTrigger::of(-5); }), HasSubstr("got -5 ms"));
  EXPECT_EQ(ContinuousEventTimeTrigger::of(std::chrono::minutes(5)).getInterval(), 300000);
  EXPECT_EQ(ContinuousEventTimeTrigger::of(1000).toString(), "ContinuousEventTimeTrigger(1000)");
  EXPECT_EQ(trigger->toString(), "ContinuousEventTimeTrigger(1000)");
}

// ---------------------------------------------------------------- ContinuousProcessingTimeTrigger

class ContinuousProcessingTimeTriggerTest : public ::testing::Test {
 protected:
  std::unique_ptr<Trigger<int, GlobalWindow>> trigger =
      ContinuousProcessingTimeTrigger::of(1000).build<int, GlobalWindow>();
  FakeTriggerContext<GlobalWindow> ctx;
  GlobalWindow window;
};

TEST_F(ContinuousProcessingTimeTriggerTest, FirstElementRegistersTheNextMultipleOfTheInterval) {
  ctx.useWindow(window);
  ctx.setCurrentProcessingTime(2500);
  // The element's event timestamp plays no part.
  EXPECT_EQ(trigger->onElement(1, 99999, window, ctx), CONTINUE);
  EXPECT_EQ(ctx.processingTimerTimes(), Times{3000});
  EXPECT_EQ(ctx.numStateEntries("fire-time"), 1u);
  ctx.setCurrentProcessingTime(2700);
  EXPECT_EQ(trigger->onElement(2, 0, window, ctx), CONTINUE);
  EXPECT_EQ(ctx.processingTimerTimes(), Times{3000});
  EXPECT_TRUE(ctx.eventTimers().empty());
}

TEST_F(ContinuousProcessingTimeTriggerTest, FiresAndReRegistersEveryInterval) {
  ctx.useWindow(window);
  ctx.setCurrentProcessingTime(2500);
  trigger->onElement(1, 0, window, ctx);
  EXPECT_EQ(ctx.advanceProcessingTime(*trigger, 2999), std::vector<FiredTimer>{});
  EXPECT_EQ(ctx.advanceProcessingTime(*trigger, 3000), (std::vector<FiredTimer>{{3000, FIRE}}));
  EXPECT_EQ(ctx.processingTimerTimes(), Times{4000});
  EXPECT_EQ(ctx.advanceProcessingTime(*trigger, 5500), (std::vector<FiredTimer>{{4000, FIRE}, {5000, FIRE}}));
  EXPECT_EQ(ctx.processingTimerTimes(), Times{6000});
  EXPECT_EQ(trigger->onEventTime(6000, window, ctx), CONTINUE);
  // A processing timer that is not the stored fire time does nothing.
  EXPECT_EQ(trigger->onProcessingTime(5800, window, ctx), CONTINUE);
}

TEST_F(ContinuousProcessingTimeTriggerTest, LastFireOfATimeWindowIsClampedToItsEnd) {
  auto timed = ContinuousProcessingTimeTrigger::of(1000).build<int, TimeWindow>();
  FakeTriggerContext<TimeWindow> timed_ctx;
  const TimeWindow time_window{0, 2500};
  timed_ctx.useWindow(time_window);
  timed_ctx.setCurrentProcessingTime(500);
  timed->onElement(1, 0, time_window, timed_ctx);
  EXPECT_EQ(timed_ctx.processingTimerTimes(), Times{1000});
  EXPECT_EQ(timed_ctx.advanceProcessingTime(*timed, 2000), (std::vector<FiredTimer>{{1000, FIRE}, {2000, FIRE}}));
  EXPECT_EQ(timed_ctx.processingTimerTimes(), Times{2499});
  // At the end it fires and, as in Flink, registers maxTimestamp again; the
  // window operator's cleanup at maxTimestamp calls clear(), which deletes it.
  EXPECT_EQ(timed->onProcessingTime(2499, time_window, timed_ctx), FIRE);
  EXPECT_EQ(timed_ctx.processingTimerTimes(), Times{2499});
  timed->clear(time_window, timed_ctx);
  EXPECT_TRUE(timed_ctx.processingTimers().empty());
  EXPECT_EQ(timed_ctx.numStateEntries(), 0u);
}

TEST_F(ContinuousProcessingTimeTriggerTest, ClearDeletesTimerAndState) {
  ctx.useWindow(window);
  ctx.setCurrentProcessingTime(2500);
  trigger->onElement(1, 0, window, ctx);
  trigger->clear(window, ctx);
  EXPECT_TRUE(ctx.processingTimers().empty());
  EXPECT_EQ(ctx.numStateEntries(), 0u);
  // Clearing a window that holds nothing is a no-op.
  trigger->clear(window, ctx);
  EXPECT_EQ(ctx.numStateEntries(), 0u);
}

TEST_F(ContinuousProcessingTimeTriggerTest, OnMergeKeepsTheEarliestFireTime) {
  auto timed = ContinuousProcessingTimeTrigger::of(1000).build<int, TimeWindow>();
  EXPECT_TRUE(timed->canMerge());
  FakeTriggerContext<TimeWindow> timed_ctx;
  const TimeWindow w1{0, 10000};
  const TimeWindow w2{5000, 15000};
  const TimeWindow merged{0, 15000};
  timed_ctx.useWindow(w1);
  timed_ctx.setCurrentProcessingTime(3200);
  timed->onElement(1, 0, w1, timed_ctx);  // fire time 4000
  timed_ctx.useWindow(w2);
  timed_ctx.setCurrentProcessingTime(5100);
  timed->onElement(2, 0, w2, timed_ctx);  // fire time 6000

  timed_ctx.useWindow(merged);
  timed_ctx.setMergedWindows({w1, w2});
  timed->onMerge(merged, timed_ctx);
  EXPECT_EQ(timed_ctx.processingTimerTimes(), Times{4000});
  EXPECT_EQ(timed_ctx.numStateEntries("fire-time"), 1u);
  EXPECT_EQ(timed->onProcessingTime(4000, merged, timed_ctx), FIRE);
  EXPECT_EQ(timed_ctx.processingTimerTimes(), (Times{4000, 5000}));
}

TEST_F(ContinuousProcessingTimeTriggerTest, ValidationAndNames) {
  EXPECT_THAT(thrownInvalidArgument([] { ContinuousProcessingTimeTrigger::of(0); }),
              HasSubstr("ContinuousProcessingTimeTrigger: interval must be > 0, got 0 ms"));
  EXPECT_EQ(ContinuousProcessingTimeTrigger::of(std::chrono::seconds(10)).getInterval(), 10000);
  EXPECT_EQ(ContinuousProcessingTimeTrigger::of(1000).toString(), "ContinuousProcessingTimeTrigger(1000)");
  EXPECT_EQ(trigger->toString(), "ContinuousProcessingTimeTrigger(1000)");
}

// ---------------------------------------------------------------- NeverTrigger

TEST(NeverTriggerTest, NeverFiresAndKeepsNothing) {
  auto trigger = NeverTrigger::create().build<int, GlobalWindow>();
  FakeTriggerContext<GlobalWindow> ctx;
  const GlobalWindow window;
  ctx.useWindow(window);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(trigger->onElement(i, i, window, ctx), CONTINUE);
  EXPECT_EQ(trigger->onEventTime(kMaxWatermark, window, ctx), CONTINUE);
  EXPECT_EQ(trigger->onProcessingTime(kMaxWatermark, window, ctx), CONTINUE);
  trigger->clear(window, ctx);
  trigger->onMerge(window, ctx);
  EXPECT_FALSE(trigger->canMerge());
  EXPECT_TRUE(ctx.eventTimers().empty());
  EXPECT_TRUE(ctx.processingTimers().empty());
  EXPECT_EQ(ctx.numStateEntries(), 0u);
  EXPECT_EQ(trigger->toString(), "NeverTrigger()");
}

}  // namespace
}  // namespace tidemark
