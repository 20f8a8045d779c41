// The built-in window assigners: window bounds (offsets, negative
// timestamps), sliding order and count, session merging, argument checks.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tidemark/windowing/event_time_session_windows.h"
#include "tidemark/windowing/global_window.h"
#include "tidemark/windowing/global_windows.h"
#include "tidemark/windowing/processing_time_session_windows.h"
#include "tidemark/windowing/sliding_event_time_windows.h"
#include "tidemark/windowing/sliding_processing_time_windows.h"
#include "tidemark/windowing/time_window.h"
#include "tidemark/windowing/tumbling_event_time_windows.h"
#include "tidemark/windowing/tumbling_processing_time_windows.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark {
namespace {

using ::testing::HasSubstr;
using Windows = std::vector<TimeWindow>;

struct Click {
  std::string user;
  Duration gap = 0;
};

// Every factory result is a specification for any element type.
static_assert(AssignerSpec<TumblingEventTimeWindows, int>);
static_assert(AssignerSpec<SlidingEventTimeWindows, std::string>);
static_assert(AssignerSpec<EventTimeSessionWindows, int>);
static_assert(AssignerSpec<TumblingProcessingTimeWindows, int>);
static_assert(AssignerSpec<SlidingProcessingTimeWindows, int>);
static_assert(AssignerSpec<ProcessingTimeSessionWindows, int>);
static_assert(AssignerSpec<GlobalWindows, int>);
static_assert(std::is_same_v<GlobalWindows::WindowType, GlobalWindow>);

class FakeAssignerContext final : public WindowAssignerContext {
 public:
  explicit FakeAssignerContext(Timestamp now = 0) : now_(now) {}
  Timestamp getCurrentProcessingTime() const override { return now_; }
  void setCurrentProcessingTime(Timestamp now) { now_ = now; }

 private:
  Timestamp now_;
};

template <class T, class W>
std::vector<W> assign(WindowAssigner<T, W>& assigner, const T& element, Timestamp timestamp, Timestamp now = 0) {
  FakeAssignerContext ctx(now);
  std::vector<W> windows;
  assigner.assignWindows(element, timestamp, ctx, windows);
  return windows;
}

/// One merge mergeWindows() reported.
struct Merge {
  Windows merged;
  TimeWindow result;

  friend bool operator==(const Merge&, const Merge&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Merge& m) {
    os << "{merged=[";
    for (const TimeWindow& w : m.merged) os << w << ' ';
    return os << "], result=" << m.result << '}';
  }
};
using Merges = std::vector<Merge>;

class RecordingMergeCallback final : public MergeCallback<TimeWindow> {
 public:
  void merge(const std::vector<TimeWindow>& to_be_merged, const TimeWindow& merge_result) override {
    merges.push_back(Merge{to_be_merged, merge_result});
  }
  Merges merges;
};

Merges mergesOf(WindowAssigner<int, TimeWindow>& assigner, const Windows& windows) {
  auto* merging = dynamic_cast<MergingWindowAssigner<int, TimeWindow>*>(&assigner);
  if (merging == nullptr) {
    ADD_FAILURE() << assigner.toString() << " is not a MergingWindowAssigner";
    return {};
  }
  RecordingMergeCallback callback;
  merging->mergeWindows(windows, callback);
  return callback.merges;
}

template <class F>
std::string thrownInvalidArgument(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::invalid_argument thrown";
  return "";
}

template <class F>
std::string thrownRuntimeError(F f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::runtime_error thrown";
  return "";
}

// ---------------------------------------------------------------- TumblingEventTimeWindows

TEST(TumblingEventTimeWindowsTest, WindowBoundsIncludingNegativeTimestamps) {
  auto assigner = internal::makeAssigner<int>(TumblingEventTimeWindows::of(10000));
  EXPECT_EQ(assign(*assigner, 1, 0), (Windows{{0, 10000}}));
  EXPECT_EQ(assign(*assigner, 1, 9999), (Windows{{0, 10000}}));
  EXPECT_EQ(assign(*assigner, 1, 10000), (Windows{{10000, 20000}}));
  EXPECT_EQ(assign(*assigner, 1, -1), (Windows{{-10000, 0}}));
  EXPECT_EQ(assign(*assigner, 1, -10000), (Windows{{-10000, 0}}));
  EXPECT_EQ(assign(*assigner, 1, -10001), (Windows{{-20000, -10000}}));
  EXPECT_EQ(assign(*assigner, 1, -1'000'000'000'000'001),
            (Windows{{-1'000'000'000'010'000, -1'000'000'000'000'000}}));
}

TEST(TumblingEventTimeWindowsTest, Offsets) {
  auto positive = TumblingEventTimeWindows::of(10000, 2000).build<int>();
  EXPECT_EQ(assign(*positive, 1, 1999), (Windows{{-8000, 2000}}));
  EXPECT_EQ(assign(*positive, 1, 2000), (Windows{{2000, 12000}}));
  EXPECT_EQ(assign(*positive, 1, 11999), (Windows{{2000, 12000}}));

  auto negative = TumblingEventTimeWindows::of(10000, -3000).build<int>();
  EXPECT_EQ(assign(*negative, 1, 0), (Windows{{-3000, 7000}}));
  EXPECT_EQ(assign(*negative, 1, -3000), (Windows{{-3000, 7000}}));
  EXPECT_EQ(assign(*negative, 1, -3001), (Windows{{-13000, -3000}}));

  // ts < offset - size: the old Flink formula gave [-5000, 5000), which does not contain -6000.
  auto far = TumblingEventTimeWindows::of(10000, 5000).build<int>();
  EXPECT_EQ(assign(*far, 1, -6000), (Windows{{-15000, -5000}}));
}

TEST(TumblingEventTimeWindowsTest, AppendsToTheOperatorsVector) {
  auto assigner = TumblingEventTimeWindows::of(1000).build<int>();
  FakeAssignerContext ctx;
  Windows windows{{-5, 5}};
  assigner->assignWindows(1, 1500, ctx, windows);
  EXPECT_EQ(windows, (Windows{{-5, 5}, {1000, 2000}}));
}

TEST(TumblingEventTimeWindowsTest, SpecAndChronoDurations) {
  const TumblingEventTimeWindows spec = TumblingEventTimeWindows::of(std::chrono::hours(1), std::chrono::minutes(15));
  EXPECT_EQ(spec.getSize(), 3600000);
  EXPECT_EQ(spec.getOffset(), 900000);
  EXPECT_EQ(TumblingEventTimeWindows::of(std::chrono::seconds(10)), TumblingEventTimeWindows::of(10000));
  EXPECT_EQ(TumblingEventTimeWindows::of(10000).getOffset(), 0);
  EXPECT_TRUE(spec.isEventTime());
  EXPECT_EQ(TumblingEventTimeWindows::of(10000).toString(), "TumblingEventTimeWindows(10000)");
}

TEST(TumblingEventTimeWindowsTest, AssignerProperties) {
  auto assigner = TumblingEventTimeWindows::of(10000).build<int>();
  EXPECT_TRUE(assigner->isEventTime());
  EXPECT_EQ(assigner->toString(), "TumblingEventTimeWindows(10000)");
  EXPECT_EQ(assigner->getDefaultTrigger()->toString(), "EventTimeTrigger()");
  EXPECT_EQ((dynamic_cast<MergingWindowAssigner<int, TimeWindow>*>(assigner.get())), nullptr);
}

TEST(TumblingEventTimeWindowsTest, Validation) {
  EXPECT_EQ(thrownInvalidArgument([] { TumblingEventTimeWindows::of(0); }),
            "TumblingEventTimeWindows: size must be > 0, got 0 ms");
  EXPECT_THAT(thrownInvalidArgument([] { TumblingEventTimeWindows::of(-5); }), HasSubstr("got -5 ms"));
  EXPECT_EQ(thrownInvalidArgument([] { TumblingEventTimeWindows::of(10000, 10000); }),
            "TumblingEventTimeWindows: offset must satisfy |offset| < size, got offset 10000 ms for size 10000 ms");
  EXPECT_THAT(thrownInvalidArgument([] { TumblingEventTimeWindows::of(10000, -10000); }),
              HasSubstr("got offset -10000 ms"));
  EXPECT_THAT(thrownInvalidArgument([] { TumblingEventTimeWindows::of(10, std::numeric_limits<Duration>::min()); }),
              HasSubstr("TumblingEventTimeWindows: offset"));
  EXPECT_NO_THROW(TumblingEventTimeWindows::of(10000, 9999));
  EXPECT_NO_THROW(TumblingEventTimeWindows::of(10000, -9999));
}

TEST(TumblingEventTimeWindowsTest, RejectsRecordsWithoutTimestamp) {
  auto assigner = TumblingEventTimeWindows::of(10000).build<int>();
  EXPECT_EQ(thrownRuntimeError([&] { assign(*assigner, 1, kMinWatermark); }),
            "TumblingEventTimeWindows(10000): record has no timestamp (kMinWatermark): did you forget "
            "assignTimestampsAndWatermarks()?");
}

// ---------------------------------------------------------------- SlidingEventTimeWindows

TEST(SlidingEventTimeWindowsTest, LatestStartFirst) {
  auto assigner = SlidingEventTimeWindows::of(10000, 5000).build<int>();
  EXPECT_EQ(assign(*assigner, 1, 12000), (Windows{{10000, 20000}, {5000, 15000}}));
  EXPECT_EQ(assign(*assigner, 1, 10000), (Windows{{10000, 20000}, {5000, 15000}}));
  EXPECT_EQ(assign(*assigner, 1, 9999), (Windows{{5000, 15000}, {0, 10000}}));
  EXPECT_EQ(assign(*assigner, 1, -1), (Windows{{-5000, 5000}, {-10000, 0}}));
  EXPECT_EQ(assign(*assigner, 1, -5000), (Windows{{-5000, 5000}, {-10000, 0}}));
  EXPECT_EQ(assign(*assigner, 1, -5001), (Windows{{-10000, 0}, {-15000, -5000}}));
}

TEST(SlidingEventTimeWindowsTest, WindowCount) {
  // Divisible: exactly size / slide windows for every timestamp.
  auto divisible = SlidingEventTimeWindows::of(10000, 2000).build<int>();
  for (Timestamp ts = -25000; ts < 25000; ts += 777) {
    EXPECT_EQ(assign(*divisible, 1, ts).size(), 5u) << ts;
  }
  // Not divisible: ceil(size / slide) = 4 where the grid allows, 3 elsewhere.
  auto ragged = SlidingEventTimeWindows::of(10000, 3000).build<int>();
  EXPECT_EQ(assign(*ragged, 1, 0), (Windows{{0, 10000}, {-3000, 7000}, {-6000, 4000}, {-9000, 1000}}));
  EXPECT_EQ(assign(*ragged, 1, 999), (Windows{{0, 10000}, {-3000, 7000}, {-6000, 4000}, {-9000, 1000}}));
  EXPECT_EQ(assign(*ragged, 1, 1000), (Windows{{0, 10000}, {-3000, 7000}, {-6000, 4000}}));
  // size < slide: gaps between windows.
  auto hopping = SlidingEventTimeWindows::of(1000, 5000).build<int>();
  EXPECT_EQ(assign(*hopping, 1, 500), (Windows{{0, 1000}}));
  EXPECT_EQ(assign(*hopping, 1, 1500), Windows{});
  EXPECT_EQ(assign(*hopping, 1, -4500), (Windows{{-5000, -4000}}));
}

TEST(SlidingEventTimeWindowsTest, Offsets) {
  auto positive = SlidingEventTimeWindows::of(10000, 5000, 1000).build<int>();
  EXPECT_EQ(assign(*positive, 1, 0), (Windows{{-4000, 6000}, {-9000, 1000}}));
  EXPECT_EQ(assign(*positive, 1, 1000), (Windows{{1000, 11000}, {-4000, 6000}}));
  auto negative = SlidingEventTimeWindows::of(10000, 5000, -1000).build<int>();
  EXPECT_EQ(assign(*negative, 1, 0), (Windows{{-1000, 9000}, {-6000, 4000}}));
}

TEST(SlidingEventTimeWindowsTest, SpecAndProperties) {
  const SlidingEventTimeWindows spec =
      SlidingEventTimeWindows::of(std::chrono::minutes(1), std::chrono::seconds(10), std::chrono::seconds(5));
  EXPECT_EQ(spec.getSize(), 60000);
  EXPECT_EQ(spec.getSlide(), 10000);
  EXPECT_EQ(spec.getOffset(), 5000);
  EXPECT_EQ(SlidingEventTimeWindows::of(std::chrono::seconds(10), std::chrono::seconds(5)),
            SlidingEventTimeWindows::of(10000, 5000));
  EXPECT_EQ(spec.toString(), "SlidingEventTimeWindows(60000, 10000)");
  auto assigner = SlidingEventTimeWindows::of(10000, 5000).build<int>();
  EXPECT_TRUE(assigner->isEventTime());
  EXPECT_EQ(assigner->toString(), "SlidingEventTimeWindows(10000, 5000)");
  EXPECT_EQ(assigner->getDefaultTrigger()->toString(), "EventTimeTrigger()");
}

TEST(SlidingEventTimeWindowsTest, Validation) {
  EXPECT_EQ(thrownInvalidArgument([] { SlidingEventTimeWindows::of(0, 1000); }),
            "SlidingEventTimeWindows: size must be > 0, got 0 ms");
  EXPECT_EQ(thrownInvalidArgument([] { SlidingEventTimeWindows::of(10000, 0); }),
            "SlidingEventTimeWindows: slide must be > 0, got 0 ms");
  EXPECT_THAT(thrownInvalidArgument([] { SlidingEventTimeWindows::of(10000, -5); }), HasSubstr("got -5 ms"));
  EXPECT_EQ(thrownInvalidArgument([] { SlidingEventTimeWindows::of(10000, 5000, 5000); }),
            "SlidingEventTimeWindows: offset must satisfy |offset| < slide, got offset 5000 ms for slide 5000 ms");
  EXPECT_THAT(thrownInvalidArgument([] { SlidingEventTimeWindows::of(10000, 5000, -5000); }),
              HasSubstr("got offset -5000 ms"));
  // The offset is checked against the slide, not the size.
  EXPECT_THAT(thrownInvalidArgument([] { SlidingEventTimeWindows::of(10000, 5000, 7000); }),
              HasSubstr("got offset 7000 ms"));
  EXPECT_NO_THROW(SlidingEventTimeWindows::of(10000, 5000, 4999));
}

TEST(SlidingEventTimeWindowsTest, RejectsRecordsWithoutTimestamp) {
  auto assigner = SlidingEventTimeWindows::of(10000, 5000).build<int>();
  EXPECT_THAT(thrownRuntimeError([&] { assign(*assigner, 1, kMinWatermark); }),
              HasSubstr("SlidingEventTimeWindows(10000, 5000): record has no timestamp (kMinWatermark)"));
}

// ---------------------------------------------------------------- EventTimeSessionWindows

TEST(EventTimeSessionWindowsTest, EachRecordGetsTimestampPlusGap) {
  auto assigner = EventTimeSessionWindows::withGap(3000).build<int>();
  EXPECT_EQ(assign(*assigner, 1, 1000), (Windows{{1000, 4000}}));
  EXPECT_EQ(assign(*assigner, 1, -500), (Windows{{-500, 2500}}));
}

TEST(EventTimeSessionWindowsTest, TouchingWindowsMergeSeparatedOnesDoNot) {
  auto assigner = EventTimeSessionWindows::withGap(3000).build<int>();
  EXPECT_EQ(mergesOf(*assigner, {{1000, 4000}, {4000, 7000}}),
            (Merges{{{{1000, 4000}, {4000, 7000}}, {1000, 7000}}}));
  EXPECT_EQ(mergesOf(*assigner, {{2500, 5500}, {5501, 8501}}), Merges{});
  EXPECT_EQ(mergesOf(*assigner, {{2500, 5500}}), Merges{});
}

TEST(EventTimeSessionWindowsTest, MergesEveryRunSortedByStart) {
  auto assigner = EventTimeSessionWindows::withGap(3000).build<int>();
  EXPECT_EQ(mergesOf(*assigner, {{20000, 23000}, {4000, 7000}, {0, 3000}, {10000, 13000}, {2000, 5000},
                                 {21000, 24000}}),
            (Merges{{{{0, 3000}, {2000, 5000}, {4000, 7000}}, {0, 7000}},
                                          {{{20000, 23000}, {21000, 24000}}, {20000, 24000}}}));
}

// What a session assigner must report for `windows`, by brute force: the
// groups of windows connected by intersection (touching counts), each of two
// or more windows, ordered by start (windows and groups alike), with their
// cover.
Merges bruteForceSessionMerges(const Windows& windows) {
  std::vector<Windows> groups;
  for (const TimeWindow& window : windows) groups.push_back({window});
  bool joined = true;
  while (joined) {
    joined = false;
    for (std::size_t i = 0; i < groups.size() && !joined; ++i) {
      for (std::size_t j = i + 1; j < groups.size() && !joined; ++j) {
        for (const TimeWindow& a : groups[i]) {
          for (const TimeWindow& b : groups[j]) joined = joined || a.intersects(b);
        }
        if (joined) {
          groups[i].insert(groups[i].end(), groups[j].begin(), groups[j].end());
          groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(j));
        }
      }
    }
  }
  Merges merges;
  for (Windows& group : groups) {
    if (group.size() < 2) continue;
    std::sort(group.begin(), group.end());
    TimeWindow cover = group.front();
    for (const TimeWindow& window : group) cover = cover.cover(window);
    merges.push_back(Merge{group, cover});
  }
  std::sort(merges.begin(), merges.end(), [](const Merge& a, const Merge& b) { return a.result < b.result; });
  return merges;
}

// One assigner merges every element's windows and keeps its buffers from
// call to call: whatever came before, each call reports exactly the merges
// of its own windows. Windows with equal starts may come in either order
// within a merge, so each merge's windows are compared sorted.
TEST(EventTimeSessionWindowsTest, RepeatedMergesMatchBruteForce) {
  auto assigner = EventTimeSessionWindows::withGap(3000).build<int>();
  std::mt19937_64 rng(11);
  for (int round = 0; round < 2000; ++round) {
    // Bounds on a 500 ms grid, so that equal starts and touching windows
    // are common.
    Windows windows(rng() % 7);
    for (TimeWindow& window : windows) {
      const auto start = static_cast<Timestamp>(rng() % 40) * 500;
      window = TimeWindow{start, start + static_cast<Timestamp>(1 + rng() % 8) * 500};
    }
    Merges merges = mergesOf(*assigner, windows);
    for (Merge& merge : merges) std::sort(merge.merged.begin(), merge.merged.end());
    ASSERT_EQ(merges, bruteForceSessionMerges(windows)) << "round " << round;
  }
}

TEST(EventTimeSessionWindowsTest, DynamicGap) {
  auto assigner = EventTimeSessionWindows::withDynamicGap([](const int& gap) { return Duration{gap}; }).build<int>();
  EXPECT_EQ(assign(*assigner, 500, 1000), (Windows{{1000, 1500}}));
  EXPECT_EQ(assign(*assigner, 4000, 1000), (Windows{{1000, 5000}}));
  // The session's end is the largest end, also when a later record's window ends earlier.
  EXPECT_EQ(mergesOf(*assigner, {{0, 5000}, {1000, 2000}}),
            (Merges{{{{0, 5000}, {1000, 2000}}, {0, 5000}}}));
  EXPECT_TRUE(assigner->isEventTime());
  EXPECT_EQ(assigner->toString(), "DynamicEventTimeSessionWindows()");
  EXPECT_EQ(assigner->getDefaultTrigger()->toString(), "EventTimeTrigger()");

  auto chrono_gap = EventTimeSessionWindows::withDynamicGap([](const Click& c) {
                      return std::chrono::seconds(c.gap);
                    }).build<Click>();
  EXPECT_EQ(assign(*chrono_gap, Click{"ann", 2}, 0), (Windows{{0, 2000}}));
}

TEST(EventTimeSessionWindowsTest, DynamicGapMustBePositive) {
  auto assigner = EventTimeSessionWindows::withDynamicGap([](const Click& c) { return c.gap; }).build<Click>();
  EXPECT_EQ(thrownInvalidArgument([&] { assign(*assigner, Click{"ann", 0}, 1000); }),
            "DynamicEventTimeSessionWindows: the gap extractor returned 0 ms, a gap must be > 0");
  EXPECT_THAT(thrownInvalidArgument([&] { assign(*assigner, Click{"ann", -20}, 1000); }),
              HasSubstr("returned -20 ms"));
  EXPECT_THAT(thrownRuntimeError([&] { assign(*assigner, Click{"ann", 5}, kMinWatermark); }),
              HasSubstr("DynamicEventTimeSessionWindows(): record has no timestamp"));
}

TEST(EventTimeSessionWindowsTest, SpecValidationAndProperties) {
  EXPECT_EQ(EventTimeSessionWindows::withGap(std::chrono::minutes(30)).getGap(), 1800000);
  EXPECT_EQ(EventTimeSessionWindows::withGap(3000).toString(), "EventTimeSessionWindows(3000)");
  EXPECT_EQ(thrownInvalidArgument([] { EventTimeSessionWindows::withGap(0); }),
            "EventTimeSessionWindows: gap must be > 0, got 0 ms");
  EXPECT_THAT(thrownInvalidArgument([] { EventTimeSessionWindows::withGap(-1); }), HasSubstr("got -1 ms"));

  auto assigner = EventTimeSessionWindows::withGap(3000).build<int>();
  EXPECT_TRUE(assigner->isEventTime());
  EXPECT_EQ(assigner->toString(), "EventTimeSessionWindows(3000)");
  EXPECT_EQ(assigner->getDefaultTrigger()->toString(), "EventTimeTrigger()");
  EXPECT_TRUE(assigner->getDefaultTrigger()->canMerge());
  EXPECT_THAT(thrownRuntimeError([&] { assign(*assigner, 1, kMinWatermark); }),
              HasSubstr("EventTimeSessionWindows(3000): record has no timestamp (kMinWatermark)"));
}

// ---------------------------------------------------------------- processing-time assigners

TEST(TumblingProcessingTimeWindowsTest, UsesProcessingTimeNotTheTimestamp) {
  auto assigner = TumblingProcessingTimeWindows::of(10000).build<int>();
  EXPECT_EQ(assign(*assigner, 1, /*timestamp=*/999999, /*now=*/12345), (Windows{{10000, 20000}}));
  // No timestamp is fine.
  EXPECT_EQ(assign(*assigner, 1, kMinWatermark, 12345), (Windows{{10000, 20000}}));
  EXPECT_EQ(assign(*assigner, 1, 0, -1), (Windows{{-10000, 0}}));

  auto offset = TumblingProcessingTimeWindows::of(std::chrono::seconds(10), std::chrono::seconds(2)).build<int>();
  EXPECT_EQ(assign(*offset, 1, 0, 1999), (Windows{{-8000, 2000}}));
  EXPECT_EQ(assign(*offset, 1, 0, 2000), (Windows{{2000, 12000}}));
}

TEST(TumblingProcessingTimeWindowsTest, SpecValidationAndProperties) {
  const TumblingProcessingTimeWindows spec = TumblingProcessingTimeWindows::of(10000, 500);
  EXPECT_EQ(spec.getSize(), 10000);
  EXPECT_EQ(spec.getOffset(), 500);
  EXPECT_FALSE(spec.isEventTime());
  EXPECT_EQ(spec.toString(), "TumblingProcessingTimeWindows(10000)");
  EXPECT_EQ(thrownInvalidArgument([] { TumblingProcessingTimeWindows::of(0); }),
            "TumblingProcessingTimeWindows: size must be > 0, got 0 ms");
  EXPECT_THAT(thrownInvalidArgument([] { TumblingProcessingTimeWindows::of(1000, -1000); }),
              HasSubstr("TumblingProcessingTimeWindows: offset must satisfy |offset| < size"));

  auto assigner = spec.build<int>();
  EXPECT_FALSE(assigner->isEventTime());
  EXPECT_EQ(assigner->toString(), "TumblingProcessingTimeWindows(10000)");
  EXPECT_EQ(assigner->getDefaultTrigger()->toString(), "ProcessingTimeTrigger()");
}

TEST(SlidingProcessingTimeWindowsTest, UsesProcessingTimeLatestStartFirst) {
  auto assigner = SlidingProcessingTimeWindows::of(10000, 5000).build<int>();
  EXPECT_EQ(assign(*assigner, 1, kMinWatermark, 12000), (Windows{{10000, 20000}, {5000, 15000}}));
  EXPECT_EQ(assign(*assigner, 1, 12000, -1), (Windows{{-5000, 5000}, {-10000, 0}}));
  auto offset = SlidingProcessingTimeWindows::of(10000, 5000, 1000).build<int>();
  EXPECT_EQ(assign(*offset, 1, 0, 0), (Windows{{-4000, 6000}, {-9000, 1000}}));
}

TEST(SlidingProcessingTimeWindowsTest, SpecValidationAndProperties) {
  const SlidingProcessingTimeWindows spec =
      SlidingProcessingTimeWindows::of(std::chrono::seconds(10), std::chrono::seconds(5));
  EXPECT_EQ(spec.getSize(), 10000);
  EXPECT_EQ(spec.getSlide(), 5000);
  EXPECT_EQ(spec.getOffset(), 0);
  EXPECT_EQ(spec.toString(), "SlidingProcessingTimeWindows(10000, 5000)");
  EXPECT_EQ(thrownInvalidArgument([] { SlidingProcessingTimeWindows::of(0, 1); }),
            "SlidingProcessingTimeWindows: size must be > 0, got 0 ms");
  EXPECT_EQ(thrownInvalidArgument([] { SlidingProcessingTimeWindows::of(1, 0); }),
            "SlidingProcessingTimeWindows: slide must be > 0, got 0 ms");
  EXPECT_THAT(thrownInvalidArgument([] { SlidingProcessingTimeWindows::of(10000, 5000, 5000); }),
              HasSubstr("SlidingProcessingTimeWindows: offset must satisfy |offset| < slide"));

  auto assigner = spec.build<int>();
  EXPECT_FALSE(assigner->isEventTime());
  EXPECT_EQ(assigner->getDefaultTrigger()->toString(), "ProcessingTimeTrigger()");
}

TEST(ProcessingTimeSessionWindowsTest, UsesProcessingTimeAndMerges) {
  auto assigner = ProcessingTimeSessionWindows::withGap(3000).build<int>();
  EXPECT_EQ(assign(*assigner, 1, kMinWatermark, 5000), (Windows{{5000, 8000}}));
  EXPECT_EQ(mergesOf(*assigner, {{1000, 4000}, {4000, 7000}}),
            (Merges{{{{1000, 4000}, {4000, 7000}}, {1000, 7000}}}));
  EXPECT_EQ(mergesOf(*assigner, {{2500, 5500}, {5501, 8501}}), Merges{});
  EXPECT_FALSE(assigner->isEventTime());
  EXPECT_EQ(assigner->toString(), "ProcessingTimeSessionWindows(3000)");
  EXPECT_EQ(assigner->getDefaultTrigger()->toString(), "ProcessingTimeTrigger()");
  EXPECT_TRUE(assigner->getDefaultTrigger()->canMerge());
}

TEST(ProcessingTimeSessionWindowsTest, DynamicGap) {
  auto assigner =
      ProcessingTimeSessionWindows::withDynamicGap([](const Click& c) { return c.gap; }).build<Click>();
  EXPECT_EQ(assign(*assigner, Click{"ann", 700}, kMinWatermark, 100), (Windows{{100, 800}}));
  EXPECT_EQ(thrownInvalidArgument([&] { assign(*assigner, Click{"ann", 0}, 0, 100); }),
            "DynamicProcessingTimeSessionWindows: the gap extractor returned 0 ms, a gap must be > 0");
  EXPECT_EQ(mergesOf(*ProcessingTimeSessionWindows::withDynamicGap([](const int&) { return 5; }).build<int>(),
                     {{0, 10}, {10, 20}}),
            (Merges{{{{0, 10}, {10, 20}}, {0, 20}}}));
  EXPECT_FALSE(assigner->isEventTime());
  EXPECT_EQ(assigner->toString(), "DynamicProcessingTimeSessionWindows()");
}

TEST(ProcessingTimeSessionWindowsTest, Validation) {
  EXPECT_EQ(ProcessingTimeSessionWindows::withGap(std::chrono::seconds(30)).getGap(), 30000);
  EXPECT_EQ(thrownInvalidArgument([] { ProcessingTimeSessionWindows::withGap(0); }),
            "ProcessingTimeSessionWindows: gap must be > 0, got 0 ms");
}

// ---------------------------------------------------------------- GlobalWindows

TEST(GlobalWindowsTest, EverythingGoesIntoTheOneWindow) {
  auto assigner = internal::makeAssigner<int>(GlobalWindows::create());
  FakeAssignerContext ctx(777);
  std::vector<GlobalWindow> windows;
  assigner->assignWindows(1, 5, ctx, windows);
  assigner->assignWindows(2, kMinWatermark, ctx, windows);
  EXPECT_EQ(windows, (std::vector<GlobalWindow>{GlobalWindow::get(), GlobalWindow::get()}));
  EXPECT_EQ(windows[0].maxTimestamp(), kMaxWatermark);
  EXPECT_FALSE(assigner->isEventTime());
  EXPECT_EQ(assigner->toString(), "GlobalWindows()");
  EXPECT_EQ(GlobalWindows::create().toString(), "GlobalWindows()");
  EXPECT_EQ(assigner->getDefaultTrigger()->toString(), "NeverTrigger()");
}

}  // namespace
}  // namespace tidemark
