// The window operators go on from a snapshot as if nothing happened: each
// kind of window state (contents of every policy, merging-window sets, trigger
// state, the window function's state, the slicing operator's panes) and the
// timers are restored, so the output after a restore is, line for line, what
// the uninterrupted run emits; after a rescale every key's results are the
// same. Types without a serializer and reserved state names are refused by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/tidemark.h"
#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/testing/operator_subtask_state.h"

namespace tidemark {
namespace {

using ::testing::HasSubstr;
using Event = std::pair<std::string, std::int64_t>;  // (key, amount)

std::string keyOf(const Event& event) { return event.first; }

struct Step {
  Event event;
  Timestamp time;
  Timestamp watermark_after;
};

/// Five keys over 0..120 ms, watermarks trailing by 4 ms, and a few elements
/// behind the watermark (late for some windows, within lateness for others).
std::vector<Step> steps() {
  const std::vector<std::string> keys = {"a", "b", "c", "d", "e"};
  std::vector<Step> result;
  for (int i = 0; i < 60; ++i) {
    const Timestamp time = 2 * i + (i % 3);
    result.push_back({{keys[(i * 7 + i / 5) % keys.size()], i + 1}, time, time - 4});
    if (i % 11 == 10) result.push_back({{keys[i % keys.size()], 100 + i}, time - 9, time - 4});
  }
  return result;
}

template <class OUT>
using Harness = KeyedOneInputStreamOperatorTestHarness<std::string, Event, OUT>;

template <class OUT>
using MakeStream = std::function<SingleOutputStreamOperator<OUT>(KeyedStream<std::string, Event>)>;

template <class OUT>
SingleOutputStreamOperator<OUT> build(const MakeStream<OUT>& make) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  return make(env.fromElements<Event>({}).keyBy(keyOf));
}

/// Feeds `steps` (the elements of `range` only, all watermarks) and ends the input.
template <class OUT>
void feed(Harness<OUT>& harness, const std::vector<Step>& steps, Timestamp& last_watermark,
          std::function<bool(const std::string&)> owns = nullptr) {
  for (const Step& step : steps) {
    if (!owns || owns(step.event.first)) harness.processElement(step.event, step.time);
    if (step.watermark_after > last_watermark) {
      harness.processWatermark(step.watermark_after);
      last_watermark = step.watermark_after;
    }
  }
}

template <class OUT>
std::vector<std::string> records(const Harness<OUT>& harness) {
  std::vector<std::string> lines;
  for (const std::string& line : harness.getOutput().lines()) {
    if (line.starts_with("Record")) lines.push_back(line);
  }
  return lines;
}

template <class OUT>
std::vector<std::string> uninterrupted(const MakeStream<OUT>& make, const std::vector<Step>& input) {
  Harness<OUT> harness(build(make));
  harness.open();
  Timestamp last = kMinWatermark;
  feed(harness, input, last);
  harness.processWatermark(kMaxWatermark);
  return harness.getOutput().lines();
}

struct Split {
  std::vector<Step> before;
  std::vector<Step> after;
  Timestamp last_watermark = kMinWatermark;
};

Split splitAt(const std::vector<Step>& input, std::size_t cut) {
  Split split{{input.begin(), input.begin() + static_cast<std::ptrdiff_t>(cut)},
              {input.begin() + static_cast<std::ptrdiff_t>(cut), input.end()}};
  for (const Step& step : split.before) split.last_watermark = std::max(split.last_watermark, step.watermark_after);
  return split;
}

/// What the run before the snapshot emitted, and the snapshot.
struct Snapshotted {
  OperatorSubtaskState state;
  std::vector<std::string> lines;
  std::vector<std::string> records;
};

template <class OUT>
Snapshotted snapshotAfter(const MakeStream<OUT>& make, const Split& split) {
  Harness<OUT> before(build(make));
  before.open();
  Timestamp last = kMinWatermark;
  feed(before, split.before, last);
  return {before.snapshot(1), before.getOutput().lines(), records(before)};
}

/// The lines of a run that is snapshotted after `cut` steps and goes on in a
/// new harness restored from that snapshot.
template <class OUT>
std::vector<std::string> restoredAfter(const MakeStream<OUT>& make, const std::vector<Step>& input, std::size_t cut) {
  const Split split = splitAt(input, cut);
  const Snapshotted before = snapshotAfter(make, split);
  std::vector<std::string> lines = before.lines;

  Harness<OUT> after(build(make));
  after.initializeState(before.state);
  after.open();
  Timestamp last = split.last_watermark;
  feed(after, split.after, last);
  after.processWatermark(kMaxWatermark);
  for (const std::string& line : after.getOutput().lines()) lines.push_back(line);
  return lines;
}

/// The records of a run snapshotted after `cut` steps at parallelism 1 and
/// restored into two subtasks, each fed its own keys; sorted.
template <class OUT>
std::vector<std::string> rescaledAfter(const MakeStream<OUT>& make, const std::vector<Step>& input, std::size_t cut) {
  const Split split = splitAt(input, cut);
  const Snapshotted before = snapshotAfter(make, split);
  const OperatorSubtaskState& state = before.state;
  std::vector<std::string> lines = before.records;

  for (int subtask = 0; subtask < 2; ++subtask) {
    Harness<OUT> half(build(make), {.parallelism = 2, .subtask_index = subtask});
    half.initializeState(state);
    half.open();
    const KeyGroupRange range = half.getOperatorContext().key_group_range;
    const KeyGroupAssigner groups(half.getOperatorContext().max_parallelism);
    Timestamp half_last = split.last_watermark;
    feed(half, split.after, half_last, [&](const std::string& key) { return range.contains(groups.keyGroupOf(key)); });
    half.processWatermark(kMaxWatermark);
    for (const std::string& line : records(half)) lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::vector<std::string> sortedRecords(std::vector<std::string> lines) {
  std::erase_if(lines, [](const std::string& line) { return !line.starts_with("Record"); });
  std::sort(lines.begin(), lines.end());
  return lines;
}

/// Every cut point gives the uninterrupted output; some cuts, after a rescale, its records.
template <class OUT>
void expectRestoresExactly(const MakeStream<OUT>& make) {
  const std::vector<Step> input = steps();
  const std::vector<std::string> expected = uninterrupted(make, input);
  ASSERT_GT(sortedRecords(expected).size(), 5u);
  for (std::size_t cut : {std::size_t{1}, input.size() / 3, input.size() / 2, input.size() - 1}) {
    EXPECT_EQ(restoredAfter(make, input, cut), expected) << "restored after " << cut << " steps";
    EXPECT_EQ(rescaledAfter(make, input, cut), sortedRecords(expected)) << "rescaled after " << cut << " steps";
  }
}

std::string window(const TimeWindow& w) { return fmt::format("[{},{})", w.start, w.end); }

/// "key total (first..last)": an accumulator of a user type with fields().
struct Totals {
  std::int64_t sum = 0;
  std::int64_t count = 0;
  auto fields() { return std::tie(sum, count); }
};

class SumToString : public AggregateFunction<Event, Totals, std::string> {
 public:
  Totals createAccumulator() override { return {}; }
  Totals add(const Event& e, Totals acc) override { return {acc.sum + e.second, acc.count + 1}; }
  std::string getResult(const Totals& acc) override { return fmt::format("{}/{}", acc.sum, acc.count); }
  Totals merge(Totals a, Totals b) override { return {a.sum + b.sum, a.count + b.count}; }
};

/// The window's values in arrival order, and how often this key fired so far
/// (the window function's own keyed state).
class ListWithFirings : public ProcessWindowFunction<Event, std::string, std::string, TimeWindow> {
 public:
  void process(const std::string& key, Context& ctx, std::span<const Event> elements,
               Collector<std::string>& out) override {
    ValueState<std::int64_t>& firings = ctx.globalState().getState(ValueStateDescriptor<std::int64_t>("firings", 0));
    firings.update(*firings.value() + 1);
    std::vector<std::int64_t> values;
    for (const Event& e : elements) values.push_back(e.second);
    out.collect(fmt::format("{} {} #{}: {}", key, window(ctx.window()), *firings.value(), fmt::join(values, ",")));
  }
};

class ListGlobal : public ProcessWindowFunction<Event, std::string, std::string, GlobalWindow> {
 public:
  void process(const std::string& key, Context&, std::span<const Event> elements, Collector<std::string>& out) override {
    std::vector<std::int64_t> values;
    for (const Event& e : elements) values.push_back(e.second);
    out.collect(fmt::format("{}: {}", key, fmt::join(values, ",")));
  }
};

TEST(WindowOperatorSnapshotTest, AggregatesWithAllowedLatenessAndTheirLateFirings) {
  expectRestoresExactly<std::string>([](KeyedStream<std::string, Event> keyed) {
    return keyed.window(TumblingEventTimeWindows::of(10)).allowedLateness(15).aggregate(SumToString{});
  });
}

TEST(WindowOperatorSnapshotTest, SessionsKeepTheirMergingWindowSetsAndTheFunctionsState) {
  expectRestoresExactly<std::string>([](KeyedStream<std::string, Event> keyed) {
    return keyed.window(EventTimeSessionWindows::withGap(7)).process(ListWithFirings{});
  });
}

TEST(WindowOperatorSnapshotTest, ACountTriggerKeepsItsCountInTriggerState) {
  expectRestoresExactly<std::string>([](KeyedStream<std::string, Event> keyed) {
    return keyed.window(GlobalWindows::create()).trigger(CountTrigger::of(3)).process(ListGlobal{});
  });
}

TEST(WindowOperatorSnapshotTest, EvictingWindowsKeepTheirElementsWithTimestamps) {
  expectRestoresExactly<std::string>([](KeyedStream<std::string, Event> keyed) {
    return keyed.window(TumblingEventTimeWindows::of(20)).evictor(CountEvictor::of(2)).process(ListWithFirings{});
  });
}

TEST(WindowOperatorSnapshotTest, SlicedTumblingAggregatesKeepTheirPanesInArrivalOrder) {
  expectRestoresExactly<std::string>([](KeyedStream<std::string, Event> keyed) {
    return keyed.window(TumblingEventTimeWindows::of(10)).aggregate(SumToString{});
  });
}

TEST(WindowOperatorSnapshotTest, SlicedSlidingSumsKeepTheirPanesAndWhichWindowsFired) {
  expectRestoresExactly<Event>([](KeyedStream<std::string, Event> keyed) {
    return keyed.window(SlidingEventTimeWindows::of(30, 10)).template sum<1>();
  });
}

TEST(WindowOperatorSnapshotTest, SlicedWindowFunctionsKeepTheirElementsAndState) {
  expectRestoresExactly<std::string>([](KeyedStream<std::string, Event> keyed) {
    return keyed.window(TumblingEventTimeWindows::of(10)).process(ListWithFirings{});
  });
}

/// An accumulator that cannot be written.
struct Opaque {
  std::int64_t sum = 0;
};

class OpaqueSum : public AggregateFunction<Event, Opaque, std::int64_t> {
 public:
  Opaque createAccumulator() override { return {}; }
  Opaque add(const Event& e, Opaque acc) override { return {acc.sum + e.second}; }
  std::int64_t getResult(const Opaque& acc) override { return acc.sum; }
  Opaque merge(Opaque a, Opaque b) override { return {a.sum + b.sum}; }
};

std::string snapshotError(Harness<std::int64_t>& harness) {
  harness.open();
  harness.processElement(Event{"a", 1}, 1);
  try {
    harness.snapshot(1);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

TEST(WindowOperatorSnapshotTest, AnAccumulatorWithoutSerializerIsNamedByBothOperators) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto keyed = env.fromElements<Event>({}).keyBy(keyOf);
  Harness<std::int64_t> sliced(keyed.window(TumblingEventTimeWindows::of(10)).aggregate(OpaqueSum{}));
  EXPECT_THAT(snapshotError(sliced), HasSubstr("its accumulator type tidemark::(anonymous namespace)::Opaque has no "
                                               "TypeSerializer"));
  Harness<std::int64_t> general(
      keyed.window(TumblingEventTimeWindows::of(10)).allowedLateness(5).aggregate(OpaqueSum{}));
  EXPECT_THAT(snapshotError(general), HasSubstr("state 'window-contents' cannot be snapshotted: its value type "
                                                "tidemark::(anonymous namespace)::Opaque has no TypeSerializer"));
}

class ReservedName : public ProcessWindowFunction<Event, std::string, std::string, TimeWindow> {
 public:
  explicit ReservedName(std::string name) : name_(std::move(name)) {}
  void process(const std::string&, Context& ctx, std::span<const Event>, Collector<std::string>&) override {
    ctx.globalState().getState(ValueStateDescriptor<std::int64_t>(name_, 0)).update(1);
  }

 private:
  std::string name_;
};

TEST(WindowOperatorSnapshotTest, AFunctionStateNamedLikeTheOperatorsOwnIsRefusedAtTheSnapshot) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto keyed = env.fromElements<Event>({}).keyBy(keyOf);
  Harness<std::string> general(
      keyed.window(TumblingEventTimeWindows::of(10)).allowedLateness(5).process(ReservedName("trigger/count")));
  general.open();
  general.processElement(Event{"a", 1}, 1);
  general.processWatermark(20);
  EXPECT_THAT([&] { general.snapshot(1); },
              ::testing::ThrowsMessage<std::exception>(HasSubstr(
                  "its state 'trigger/count' begins with 'trigger/', which names the trigger's state in a snapshot")));

  Harness<std::string> sliced(keyed.window(TumblingEventTimeWindows::of(10)).process(ReservedName("slicing-window-panes")));
  sliced.open();
  sliced.processElement(Event{"a", 1}, 1);
  sliced.processWatermark(20);
  EXPECT_THAT([&] { sliced.snapshot(1); },
              ::testing::ThrowsMessage<std::exception>(
                  HasSubstr("its window function's state 'slicing-window-panes' has the name of the window panes")));
}

TEST(WindowOperatorSnapshotTest, PanesOfAnotherAccumulatorTypeAreNotMisread) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto keyed = env.fromElements<Event>({}).keyBy(keyOf);
  Harness<std::string> strings(keyed.window(TumblingEventTimeWindows::of(10)).aggregate(SumToString{}));
  strings.open();
  strings.processElement(Event{"a", 1}, 1);
  const OperatorSubtaskState state = strings.snapshot(1);

  Harness<Event> sums(keyed.window(TumblingEventTimeWindows::of(10)).template sum<1>());
  sums.initializeState(state);
  EXPECT_THAT([&] { sums.open(); }, ::testing::ThrowsMessage<std::exception>(HasSubstr(
                                        "the snapshot's panes hold key string and accumulator pane{")));
}

}  // namespace
}  // namespace tidemark
