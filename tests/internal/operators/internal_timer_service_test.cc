#include "tidemark/internal/operators/internal_timer_service.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/core/time.h"
#include "tidemark/internal/time/manual_processing_time_service.h"

namespace tidemark::internal {
namespace {

using Key = std::int64_t;
using Ns = int;
using Entry = TimerEntry<Key, Ns>;
using Service = InternalTimerService<Key, Ns>;

// Records every firing as "E|P key/ns@ts wm=<watermark>" and runs optional
// hooks so tests can register timers from inside a firing.
class RecordingTarget : public TimerTarget<Key, Ns> {
 public:
  void onEventTime(const Entry& timer) override {
    log.push_back("E " + describe(timer) + " wm=" + std::to_string(service->currentWatermark()));
    if (on_event) on_event(timer);
  }
  void onProcessingTime(const Entry& timer) override {
    log.push_back("P " + describe(timer) + " now=" + std::to_string(service->currentProcessingTime()));
    if (on_processing) on_processing(timer);
  }

  static std::string describe(const Entry& timer) {
    return std::to_string(timer.key) + "/" + std::to_string(timer.ns) + "@" +
           std::to_string(timer.timestamp);
  }

  std::vector<std::string> take() { return std::exchange(log, {}); }

  Service* service = nullptr;
  std::vector<std::string> log;
  std::function<void(const Entry&)> on_event;
  std::function<void(const Entry&)> on_processing;
};

class InternalTimerServiceTest : public ::testing::Test {
 protected:
  InternalTimerServiceTest() { target_.service = &service_; }

  ManualProcessingTimeService clock_{0};
  RecordingTarget target_;
  Service service_{clock_, target_};
};

using Log = std::vector<std::string>;

TEST_F(InternalTimerServiceTest, InitialState) {
  EXPECT_EQ(service_.currentWatermark(), kMinWatermark);
  EXPECT_EQ(service_.currentProcessingTime(), 0);
  EXPECT_EQ(service_.numEventTimeTimers(), 0u);
  EXPECT_EQ(service_.numProcessingTimeTimers(), 0u);
  clock_.setCurrentTime(42);
  EXPECT_EQ(service_.currentProcessingTime(), 42);
}

TEST_F(InternalTimerServiceTest, EventTimersFireInTimestampThenRegistrationOrder) {
  service_.registerEventTimeTimer(2, 0, 20);
  service_.registerEventTimeTimer(1, 0, 10);
  service_.registerEventTimeTimer(3, 0, 20);
  service_.registerEventTimeTimer(0, 0, 10);
  service_.registerEventTimeTimer(5, 0, 30);
  service_.advanceWatermark(9);
  EXPECT_EQ(target_.take(), Log{});
  service_.advanceWatermark(20);
  EXPECT_EQ(target_.take(), (Log{"E 1/0@10 wm=20", "E 0/0@10 wm=20", "E 2/0@20 wm=20",
                                 "E 3/0@20 wm=20"}));
  EXPECT_EQ(service_.currentWatermark(), 20);
  EXPECT_EQ(service_.numEventTimeTimers(), 1u);
}

TEST_F(InternalTimerServiceTest, SameEventTimerTwiceFiresOnce) {
  service_.registerEventTimeTimer(1, 0, 10);
  service_.registerEventTimeTimer(1, 0, 10);
  EXPECT_EQ(service_.numEventTimeTimers(), 1u);
  service_.advanceWatermark(10);
  EXPECT_EQ(target_.take(), (Log{"E 1/0@10 wm=10"}));
}

TEST_F(InternalTimerServiceTest, DeletedEventTimerDoesNotFireAndDeletingAbsentIsNoOp) {
  service_.registerEventTimeTimer(1, 0, 10);
  service_.registerEventTimeTimer(2, 0, 10);
  service_.deleteEventTimeTimer(1, 0, 10);
  service_.deleteEventTimeTimer(1, 0, 10);
  service_.deleteEventTimeTimer(7, 0, 99);
  EXPECT_EQ(service_.numEventTimeTimers(), 1u);
  service_.advanceWatermark(100);
  EXPECT_EQ(target_.take(), (Log{"E 2/0@10 wm=100"}));
}

TEST_F(InternalTimerServiceTest, DeleteThenRegisterAgainMovesBehindOthers) {
  service_.registerEventTimeTimer(1, 0, 10);
  service_.registerEventTimeTimer(2, 0, 10);
  service_.deleteEventTimeTimer(1, 0, 10);
  service_.registerEventTimeTimer(1, 0, 10);
  service_.advanceWatermark(10);
  EXPECT_EQ(target_.take(), (Log{"E 2/0@10 wm=10", "E 1/0@10 wm=10"}));
}

TEST_F(InternalTimerServiceTest, TimerAtOrBeforeWatermarkWaitsForNextAdvance) {
  service_.advanceWatermark(100);
  service_.registerEventTimeTimer(1, 0, 50);
  service_.registerEventTimeTimer(2, 0, 100);
  EXPECT_EQ(target_.take(), Log{});
  EXPECT_EQ(service_.numEventTimeTimers(), 2u);
  service_.advanceWatermark(101);
  EXPECT_EQ(target_.take(), (Log{"E 1/0@50 wm=101", "E 2/0@100 wm=101"}));
}

TEST_F(InternalTimerServiceTest, TimerRegisteredInsideOnEventTimeAtOrBeforeWatermarkFiresSameAdvance) {
  service_.registerEventTimeTimer(1, 0, 10);
  target_.on_event = [&](const Entry& timer) {
    if (timer.key == 1) {
      service_.registerEventTimeTimer(2, 0, 30);  // == w: fires now.
      service_.registerEventTimeTimer(3, 0, 5);   // < w: fires now.
      service_.registerEventTimeTimer(4, 0, 31);  // > w: waits.
    }
  };
  service_.advanceWatermark(30);
  EXPECT_EQ(target_.take(), (Log{"E 1/0@10 wm=30", "E 3/0@5 wm=30", "E 2/0@30 wm=30"}));
  EXPECT_EQ(service_.numEventTimeTimers(), 1u);
  service_.advanceWatermark(31);
  EXPECT_EQ(target_.take(), (Log{"E 4/0@31 wm=31"}));
}

TEST_F(InternalTimerServiceTest, TimerReRegisteredInsideItsOwnFiringFiresAgain) {
  int rounds = 0;
  service_.registerEventTimeTimer(1, 0, 10);
  target_.on_event = [&](const Entry& timer) {
    if (++rounds < 3) service_.registerEventTimeTimer(timer.key, timer.ns, timer.timestamp);
  };
  service_.advanceWatermark(10);
  EXPECT_EQ(target_.take(), (Log{"E 1/0@10 wm=10", "E 1/0@10 wm=10", "E 1/0@10 wm=10"}));
}

TEST_F(InternalTimerServiceTest, ExtremeAndNegativeEventTimes) {
  service_.registerEventTimeTimer(1, 0, kMaxWatermark);
  service_.registerEventTimeTimer(2, 0, -7);
  service_.registerEventTimeTimer(3, 0, kMinWatermark);
  service_.advanceWatermark(kMinWatermark);
  const std::string min = std::to_string(kMinWatermark);
  const std::string max = std::to_string(kMaxWatermark);
  EXPECT_EQ(target_.take(), (Log{"E 3/0@" + min + " wm=" + min}));
  service_.advanceWatermark(-8);
  EXPECT_EQ(target_.take(), Log{});
  service_.advanceWatermark(-7);
  EXPECT_EQ(target_.take(), (Log{"E 2/0@-7 wm=-7"}));
  service_.advanceWatermark(kMaxWatermark - 1);
  EXPECT_EQ(target_.take(), Log{});
  service_.advanceWatermark(kMaxWatermark);
  EXPECT_EQ(target_.take(), (Log{"E 1/0@" + max + " wm=" + max}));
}

TEST_F(InternalTimerServiceTest, NamespacesAreSeparateTimers) {
  service_.registerEventTimeTimer(1, 0, 10);
  service_.registerEventTimeTimer(1, 1, 10);
  service_.deleteEventTimeTimer(1, 0, 10);
  EXPECT_EQ(service_.numEventTimeTimers(), 1u);
  service_.advanceWatermark(10);
  EXPECT_EQ(target_.take(), (Log{"E 1/1@10 wm=10"}));
}

TEST_F(InternalTimerServiceTest, EventAndProcessingTimeAreSeparateQueues) {
  service_.registerEventTimeTimer(1, 0, 10);
  service_.registerProcessingTimeTimer(1, 0, 10);
  EXPECT_EQ(service_.numEventTimeTimers(), 1u);
  EXPECT_EQ(service_.numProcessingTimeTimers(), 1u);
  service_.deleteProcessingTimeTimer(1, 0, 10);
  service_.advanceWatermark(10);
  clock_.setCurrentTime(10);
  EXPECT_EQ(target_.take(), (Log{"E 1/0@10 wm=10"}));
}

TEST_F(InternalTimerServiceTest, ProcessingTimersFireWhenClockReachesThem) {
  service_.registerProcessingTimeTimer(2, 0, 20);
  service_.registerProcessingTimeTimer(1, 0, 10);
  service_.registerProcessingTimeTimer(3, 0, 10);
  service_.registerProcessingTimeTimer(3, 0, 10);
  EXPECT_EQ(service_.numProcessingTimeTimers(), 3u);
  clock_.setCurrentTime(9);
  EXPECT_EQ(target_.take(), Log{});
  clock_.setCurrentTime(15);
  EXPECT_EQ(target_.take(), (Log{"P 1/0@10 now=15", "P 3/0@10 now=15"}));
  EXPECT_EQ(service_.numProcessingTimeTimers(), 1u);
  clock_.setCurrentTime(20);
  EXPECT_EQ(target_.take(), (Log{"P 2/0@20 now=20"}));
  EXPECT_EQ(service_.numProcessingTimeTimers(), 0u);
  EXPECT_EQ(clock_.numPendingCallbacks(), 0u);
}

TEST_F(InternalTimerServiceTest, OnlyANewEarliestTimerRequestsAWakeUp) {
  service_.registerProcessingTimeTimer(1, 0, 30);
  EXPECT_EQ(clock_.numPendingCallbacks(), 1u);
  service_.registerProcessingTimeTimer(2, 0, 40);
  service_.registerProcessingTimeTimer(3, 0, 30);
  EXPECT_EQ(clock_.numPendingCallbacks(), 1u);
  service_.registerProcessingTimeTimer(4, 0, 20);
  EXPECT_EQ(clock_.numPendingCallbacks(), 2u);
  // The wake-up at 20 fires the timer at 20, and the one still pending at 30
  // already covers the new head, so no request is added.
  clock_.setCurrentTime(25);
  EXPECT_EQ(target_.take(), (Log{"P 4/0@20 now=25"}));
  EXPECT_EQ(clock_.numPendingCallbacks(), 1u);
  clock_.setCurrentTime(100);
  EXPECT_EQ(target_.take(), (Log{"P 1/0@30 now=100", "P 3/0@30 now=100", "P 2/0@40 now=100"}));
}

TEST_F(InternalTimerServiceTest, DeletedProcessingTimerDoesNotFireAndStaleWakeUpIsHarmless) {
  service_.registerProcessingTimeTimer(1, 0, 10);
  service_.deleteProcessingTimeTimer(1, 0, 10);
  service_.deleteProcessingTimeTimer(1, 0, 10);
  service_.registerProcessingTimeTimer(2, 0, 50);
  EXPECT_EQ(service_.numProcessingTimeTimers(), 1u);
  clock_.setCurrentTime(10);
  EXPECT_EQ(target_.take(), Log{});
  // The stale wake-up re-armed for the remaining timer.
  EXPECT_EQ(clock_.numPendingCallbacks(), 1u);
  clock_.setCurrentTime(49);
  EXPECT_EQ(target_.take(), Log{});
  clock_.setCurrentTime(50);
  EXPECT_EQ(target_.take(), (Log{"P 2/0@50 now=50"}));
}

TEST_F(InternalTimerServiceTest, ProcessingTimerRegisteredInsideCallback) {
  clock_.setCurrentTime(100);
  service_.registerProcessingTimeTimer(1, 0, 110);
  target_.on_processing = [&](const Entry& timer) {
    if (timer.key == 1) {
      service_.registerProcessingTimeTimer(2, 0, 105);  // Already due: same loop.
      service_.registerProcessingTimeTimer(3, 0, 130);  // Later: its own wake-up.
    }
  };
  clock_.setCurrentTime(120);
  EXPECT_EQ(target_.take(), (Log{"P 1/0@110 now=120", "P 2/0@105 now=120"}));
  EXPECT_EQ(service_.numProcessingTimeTimers(), 1u);
  EXPECT_EQ(clock_.numPendingCallbacks(), 1u);
  clock_.setCurrentTime(129);
  EXPECT_EQ(target_.take(), Log{});
  clock_.setCurrentTime(130);
  EXPECT_EQ(target_.take(), (Log{"P 3/0@130 now=130"}));
}

TEST_F(InternalTimerServiceTest, ProcessingTimerAlreadyDueFiresOnNextClockRun) {
  clock_.setCurrentTime(100);
  service_.registerProcessingTimeTimer(1, 0, 90);
  EXPECT_EQ(target_.take(), Log{});
  clock_.setCurrentTime(100);
  EXPECT_EQ(target_.take(), (Log{"P 1/0@90 now=100"}));
}

TEST_F(InternalTimerServiceTest, ForEachVisitsPendingTimersInFiringOrder) {
  service_.registerEventTimeTimer(2, 0, 20);
  service_.registerEventTimeTimer(1, 1, 10);
  service_.registerEventTimeTimer(3, 0, 20);
  service_.registerProcessingTimeTimer(9, 0, 5);
  Log event, processing;
  service_.forEachEventTimeTimer([&](const Key& k, const Ns& ns, Timestamp t) {
    event.push_back(RecordingTarget::describe(Entry{k, ns, t}));
  });
  service_.forEachProcessingTimeTimer([&](const Key& k, const Ns& ns, Timestamp t) {
    processing.push_back(RecordingTarget::describe(Entry{k, ns, t}));
  });
  EXPECT_EQ(event, (Log{"1/1@10", "2/0@20", "3/0@20"}));
  EXPECT_EQ(processing, (Log{"9/0@5"}));
}

TEST(InternalTimerServiceLifetimeTest, WakeUpAfterServiceIsGoneIsIgnored) {
  ManualProcessingTimeService clock(0);
  RecordingTarget target;
  {
    Service service(clock, target);
    target.service = &service;
    service.registerProcessingTimeTimer(1, 0, 10);
  }
  EXPECT_EQ(clock.numPendingCallbacks(), 1u);
  clock.setCurrentTime(10);
  EXPECT_EQ(target.log, Log{});
}

TEST(ManualTimerClockTest, RunsDueCallbacksInTimeThenRegistrationOrder) {
  ManualProcessingTimeService clock(5);
  EXPECT_EQ(clock.currentProcessingTime(), 5);
  Log log;
  auto record = [&](const std::string& name) {
    return [&log, name](Timestamp t) { log.push_back(name + "@" + std::to_string(t)); };
  };
  clock.registerTimer(20, record("a"));
  clock.registerTimer(10, record("b"));
  clock.registerTimer(20, record("c"));
  clock.registerTimer(30, record("d"));
  EXPECT_EQ(clock.numPendingCallbacks(), 4u);
  clock.setCurrentTime(20);
  EXPECT_EQ(log, (Log{"b@10", "a@20", "c@20"}));
  EXPECT_EQ(clock.numPendingCallbacks(), 1u);
}

TEST(ManualTimerClockTest, CallbacksRegisteredWhileRunningRunIfDue) {
  ManualProcessingTimeService clock(0);
  Log log;
  clock.registerTimer(10, [&](Timestamp t) {
    log.push_back("first@" + std::to_string(t) + " now=" + std::to_string(clock.currentProcessingTime()));
    clock.registerTimer(12, [&](Timestamp u) { log.push_back("due@" + std::to_string(u)); });
    clock.registerTimer(16, [&](Timestamp u) { log.push_back("later@" + std::to_string(u)); });
  });
  clock.setCurrentTime(15);
  EXPECT_EQ(log, (Log{"first@10 now=15", "due@12"}));
  EXPECT_EQ(clock.numPendingCallbacks(), 1u);
  clock.setCurrentTime(16);
  EXPECT_EQ(log, (Log{"first@10 now=15", "due@12", "later@16"}));
}

TEST(ManualTimerClockTest, GoingBackwardsThrows) {
  ManualProcessingTimeService clock(100);
  EXPECT_THROW(clock.setCurrentTime(99), std::invalid_argument);
  EXPECT_EQ(clock.currentProcessingTime(), 100);
  EXPECT_NO_THROW(clock.setCurrentTime(100));
}

TEST(ManualTimerClockTest, SettingTimeFromACallbackThrows) {
  ManualProcessingTimeService clock(0);
  bool threw = false;
  clock.registerTimer(1, [&](Timestamp) {
    try {
      clock.setCurrentTime(2);
    } catch (const std::logic_error&) {
      threw = true;
    }
  });
  clock.setCurrentTime(1);
  EXPECT_TRUE(threw);
  EXPECT_NO_THROW(clock.setCurrentTime(2));
}

}  // namespace
}  // namespace tidemark::internal
