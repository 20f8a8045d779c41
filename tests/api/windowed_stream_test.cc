// Windowed streams through whole jobs in simulated time (docs/semantics.md 4, 5, 7):
// every test runs at parallelism 1 and at parallelism 2 and asserts the exact
// multiset of results with their timestamps (sorted, since parallel sinks
// interleave), the late side outputs and the numLateRecordsDropped counters.
//
// Input: a scripted parallel source plays one step per 100 ms of simulated
// time, so each element is fully processed before the next one arrives.
// Watermarks come from marker steps that a punctuated generator turns into
// watermarks (then the markers are filtered out); at parallelism 2 the data
// steps alternate between the two source subtasks and every marker is played
// by both at the same instant, so the window operators' event time (the min
// over their input channels) is the same as at parallelism 1.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::HasSubstr;
using Lines = std::vector<std::string>;

/// A keyed value with its event timestamp; prints as "key:v". A step with
/// `wm` set is a watermark marker, not data.
struct Ev {
  std::string key;
  std::int64_t v = 0;
  Timestamp ts = 0;
  std::optional<Timestamp> wm;
  friend bool operator==(const Ev&, const Ev&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Ev& e) { return os << e.key << ':' << e.v; }
};

/// Data without a timestamp of its own (for fromElements).
Ev data(std::string key, std::int64_t v) { return Ev{std::move(key), v, 0, std::nullopt}; }

Ev sumEv(const Ev& a, const Ev& b) { return Ev{a.key, a.v + b.v, a.ts, std::nullopt}; }
std::string keyOf(const Ev& e) { return e.key; }

class MarkerWatermarks final : public WatermarkGenerator<Ev> {
 public:
  void onEvent(const Ev& e, Timestamp, WatermarkOutput& output) override {
    if (e.wm) output.emitWatermark(*e.wm);
  }
  void onPeriodicEmit(WatermarkOutput&) override {}
};

/// The scripted input of a job (see the file comment).
class Input {
 public:
  Input& add(std::string key, std::int64_t v, Timestamp ts) {
    steps_.push_back({next(), Ev{std::move(key), v, ts, std::nullopt}});
    return *this;
  }
  Input& watermark(Timestamp wm) {
    steps_.push_back({next(), Ev{"", 0, wm, wm}});
    return *this;
  }
  /// The next step plays at `instant` (ms of simulated time), later ones 100 ms apart.
  Input& at(Duration instant) {
    next_ = instant;
    return *this;
  }
  /// The sources end at `instant` instead of right after their last step.
  Input& endAt(Duration instant) {
    end_at_ = instant;
    return *this;
  }

  /// Timestamped data, with the markers turned into watermarks.
  DataStream<Ev> build(StreamExecutionEnvironment& env, int parallelism) const {
    auto strategy = WatermarkStrategy<Ev>::forGenerator([] {
                      return std::unique_ptr<WatermarkGenerator<Ev>>(std::make_unique<MarkerWatermarks>());
                    }).withTimestampAssigner([](const Ev& e, Timestamp) { return e.ts; });
    return env.addSource(source(parallelism), "events").assignTimestampsAndWatermarks(strategy).filter([](const Ev& e) {
      return !e.wm.has_value();
    });
  }

 private:
  struct Step {
    Duration at;
    Ev ev;
  };

  Duration next() {
    const Duration at = next_;
    next_ += 100;
    return at;
  }

  ScriptedSource<Ev> source(int parallelism) const {
    std::vector<ScriptedSource<Ev>::Script> scripts(static_cast<std::size_t>(parallelism));
    std::size_t data = 0;
    for (const Step& step : steps_) {
      if (step.ev.wm) {
        for (auto& script : scripts) script.push_back({step.at, step.ev, std::nullopt});
      } else {
        scripts[data++ % scripts.size()].push_back({step.at, step.ev, std::nullopt});
      }
    }
    ScriptedSource<Ev> source(std::move(scripts));
    if (end_at_) source.endAt(*end_at_);
    return source;
  }

  std::vector<Step> steps_;
  Duration next_ = 100;
  std::optional<Duration> end_at_;
};

/// "value @ timestamp" of every collected record, sorted.
template <class T>
Lines sortedLines(const std::shared_ptr<CollectedRecords<T>>& collected) {
  Lines out;
  for (const auto& r : collected->records()) {
    out.push_back(describe(r.value) + " @ " + (r.has_timestamp ? std::to_string(r.timestamp) : "none"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

Lines sorted(Lines lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::string window(const TimeWindow& w) { return fmt::format("[{},{})", w.start, w.end); }

const std::string kMax = std::to_string(kMaxWatermark);

/// "key [start,end): v1,v2,..." with the values sorted (merged sessions keep
/// their contents in an unspecified order).
class ListValues : public ProcessWindowFunction<Ev, std::string, std::string, TimeWindow> {
 public:
  void process(const std::string& key, Context& ctx, std::span<const Ev> elements,
               Collector<std::string>& out) override {
    std::vector<std::int64_t> values;
    for (const Ev& e : elements) values.push_back(e.v);
    std::sort(values.begin(), values.end());
    out.collect(fmt::format("{} {}: {}", key, window(ctx.window()), fmt::join(values, ",")));
  }
};

/// As ListValues for GlobalWindows, in window order.
class ListGlobalValues : public ProcessWindowFunction<Ev, std::string, std::string, GlobalWindow> {
 public:
  void process(const std::string& key, Context&, std::span<const Ev> elements, Collector<std::string>& out) override {
    std::vector<std::int64_t> values;
    for (const Ev& e : elements) values.push_back(e.v);
    out.collect(fmt::format("{}: {}", key, fmt::join(values, ",")));
  }
};

class WindowedStreamTest : public ::testing::TestWithParam<int> {
 protected:
  int parallelism() const { return GetParam(); }
  StreamExecutionEnvironment env() const {
    auto e = StreamExecutionEnvironment::getExecutionEnvironment();
    e.setParallelism(parallelism()).enableSimulatedTime(0);
    return e;
  }
};

INSTANTIATE_TEST_SUITE_P(Parallelism, WindowedStreamTest, ::testing::Values(1, 2),
                         [](const ::testing::TestParamInfo<int>& p) { return "P" + std::to_string(p.param); });

// ---- event-time assigners ---------------------------------------------------------

TEST_P(WindowedStreamTest, TumblingEventTimeWindowsPerKey) {
  auto e = env();
  auto events = Input()
                    .add("a", 1, 100)
                    .add("b", 2, 200)
                    .add("a", 4, 999)
                    .add("c", 8, 1000)
                    .watermark(999)
                    .add("a", 16, 1500)
                    .add("b", 32, 2999)
                    .add("c", 64, 3000)
                    .build(e, parallelism());
  auto out = events.keyBy(keyOf).window(TumblingEventTimeWindows::of(1000)).reduce(sumEv).collectToMemory();
  // Naming the default trigger keeps the general window operator.
  auto general = events.keyBy(keyOf)
                     .window(TumblingEventTimeWindows::of(1000))
                     .trigger(EventTimeTrigger::create())
                     .reduce(sumEv)
                     .collectToMemory();
  e.execute();
  const Lines expected = sorted({"a:5 @ 999", "b:2 @ 999", "a:16 @ 1999", "c:8 @ 1999", "b:32 @ 2999", "c:64 @ 3999"});
  EXPECT_EQ(sortedLines(out), expected);
  EXPECT_EQ(sortedLines(general), expected);
}

TEST_P(WindowedStreamTest, TumblingOffsetsAndNegativeTimestamps) {
  auto e = env();
  auto events = Input()
                    .add("a", 1, -1)
                    .add("a", 2, -1000)
                    .add("a", 4, -1001)
                    .add("a", 8, 299)
                    .add("a", 16, 300)
                    .add("a", 32, -701)
                    .add("a", 64, -301)
                    .build(e, parallelism());
  auto plain = events.keyBy(keyOf).window(TumblingEventTimeWindows::of(1000)).reduce(sumEv).collectToMemory();
  auto plus = events.keyBy(keyOf).window(TumblingEventTimeWindows::of(1000, 300)).reduce(sumEv).collectToMemory();
  auto minus = events.keyBy(keyOf).window(TumblingEventTimeWindows::of(1000, -300)).reduce(sumEv).collectToMemory();
  e.execute();
  // [-2000,-1000): -1001; [-1000,0): -1,-1000,-701,-301; [0,1000): 299,300.
  EXPECT_EQ(sortedLines(plain), sorted({"a:4 @ -1001", "a:99 @ -1", "a:24 @ 999"}));
  // [-1700,-700): -1000,-1001,-701; [-700,300): -1,299,-301; [300,1300): 300.
  EXPECT_EQ(sortedLines(plus), sorted({"a:38 @ -701", "a:73 @ 299", "a:16 @ 1299"}));
  // [-1300,-300): -1000,-1001,-701,-301; [-300,700): -1,299,300.
  EXPECT_EQ(sortedLines(minus), sorted({"a:102 @ -301", "a:25 @ 699"}));
}

TEST_P(WindowedStreamTest, SlidingWindowsWithOffsetsAndNegativeTimestamps) {
  auto e = env();
  auto events = Input().add("a", 1, -500).add("a", 2, 0).add("a", 4, 2500).build(e, parallelism());
  auto plain = events.keyBy(keyOf).window(SlidingEventTimeWindows::of(3000, 1000)).reduce(sumEv).collectToMemory();
  auto offset =
      events.keyBy(keyOf).window(SlidingEventTimeWindows::of(3000, 1000, 500)).reduce(sumEv).collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(plain),
            sorted({"a:1 @ -1", "a:3 @ 999", "a:3 @ 1999", "a:6 @ 2999", "a:4 @ 3999", "a:4 @ 4999"}));
  EXPECT_EQ(sortedLines(offset),
            sorted({"a:3 @ 499", "a:3 @ 1499", "a:3 @ 2499", "a:4 @ 3499", "a:4 @ 4499", "a:4 @ 5499"}));
}

TEST_P(WindowedStreamTest, SlidingWindowsWhoseSizeIsNotAMultipleOfTheSlide) {
  auto e = env();
  auto events = Input().add("a", 1, 0).add("a", 2, 600).add("b", 4, 2400).build(e, parallelism());
  auto out =
      events.keyBy(keyOf).window(SlidingEventTimeWindows::of(2500, 1000)).process(ListValues{}).collectToMemory();
  e.execute();
  // 0 is in 3 windows, 600 in 2 ([-2000,500) ends before it), 2400 in 3.
  EXPECT_EQ(sortedLines(out), sorted({"a [-2000,500): 1 @ 499", "a [-1000,1500): 1,2 @ 1499", "a [0,2500): 1,2 @ 2499",
                                      "b [0,2500): 4 @ 2499", "b [1000,3500): 4 @ 3499", "b [2000,4500): 4 @ 4499"}));
}

TEST_P(WindowedStreamTest, EventTimeSessionsMergeWhenTouching) {
  auto e = env();
  auto events = Input()
                    .add("a", 1, 0)
                    .add("b", 1, 0)
                    .add("a", 2, 1000)  // touches [0,1000): [0,2000)
                    .add("b", 2, 1001)  // does not touch: [1001,2001)
                    .watermark(1500)    // b's first session fires
                    .add("a", 4, 2000)  // touches [0,2000): [0,3000)
                    .build(e, parallelism());
  auto out = events.keyBy(keyOf).window(EventTimeSessionWindows::withGap(1000)).process(ListValues{}).collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(out), sorted({"b [0,1000): 1 @ 999", "b [1001,2001): 2 @ 2000", "a [0,3000): 1,2,4 @ 2999"}));
}

TEST_P(WindowedStreamTest, DynamicGapSessions) {
  auto e = env();
  auto events = Input()
                    .add("a", 10, 0)    // [0,1000)
                    .add("a", 1, 1500)  // [1500,1600)
                    .add("a", 5, 1100)  // [1100,1600): merges with the previous one only
                    .add("b", 30, 0)    // [0,3000)
                    .add("b", 1, 2950)  // [2950,3050)
                    .build(e, parallelism());
  auto out = events.keyBy(keyOf)
                 .window(EventTimeSessionWindows::withDynamicGap([](const Ev& ev) { return ev.v * 100; }))
                 .process(ListValues{})
                 .collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(out), sorted({"a [0,1000): 10 @ 999", "a [1100,1600): 1,5 @ 1599", "b [0,3050): 1,30 @ 3049"}));
}

TEST_P(WindowedStreamTest, LateElementWithinLatenessBridgesTwoSessions) {
  auto e = env();
  const OutputTag<Ev> late("late");
  auto events = Input()
                    .add("a", 1, 0)
                    .add("a", 2, 2000)
                    .watermark(3500)
                    .add("a", 4, 1000)  // bridges [0,1000) and [2000,3000): fires [0,3000) at once
                    .watermark(7999)    // cleanup of [0,3000)
                    .add("a", 8, 1500)  // late: side output
                    .build(e, parallelism());
  auto result = events.keyBy(keyOf)
                    .window(EventTimeSessionWindows::withGap(1000))
                    .allowedLateness(5000)
                    .sideOutputLateData(late)
                    .reduce(sumEv);
  auto out = result.collectToMemory();
  auto side = result.getSideOutput(late).collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(out), sorted({"a:1 @ 999", "a:2 @ 2999", "a:7 @ 2999"}));
  EXPECT_EQ(sortedLines(side), (Lines{"a:8 @ 1500"}));
}

// ---- GlobalWindows and count windows ---------------------------------------------

TEST_P(WindowedStreamTest, GlobalWindowsWithCountTrigger) {
  auto e = env();
  auto events = Input()
                    .add("a", 1, 0)
                    .add("b", 10, 0)
                    .add("a", 2, 0)
                    .add("b", 20, 0)
                    .add("a", 3, 0)
                    .add("b", 30, 0)
                    .add("b", 40, 0)
                    .build(e, parallelism());
  auto out =
      events.keyBy(keyOf).window(GlobalWindows::create()).trigger(CountTrigger::of(2)).reduce(sumEv).collectToMemory();
  auto never = events.keyBy(keyOf).window(GlobalWindows::create()).reduce(sumEv).collectToMemory();
  e.execute();
  // FIRE keeps the contents: b fires 10+20, then 10+20+30+40.
  EXPECT_EQ(sortedLines(out), sorted({"a:3 @ " + kMax, "b:30 @ " + kMax, "b:100 @ " + kMax}));
  EXPECT_TRUE(never->records().empty());
}

TEST_P(WindowedStreamTest, CountWindows) {
  auto e = env();
  Input input;
  for (std::int64_t v = 1; v <= 7; ++v) input.add("a", v, v).add("b", 10 * v, v);
  auto events = input.build(e, parallelism());
  auto tumbling = events.keyBy(keyOf).countWindow(3).reduce(sumEv).collectToMemory();
  auto sliding = events.keyBy(keyOf).countWindow(3, 2).process(ListGlobalValues{}).collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(tumbling), sorted({"a:6 @ " + kMax, "a:15 @ " + kMax, "b:60 @ " + kMax, "b:150 @ " + kMax}));
  EXPECT_EQ(sortedLines(sliding), sorted({"a: 1,2 @ " + kMax, "a: 2,3,4 @ " + kMax, "a: 4,5,6 @ " + kMax,
                                          "b: 10,20 @ " + kMax, "b: 20,30,40 @ " + kMax, "b: 40,50,60 @ " + kMax}));
}

class DescribeAll : public ProcessAllWindowFunction<Ev, std::string, TimeWindow> {
 public:
  void process(Context& ctx, std::span<const Ev> elements, Collector<std::string>& out) override {
    std::vector<std::string> values;
    for (const Ev& ev : elements) values.push_back(describe(ev));
    std::sort(values.begin(), values.end());
    out.collect(fmt::format("{}: {}", window(ctx.window()), fmt::join(values, ",")));
  }
};

TEST_P(WindowedStreamTest, WindowAllAndCountWindowAllRunAsOneSubtask) {
  auto e = env();
  auto events = Input()
                    .add("a", 1, 100)
                    .add("b", 2, 200)
                    .add("c", 4, 1100)
                    .add("a", 8, 1200)
                    .add("b", 16, 500)
                    .build(e, parallelism());
  auto tumbling = events.windowAll(TumblingEventTimeWindows::of(1000)).process(DescribeAll{});
  auto tumbling_out = tumbling.collectToMemory();
  auto counted = events.countWindowAll(2).reduce(sumEv).collectToMemory();
  auto sliding_count = events.countWindowAll(3, 1).reduce(sumEv).collectToMemory();
  auto reduced = events.windowAll(TumblingEventTimeWindows::of(1000)).reduce(sumEv).collectToMemory();
  const JobExecutionResult result = e.execute();
  EXPECT_EQ(sortedLines(tumbling_out), sorted({"[0,1000): a:1,b:16,b:2 @ 999", "[1000,2000): a:8,c:4 @ 1999"}));
  // Arrival order 1, 2, 4, 8, 16 (the key of the first element of each window stays).
  EXPECT_EQ(sortedLines(counted), sorted({"a:3 @ " + kMax, "c:12 @ " + kMax}));
  EXPECT_EQ(sortedLines(sliding_count),
            sorted({"a:1 @ " + kMax, "a:3 @ " + kMax, "a:7 @ " + kMax, "b:14 @ " + kMax, "c:28 @ " + kMax}));
  EXPECT_EQ(sortedLines(reduced), sorted({"a:19 @ 999", "c:12 @ 1999"}));
  for (const OperatorMetrics& op : result.getOperatorMetrics()) {
    if (op.name.find("Window") != std::string::npos) {
      EXPECT_EQ(op.parallelism, 1) << op.name;
    }
  }
}

TEST_P(WindowedStreamTest, WindowAllWithLatenessAndLateSideOutput) {
  auto e = env();
  const OutputTag<Ev> late("late-all");
  auto events = Input()
                    .add("a", 1, 100)
                    .watermark(999)
                    .add("b", 2, 200)  // within lateness: fires again with 1 + 2
                    .watermark(1499)   // cleanup of [0,1000)
                    .add("c", 4, 300)  // late
                    .build(e, parallelism());
  auto result =
      events.windowAll(TumblingEventTimeWindows::of(1000)).allowedLateness(500).sideOutputLateData(late).reduce(sumEv);
  auto out = result.collectToMemory();
  auto side = result.getSideOutput(late).collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(out), sorted({"a:1 @ 999", "a:3 @ 999"}));
  EXPECT_EQ(sortedLines(side), (Lines{"c:4 @ 300"}));
}

TEST_P(WindowedStreamTest, WindowAllRefusesAParallelismAboveOne) {
  auto e = env();
  auto events = Input().add("a", 1, 100).build(e, parallelism());
  events.windowAll(TumblingEventTimeWindows::of(1000)).reduce(sumEv).name("all").setParallelism(2).collectToMemory();
  try {
    e.execute();
    ADD_FAILURE() << "the job ran";
  } catch (const InvalidProgramException& problem) {
    EXPECT_THAT(problem.what(), HasSubstr("operator 'all' is not parallel"));
  }
}

// ---- lateness ---------------------------------------------------------------------

TEST_P(WindowedStreamTest, LateElementsSideOutputDropAndRefireWithinLateness) {
  auto e = env();
  const OutputTag<Ev> late("late");
  auto events = Input()
                    .add("a", 1, 100)
                    .add("b", 2, 200)
                    .watermark(999)
                    .add("a", 4, 500)  // late for [0,1000) without lateness
                    .add("b", 8, 999)  // ts == watermark: late
                    .add("a", 16, 1000)
                    .watermark(1999)
                    .add("a", 32, 999)   // late, also with lateness 1000 ([0,1000) cleaned at 1999)
                    .add("b", 64, 1999)  // late without lateness; with it, [1000,2000) fires at once
                    .build(e, parallelism());
  auto keyed = events.keyBy(keyOf);
  auto side0 = keyed.window(TumblingEventTimeWindows::of(1000)).sideOutputLateData(late).reduce(sumEv);
  side0.name("side0");
  auto drop0 = keyed.window(TumblingEventTimeWindows::of(1000)).reduce(sumEv);
  drop0.name("drop0");
  auto drop0_general =
      keyed.window(TumblingEventTimeWindows::of(1000)).trigger(EventTimeTrigger::create()).reduce(sumEv);
  drop0_general.name("drop0 general");
  auto side1 =
      keyed.window(TumblingEventTimeWindows::of(1000)).allowedLateness(1000).sideOutputLateData(late).reduce(sumEv);
  side1.name("side1");
  auto drop1 = keyed.window(TumblingEventTimeWindows::of(1000)).allowedLateness(1000).reduce(sumEv);
  drop1.name("drop1");
  auto side0_out = side0.collectToMemory();
  auto side0_late = side0.getSideOutput(late).collectToMemory();
  auto drop0_out = drop0.collectToMemory();
  auto drop0_general_out = drop0_general.collectToMemory();
  auto side1_out = side1.collectToMemory();
  auto side1_late = side1.getSideOutput(late).collectToMemory();
  auto drop1_out = drop1.collectToMemory();
  const JobExecutionResult result = e.execute();

  const Lines without_lateness = sorted({"a:1 @ 999", "b:2 @ 999", "a:16 @ 1999"});
  EXPECT_EQ(sortedLines(side0_out), without_lateness);
  EXPECT_EQ(sortedLines(drop0_out), without_lateness);
  EXPECT_EQ(sortedLines(drop0_general_out), without_lateness);
  EXPECT_EQ(sortedLines(side0_late), sorted({"a:4 @ 500", "b:8 @ 999", "a:32 @ 999", "b:64 @ 1999"}));
  EXPECT_EQ(result.counter("side0", "numLateRecordsDropped"), 0u);
  EXPECT_EQ(result.counter("drop0", "numLateRecordsDropped"), 4u);
  EXPECT_EQ(result.counter("drop0 general", "numLateRecordsDropped"), 4u);

  const Lines with_lateness =
      sorted({"a:1 @ 999", "b:2 @ 999", "a:5 @ 999", "b:10 @ 999", "a:16 @ 1999", "b:64 @ 1999"});
  EXPECT_EQ(sortedLines(side1_out), with_lateness);
  EXPECT_EQ(sortedLines(drop1_out), with_lateness);
  EXPECT_EQ(sortedLines(side1_late), (Lines{"a:32 @ 999"}));
  EXPECT_EQ(result.counter("side1", "numLateRecordsDropped"), 0u);
  EXPECT_EQ(result.counter("drop1", "numLateRecordsDropped"), 1u);
}

TEST_P(WindowedStreamTest, SlidingElementAcceptedByOneWindowIsNotLate) {
  auto e = env();
  const OutputTag<Ev> late("late");
  auto events = Input()
                    .add("a", 1, 1500)
                    .watermark(1999)
                    .add("a", 10, 1200)  // [0,2000) is late, [1000,3000) takes it
                    .watermark(2999)
                    .add("a", 100, 1999)  // both late
                    .build(e, parallelism());
  auto result =
      events.keyBy(keyOf).window(SlidingEventTimeWindows::of(2000, 1000)).sideOutputLateData(late).reduce(sumEv);
  result.name("sliding");
  auto out = result.collectToMemory();
  auto side = result.getSideOutput(late).collectToMemory();
  const JobExecutionResult job = e.execute();
  EXPECT_EQ(sortedLines(out), sorted({"a:1 @ 1999", "a:11 @ 2999"}));
  EXPECT_EQ(sortedLines(side), (Lines{"a:100 @ 1999"}));
  EXPECT_EQ(job.counter("sliding", "numLateRecordsDropped"), 0u);
}

TEST_P(WindowedStreamTest, SlidingSumAndReduceAgreeWithLateElements) {
  auto e = env();
  const OutputTag<Ev> late("late");
  auto events = Input()
                    .add("a", 1, 500)
                    .add("b", 2, 1500)
                    .add("a", 4, 2500)
                    .watermark(1999)     // fires [-2000,1000) and [-1000,2000)
                    .add("a", 8, 1200)   // [-1000,2000) late; [0,3000) and [1000,4000) take it
                    .add("b", 16, 100)   // only [0,3000) takes it
                    .add("a", 32, 999)   // only [0,3000) takes it
                    .watermark(2999)     // fires [0,3000)
                    .add("a", 64, 1999)  // only [1000,4000) takes it
                    .add("b", 128, 999)  // every window late: side output
                    .build(e, parallelism());
  auto windowed = events.keyBy(keyOf).window(SlidingEventTimeWindows::of(3000, 1000)).sideOutputLateData(late);
  auto sum = windowed.sum(&Ev::v);
  auto reduce = windowed.reduce(sumEv);
  auto sum_out = sum.collectToMemory();
  auto sum_late = sum.getSideOutput(late).collectToMemory();
  auto reduce_out = reduce.collectToMemory();
  auto reduce_late = reduce.getSideOutput(late).collectToMemory();
  e.execute();
  const Lines expected = sorted({"a:1 @ 999", "a:1 @ 1999", "b:2 @ 1999", "a:45 @ 2999", "b:18 @ 2999", "a:76 @ 3999",
                                 "b:2 @ 3999", "a:4 @ 4999"});
  EXPECT_EQ(sortedLines(sum_out), expected);
  EXPECT_EQ(sortedLines(reduce_out), expected);
  EXPECT_EQ(sortedLines(sum_late), (Lines{"b:128 @ 999"}));
  EXPECT_EQ(sortedLines(reduce_late), (Lines{"b:128 @ 999"}));
}

TEST_P(WindowedStreamTest, PurgingEventTimeTriggerFiresOnlyNewElementsLate) {
  auto e = env();
  auto events = Input()
                    .add("a", 1, 100)
                    .add("a", 1, 200)
                    .watermark(999)
                    .add("a", 5, 300)
                    .add("a", 7, 400)
                    .build(e, parallelism());
  auto keyed = events.keyBy(keyOf);
  auto purging = keyed.window(TumblingEventTimeWindows::of(1000))
                     .allowedLateness(1000)
                     .trigger(PurgingTrigger::of(EventTimeTrigger::create()))
                     .reduce(sumEv)
                     .collectToMemory();
  auto accumulating =
      keyed.window(TumblingEventTimeWindows::of(1000)).allowedLateness(1000).reduce(sumEv).collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(purging), sorted({"a:2 @ 999", "a:5 @ 999", "a:7 @ 999"}));
  EXPECT_EQ(sortedLines(accumulating), sorted({"a:2 @ 999", "a:7 @ 999", "a:14 @ 999"}));
}

TEST_P(WindowedStreamTest, WindowResultsReachDownstreamBeforeTheWatermarkThatFiredThem) {
  auto e = env();
  auto events = Input().add("a", 1, 100).add("b", 2, 1500).watermark(999).watermark(1999).build(e, parallelism());
  auto out = events.keyBy(keyOf)
                 .window(TumblingEventTimeWindows::of(1000))
                 .reduce(sumEv)
                 .process<std::string>([](const Ev& ev, ProcessContext& ctx, Collector<std::string>& collector) {
                   collector.collect(fmt::format("{} ts={} wm={}", describe(ev), *ctx.timestamp(),
                                                 ctx.timerService().currentWatermark()));
                 })
                 .collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(out),
            sorted({"a:1 ts=999 wm=" + std::to_string(kMinWatermark) + " @ 999", "b:2 ts=1999 wm=999 @ 1999"}));
}

// ---- processing time ----------------------------------------------------------------

TEST_P(WindowedStreamTest, TumblingProcessingTimeWindowsFireOnTheSimulatedClock) {
  auto e = env();
  auto events = Input()
                    .add("a", 1, 5000)  // at 100; timestamps do not matter
                    .at(300)
                    .add("b", 2, -5)
                    .at(900)
                    .add("a", 4, 0)
                    .at(1000)
                    .add("a", 8, 0)
                    .at(1500)
                    .add("b", 16, 0)
                    .endAt(2500)  // pending processing-time timers die with the task
                    .build(e, parallelism());
  auto out = events.keyBy(keyOf).window(TumblingProcessingTimeWindows::of(1000)).reduce(sumEv).collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(out), sorted({"a:5 @ 999", "b:2 @ 999", "a:8 @ 1999", "b:16 @ 1999"}));
}

// ---- evictors -------------------------------------------------------------------------

TEST_P(WindowedStreamTest, EvictorsBeforeAndAfterWithReduceAndProcess) {
  auto e = env();
  Input input;
  for (std::int64_t v : {1, 10, 8, 12, 20, 11}) input.add("a", v, v * 100);
  auto events = input.build(e, parallelism());
  auto keyed = events.keyBy(keyOf);
  auto global = [&] { return keyed.window(GlobalWindows::create()).trigger(CountTrigger::of(3)); };
  auto count_before = global().evictor(CountEvictor::of(2)).reduce(sumEv).collectToMemory();
  auto count_after = global().evictor(CountEvictor::of(2, true)).process(ListGlobalValues{}).collectToMemory();
  auto delta = [](const Ev& a, const Ev& b) { return static_cast<double>(a.v > b.v ? a.v - b.v : b.v - a.v); };
  auto delta_before = global().evictor(DeltaEvictor::of(5.0, delta)).process(ListGlobalValues{}).collectToMemory();
  auto delta_after = global().evictor(DeltaEvictor::of(5.0, delta, true)).reduce(sumEv).collectToMemory();
  auto time_before = keyed.window(TumblingEventTimeWindows::of(10000))
                         .evictor(TimeEvictor::of(500))
                         .process(ListValues{})
                         .collectToMemory();
  auto time_after = keyed.window(TumblingEventTimeWindows::of(10000))
                        .evictor(TimeEvictor::of(500, true))
                        .reduce(sumEv)
                        .collectToMemory();
  e.execute();
  // Firings after 3 and 6 elements: {1,10,8}, then what remained + {12,20,11}.
  EXPECT_EQ(sortedLines(count_before), sorted({"a:18 @ " + kMax, "a:31 @ " + kMax}));  // {10,8}, {20,11}
  EXPECT_EQ(sortedLines(count_after), sorted({"a: 1,10,8 @ " + kMax, "a: 10,8,12,20,11 @ " + kMax}));
  // Delta to the last element < 5 stays: {1,10,8} -> {10,8}; {10,8,12,20,11} -> {10,8,12,11}.
  EXPECT_EQ(sortedLines(delta_before), sorted({"a: 10,8 @ " + kMax, "a: 10,8,12,11 @ " + kMax}));
  EXPECT_EQ(sortedLines(delta_after), sorted({"a:19 @ " + kMax, "a:61 @ " + kMax}));
  // Newest timestamp 2000: keeps timestamps > 1500, i.e. only 2000 (v = 20).
  EXPECT_EQ(sortedLines(time_before), (Lines{"a [0,10000): 20 @ 9999"}));
  EXPECT_EQ(sortedLines(time_after), (Lines{"a:62 @ 9999"}));
}

// ---- window functions ------------------------------------------------------------------

const OutputTag<std::string> kMeta("meta");

class DescribeWindow : public ProcessWindowFunction<std::int64_t, std::string, std::string, TimeWindow> {
 public:
  void process(const std::string& key, Context& ctx, std::span<const std::int64_t> counts,
               Collector<std::string>& out) override {
    ValueState<std::int64_t>& total = ctx.globalState().getState(total_);
    total.update(total.value().value_or(0) + counts.front());
    out.collect(fmt::format("{} {} count={} total={} wm={} now={}", key, window(ctx.window()), counts.front(),
                            *total.value(), ctx.currentWatermark(), ctx.currentProcessingTime()));
    ctx.output(kMeta, fmt::format("{} {}", key, window(ctx.window())));
  }

 private:
  ValueStateDescriptor<std::int64_t> total_{"total"};
};

class CountAgg : public AggregateFunction<Ev, std::int64_t, std::int64_t> {
 public:
  std::int64_t createAccumulator() override { return 0; }
  std::int64_t add(const Ev&, std::int64_t acc) override { return acc + 1; }
  std::int64_t getResult(const std::int64_t& acc) override { return acc; }
  std::int64_t merge(std::int64_t a, std::int64_t b) override { return a + b; }
};

TEST_P(WindowedStreamTest, ProcessWindowFunctionContextInAJob) {
  auto e = env();
  auto events = Input()
                    .add("a", 1, 100)   // at 100
                    .add("a", 1, 200)   // at 200
                    .add("b", 1, 1500)  // at 300
                    .watermark(1200)    // at 400: fires [0,1000) of a
                    .add("a", 1, 1100)  // at 500
                    .watermark(2000)    // at 600: fires [1000,2000) of a and b
                    .build(e, parallelism());
  auto result = events.keyBy(keyOf).window(TumblingEventTimeWindows::of(1000)).aggregate(CountAgg{}, DescribeWindow{});
  auto out = result.collectToMemory();
  auto meta = result.getSideOutput(kMeta).collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(out), sorted({"a [0,1000) count=2 total=2 wm=1200 now=400 @ 999",
                                      "a [1000,2000) count=1 total=3 wm=2000 now=600 @ 1999",
                                      "b [1000,2000) count=1 total=1 wm=2000 now=600 @ 1999"}));
  EXPECT_EQ(sortedLines(meta), sorted({"a [0,1000) @ 999", "a [1000,2000) @ 1999", "b [1000,2000) @ 1999"}));
}

/// The function objects that touched any window, shared by every subtask.
struct Instances {
  std::mutex mutex;
  std::set<const void*> seen;
  void note(const void* instance) {
    std::lock_guard lock(mutex);
    seen.insert(instance);
  }
  std::size_t count() {
    std::lock_guard lock(mutex);
    return seen.size();
  }
};

class NotingCount : public AggregateFunction<Ev, std::int64_t, std::int64_t> {
 public:
  explicit NotingCount(std::shared_ptr<Instances> instances) : instances_(std::move(instances)) {}
  std::int64_t createAccumulator() override {
    instances_->note(this);
    return 0;
  }
  std::int64_t add(const Ev&, std::int64_t acc) override { return acc + 1; }
  std::int64_t getResult(const std::int64_t& acc) override { return acc; }
  std::int64_t merge(std::int64_t a, std::int64_t b) override { return a + b; }

 private:
  std::shared_ptr<Instances> instances_;
};

class NotingProcess : public ProcessWindowFunction<std::int64_t, std::string, std::string, TimeWindow> {
 public:
  explicit NotingProcess(std::shared_ptr<Instances> instances) : instances_(std::move(instances)) {}
  void process(const std::string& key, Context&, std::span<const std::int64_t> counts,
               Collector<std::string>& out) override {
    instances_->note(this);
    out.collect(fmt::format("{}={}", key, counts[0]));
  }

 private:
  std::shared_ptr<Instances> instances_;
};

// A user function may keep scratch members: as on the general operator, each
// subtask of a sliced window gets its own copy, never one shared across threads.
TEST_P(WindowedStreamTest, EachSubtaskOfATumblingWindowHasItsOwnFunctions) {
  auto e = env();
  Input input;
  for (int k = 0; k < 16; ++k) input.add("key" + std::to_string(k), 1, 100 + k);
  auto events = input.build(e, parallelism());
  auto aggregates = std::make_shared<Instances>();
  auto aggregates_before_process = std::make_shared<Instances>();
  auto processes = std::make_shared<Instances>();
  auto counts = events.keyBy(keyOf).window(TumblingEventTimeWindows::of(1000)).aggregate(NotingCount(aggregates));
  auto described = events.keyBy(keyOf)
                       .window(TumblingEventTimeWindows::of(1000))
                       .aggregate(NotingCount(aggregates_before_process), NotingProcess(processes));
  auto count_lines = counts.collectToMemory();
  auto described_lines = described.collectToMemory();
  e.execute();
  EXPECT_EQ(count_lines->values().size(), 16u);
  EXPECT_EQ(described_lines->values().size(), 16u);
  const auto subtasks = static_cast<std::size_t>(parallelism());
  EXPECT_EQ(aggregates->count(), subtasks);
  EXPECT_EQ(aggregates_before_process->count(), subtasks);
  EXPECT_EQ(processes->count(), subtasks);
}

TEST_P(WindowedStreamTest, ProcessWindowFunctionOnSessions) {
  auto e = env();
  auto events = Input()
                    .add("a", 1, 0)
                    .add("a", 1, 2000)
                    .add("b", 1, 500)
                    .watermark(1600)    // fires and cleans up [0,1000) of a and [500,1500) of b
                    .add("a", 1, 1000)  // [1000,2000) merges with [2000,3000) only: [0,1000) is gone
                    .build(e, parallelism());
  auto out = events.keyBy(keyOf)
                 .window(EventTimeSessionWindows::withGap(1000))
                 .aggregate(CountAgg{}, DescribeWindow{})
                 .collectToMemory();
  e.execute();
  // globalState() counts per key across sessions; the end of input (MAX) fires the last one.
  EXPECT_EQ(sortedLines(out), sorted({"a [0,1000) count=1 total=1 wm=1600 now=400 @ 999",
                                      "b [500,1500) count=1 total=1 wm=1600 now=400 @ 1499",
                                      "a [1000,3000) count=2 total=3 wm=" + kMax + " now=500 @ 2999"}));
}

struct Reading {
  std::string key;
  std::int64_t v = 0;
  std::string note;
  friend std::ostream& operator<<(std::ostream& os, const Reading& r) {
    return os << r.key << ':' << r.v << '/' << r.note;
  }
};

TEST_P(WindowedStreamTest, SumMinMaxMinByMaxByPerWindow) {
  auto e = env();
  auto events = Input()
                    .add("a", 3, 100)
                    .add("a", 1, 200)
                    .add("a", 5, 300)
                    .add("a", 1, 400)
                    .add("a", 5, 500)
                    .add("b", 7, 1500)
                    .build(e, parallelism());
  auto readings = events.map([](const Ev& ev) { return Reading{ev.key, ev.v, "n" + std::to_string(ev.ts)}; });
  auto windowed = readings.keyBy([](const Reading& r) { return r.key; }).window(TumblingEventTimeWindows::of(1000));
  auto sum = windowed.sum(&Reading::v).collectToMemory();
  auto min = windowed.min(&Reading::v).collectToMemory();
  auto max = windowed.max(&Reading::v).collectToMemory();
  auto min_by = windowed.minBy(&Reading::v).collectToMemory();
  auto max_by_last = windowed.maxBy(&Reading::v, false).collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(sum), sorted({"a:15/n100 @ 999", "b:7/n1500 @ 1999"}));
  EXPECT_EQ(sortedLines(min), sorted({"a:1/n100 @ 999", "b:7/n1500 @ 1999"}));
  EXPECT_EQ(sortedLines(max), sorted({"a:5/n100 @ 999", "b:7/n1500 @ 1999"}));
  EXPECT_EQ(sortedLines(min_by), sorted({"a:1/n200 @ 999", "b:7/n1500 @ 1999"}));
  EXPECT_EQ(sortedLines(max_by_last), sorted({"a:5/n500 @ 999", "b:7/n1500 @ 1999"}));
}

TEST_P(WindowedStreamTest, ApplyWindowFunction) {
  auto e = env();
  auto events = Input().add("a", 1, 100).add("a", 2, 900).add("b", 4, 1000).build(e, parallelism());
  auto out = events.keyBy(keyOf)
                 .window(TumblingEventTimeWindows::of(1000))
                 .apply<std::string>([](const std::string& key, const TimeWindow& w, std::span<const Ev> elements,
                                        Collector<std::string>& collector) {
                   collector.collect(fmt::format("{} {} n={}", key, window(w), elements.size()));
                 })
                 .collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(out), sorted({"a [0,1000) n=2 @ 999", "b [1000,2000) n=1 @ 1999"}));
}

// ---- failures ---------------------------------------------------------------------------

TEST_P(WindowedStreamTest, ElementsWithoutTimestampsFailEventTimeWindowsNamingTheOperator) {
  auto e = env();
  e.fromElements<Ev>({data("a", 1), data("b", 2)})
      .keyBy(keyOf)
      .window(TumblingEventTimeWindows::of(1000))
      .reduce(sumEv)
      .name("hourly totals")
      .collectToMemory();
  try {
    e.execute();
    ADD_FAILURE() << "the job succeeded";
  } catch (const JobExecutionException& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("operator 'hourly totals'"));
    EXPECT_THAT(failure.what(), HasSubstr("no timestamp"));
    EXPECT_THAT(failure.what(), HasSubstr("assignTimestampsAndWatermarks"));
  }
}

TEST_P(WindowedStreamTest, ElementsWithoutTimestampsFailSessionWindowsAll) {
  auto e = env();
  e.fromElements<Ev>({data("a", 1)}).windowAll(EventTimeSessionWindows::withGap(1000)).reduce(sumEv).collectToMemory();
  try {
    e.execute();
    ADD_FAILURE() << "the job succeeded";
  } catch (const JobExecutionException& failure) {
    EXPECT_THAT(failure.what(), HasSubstr("operator 'Window(Reduce)'"));
    EXPECT_THAT(failure.what(), HasSubstr("no timestamp"));
  }
}

TEST_P(WindowedStreamTest, ElementsWithoutTimestampsAreFineForCountAndProcessingTimeWindows) {
  auto e = env();
  auto source = e.fromElements<Ev>({data("a", 1), data("a", 2), data("b", 4)});
  auto counted = source.keyBy(keyOf).countWindow(2).reduce(sumEv).collectToMemory();
  auto processing = source.keyBy(keyOf).window(TumblingProcessingTimeWindows::of(1000)).reduce(sumEv).collectToMemory();
  e.execute();
  EXPECT_EQ(sortedLines(counted), (Lines{"a:3 @ " + kMax}));
  // The input ends at once; pending processing-time windows never fire.
  EXPECT_TRUE(processing->records().empty());
}

}  // namespace
}  // namespace tidemark
