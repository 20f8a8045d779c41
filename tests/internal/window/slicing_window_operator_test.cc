// The slicing operator (the fast path for tumbling windows and sliding sums)
// must produce exactly what the general window operator produces: the same
// records, timestamps, order, watermarks, late side output and drop counts.
// Each case runs one pipeline twice through the operator test harness: as
// the API builds it (slicing) and with the default trigger set explicitly,
// which makes the API choose the general operator.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using Element = std::pair<std::int64_t, std::int64_t>;  // (key, value)
using Harness = KeyedOneInputStreamOperatorTestHarness<std::int64_t, Element, Element>;

const OutputTag<Element> kLate("late");
const OutputTag<Element> kLarge("windows of more than two elements");

struct Outcome {
  std::vector<std::string> main;
  std::vector<std::string> late;
  std::vector<std::string> large;  // what a window function sent to kLarge
  std::size_t entries_before_end = 0;
  std::size_t timers_before_end = 0;
  std::size_t entries_after_end = 0;
};

struct Input {
  std::vector<std::pair<Element, Timestamp>> elements;
  std::vector<Timestamp> watermarks;  // one after every `every` elements
  std::size_t every = 50;
};

/// Out-of-order input: timestamps jitter by up to `jitter` above a rising
/// line, and watermarks run near the top of that band, so many elements are late.
/// Keys are uniform over [0, keys), except that a share `hot_percent` of the
/// elements all have key 0.
Input randomInput(std::uint32_t seed, int n, int keys, Timestamp jitter, std::uint32_t hot_percent = 0) {
  std::mt19937 rng(seed);
  Input input;
  for (int i = 0; i < n; ++i) {
    const bool hot = hot_percent > 0 && rng() % 100 < hot_percent;  // no draw otherwise: inputs as before
    const std::int64_t key = hot ? 0 : static_cast<std::int64_t>(rng() % static_cast<std::uint32_t>(keys));
    const Element e{key, static_cast<std::int64_t>(rng() % 100)};
    input.elements.emplace_back(e, i * 3 - 500 + static_cast<Timestamp>(rng() % static_cast<std::uint32_t>(jitter)));
  }
  for (int i = 0; i * 50 < n; ++i) input.watermarks.push_back(i * 150 - 600 + jitter);
  return input;
}

Outcome run(const SingleOutputStreamOperator<Element>& stream, const Input& input) {
  Harness harness(stream);
  harness.captureSideOutput(kLate);
  harness.captureSideOutput(kLarge);
  harness.open();
  std::size_t next_watermark = 0;
  for (std::size_t i = 0; i < input.elements.size(); ++i) {
    harness.processElement(input.elements[i].first, input.elements[i].second);
    if (i % input.every == input.every - 1 && next_watermark < input.watermarks.size()) {
      harness.processWatermark(input.watermarks[next_watermark++]);
    }
  }
  Outcome result;
  result.entries_before_end = harness.numKeyedStateEntries();
  result.timers_before_end = harness.numEventTimeTimers();
  harness.processWatermark(kMaxWatermark);
  result.main = harness.getOutput().lines();
  for (const auto& record : harness.getSideOutput(kLate)) {
    result.late.push_back(describe(record.value) + "@" + std::to_string(record.timestamp));
  }
  for (const auto& record : harness.getSideOutput(kLarge)) {
    result.large.push_back(describe(record.value) + "@" + std::to_string(record.timestamp));
  }
  result.entries_after_end = harness.numKeyedStateEntries();
  return result;
}

KeyedStream<std::int64_t, Element> keyedInput(StreamExecutionEnvironment& env) {
  return env.fromElements<Element>({Element{0, 0}}).keyBy([](const Element& e) { return e.first; });
}

void expectSameRuns(const Outcome& fast, const Outcome& general) {
  EXPECT_EQ(fast.main, general.main);
  EXPECT_EQ(fast.late, general.late);
  EXPECT_EQ(fast.timers_before_end, general.timers_before_end);
  EXPECT_EQ(fast.entries_after_end, 0u);
  EXPECT_EQ(general.entries_after_end, 0u);
}

struct Grid {
  Duration size;
  Duration slide;
  Duration offset;
};

class SlidingSumTest : public ::testing::TestWithParam<Grid> {};

TEST_P(SlidingSumTest, MatchesTheGeneralOperator) {
  const Grid g = GetParam();
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  auto keyed = keyedInput(env);
  // A window's keys are emitted by their first arrival, and how the operator
  // orders them depends on how those arrival numbers spread: few keys (20),
  // nearly a key per element (4000: dense numbers), and one hot key with
  // rare others that first arrive far apart (sparse numbers).
  struct Keys {
    int keys;
    std::uint32_t hot_percent;
  };
  for (const Keys keys : {Keys{20, 0}, Keys{4000, 0}, Keys{50, 95}}) {
    for (std::uint32_t seed : {1u, 2u, 3u}) {
      // Jitter beyond the window size makes some elements late for all their windows.
      const Input input = randomInput(seed, 4000, keys.keys, 400 + 2 * g.size, keys.hot_percent);
      const Outcome fast =
          run(keyed.window(SlidingEventTimeWindows::of(g.size, g.slide, g.offset)).sideOutputLateData(kLate).sum<1>(),
              input);
      const Outcome general = run(keyed.window(SlidingEventTimeWindows::of(g.size, g.slide, g.offset))
                                  .trigger(EventTimeTrigger::create())
                                  .sideOutputLateData(kLate)
                                  .sum<1>(),
                              input);
      SCOPED_TRACE("keys " + std::to_string(keys.keys) + ", hot " + std::to_string(keys.hot_percent) + "%, seed " +
                   std::to_string(seed));
      expectSameRuns(fast, general);
      EXPECT_GT(fast.main.size(), 100u);
      EXPECT_FALSE(fast.late.empty()) << "the input must exercise the late path";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Grids, SlidingSumTest,
                         ::testing::Values(Grid{100, 100, 0}, Grid{300, 100, 0}, Grid{250, 100, 7},
                                           Grid{100, 40, -13}, Grid{1000, 10, 0}),
                         [](const ::testing::TestParamInfo<Grid>& param_info) {
                           const Grid& g = param_info.param;
                           return "size" + std::to_string(g.size) + "_slide" + std::to_string(g.slide) + "_offset" +
                                  (g.offset < 0 ? "minus" + std::to_string(-g.offset) : std::to_string(g.offset));
                         });

TEST(SlicingWindowOperatorTest, TumblingReduceKeepsArrivalOrderForAnyFunction) {
  // A reduce that depends on the order of its inputs: exact only if the fast
  // path folds elements in the order they arrived, as the general one does.
  auto positional = [](const Element& a, const Element& b) { return Element{a.first, a.second * 31 + b.second}; };
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  auto keyed = keyedInput(env);
  const Input input = randomInput(7, 4000, 20, 400);
  const Outcome fast = run(keyed.window(TumblingEventTimeWindows::of(100, -30)).sideOutputLateData(kLate).reduce(positional),
                       input);
  const Outcome general = run(keyed.window(TumblingEventTimeWindows::of(100, -30))
                              .trigger(EventTimeTrigger::create())
                              .sideOutputLateData(kLate)
                              .reduce(positional),
                          input);
  expectSameRuns(fast, general);
}

class Average : public AggregateFunction<Element, std::pair<std::int64_t, std::int64_t>, double> {
 public:
  std::pair<std::int64_t, std::int64_t> createAccumulator() override { return {0, 0}; }
  std::pair<std::int64_t, std::int64_t> add(const Element& e, std::pair<std::int64_t, std::int64_t> acc) override {
    return {acc.first + e.second, acc.second + 1};
  }
  double getResult(const std::pair<std::int64_t, std::int64_t>& acc) override {
    return static_cast<double>(acc.first) / static_cast<double>(acc.second);
  }
  std::pair<std::int64_t, std::int64_t> merge(std::pair<std::int64_t, std::int64_t> a,
                                              std::pair<std::int64_t, std::int64_t> b) override {
    return {a.first + b.first, a.second + b.second};
  }
};

TEST(SlicingWindowOperatorTest, TumblingAggregateMatchesTheGeneralOperator) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  auto keyed = keyedInput(env);
  const Input input = randomInput(11, 3000, 15, 300);
  auto lines = [&](const SingleOutputStreamOperator<double>& stream) {
    KeyedOneInputStreamOperatorTestHarness<std::int64_t, Element, double> harness(stream);
    harness.open();
    for (std::size_t i = 0; i < input.elements.size(); ++i) {
      harness.processElement(input.elements[i].first, input.elements[i].second);
      if (i % 50 == 49) harness.processWatermark(input.watermarks[i / 50]);
    }
    harness.processWatermark(kMaxWatermark);
    return harness.getOutput().lines();
  };
  const auto fast = lines(keyed.window(TumblingEventTimeWindows::of(200)).aggregate(Average{}));
  const auto general =
      lines(keyed.window(TumblingEventTimeWindows::of(200)).trigger(EventTimeTrigger::create()).aggregate(Average{}));
  EXPECT_EQ(fast, general);
  EXPECT_GT(fast.size(), 500u);
}

TEST(SlicingWindowOperatorTest, ExactOutputOfATumblingSum) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  Harness harness(keyedInput(env).window(TumblingEventTimeWindows::of(10)).sideOutputLateData(kLate).sum<1>());
  harness.captureSideOutput(kLate);
  harness.captureSideOutput(kLarge);
  harness.open();
  harness.processElement(Element{1, 5}, 3);
  harness.processElement(Element{2, 7}, -1);  // window [-10, 0)
  harness.processElement(Element{1, 6}, 9);
  harness.processElement(Element{2, 1}, 10);
  EXPECT_EQ(harness.numKeyedStateEntries(), 3u);  // key 1 in [0,10); key 2 in [-10,0) and [0,10)
  harness.processWatermark(8);                    // fires [-10, 0) only
  harness.processElement(Element{2, 100}, -5);    // its window fired: late
  harness.processWatermark(9);                    // end - 1: fires [0, 10)
  harness.processWatermark(kMaxWatermark);
  EXPECT_EQ(harness.getOutput().lines(),
            (std::vector<std::string>{"Record((2,7) @ -1)", "Watermark(8)", "Record((1,11) @ 9)", "Watermark(9)",
                                      "Record((2,1) @ 19)", "Watermark(9223372036854775807)"}));
  ASSERT_EQ(harness.getSideOutput(kLate).size(), 1u);
  EXPECT_EQ(harness.getSideOutput(kLate)[0].value, (Element{2, 100}));
  EXPECT_EQ(harness.getSideOutput(kLate)[0].timestamp, -5);
  EXPECT_EQ(harness.numKeyedStateEntries(), 0u);
}

TEST(SlicingWindowOperatorTest, RecordWithoutTimestampIsAClearError) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  Harness harness(keyedInput(env).window(TumblingEventTimeWindows::of(10)).sum<1>());
  harness.open();
  try {
    harness.processElement(Element{1, 5});
    FAIL() << "expected a failure";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("record has no timestamp"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("TumblingEventTimeWindows(10)"), std::string::npos) << e.what();
  }
}

class LateSource : public SourceFunction<Element> {
 public:
  void run(SourceContext<Element>& ctx) override {
    ctx.collectWithTimestamp(Element{1, 1}, 5);
    ctx.emitWatermark(20);                       // fires [0, 10)
    ctx.collectWithTimestamp(Element{1, 2}, 7);  // late, no side output: dropped and counted
    ctx.collectWithTimestamp(Element{1, 3}, 25);
  }
};

TEST(SlicingWindowOperatorTest, LateRecordsWithoutSideOutputAreCountedInTheJobResult) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  auto sums = env.addSource(LateSource{}, "source")
                  .keyBy([](const Element& e) { return e.first; })
                  .window(TumblingEventTimeWindows::of(10))
                  .sum<1>()
                  .name("sums");
  auto collected = sums.collectToMemory();
  const JobExecutionResult result = env.execute("late");
  EXPECT_EQ(result.counter("sums", "numLateRecordsDropped"), 1u);
  std::vector<std::string> values;
  for (const auto& record : collected->records()) values.push_back(describe(record.value) + "@" + std::to_string(record.timestamp));
  EXPECT_EQ(values, (std::vector<std::string>{"(1,1)@9", "(1,3)@29"}));
}

/// A window function whose output depends on the window, on the order of its
/// elements and, through keyed state, on the key's earlier windows; it emits
/// a second record for windows of more than two elements.
class OrderSensitiveApply : public WindowFunction<Element, Element, std::int64_t, TimeWindow> {
 public:
  void open() override { windows_seen_ = &getRuntimeContext().getState(ValueStateDescriptor<std::int64_t>("windows")); }
  void apply(const std::int64_t& key, const TimeWindow& window, std::span<const Element> elements,
             Collector<Element>& out) override {
    const std::int64_t seen = windows_seen_->value().value_or(0) + 1;
    windows_seen_->update(seen);
    // Unsigned, so that the fold wraps instead of overflowing.
    auto fold = static_cast<std::uint64_t>(window.start * 7 + window.end);
    for (const Element& e : elements) fold = fold * 31 + static_cast<std::uint64_t>(e.second);
    out.collect(Element{key, static_cast<std::int64_t>(fold % 1'000'000'007) * 100 + seen});
    if (elements.size() > 2) out.collect(Element{key, static_cast<std::int64_t>(elements.size())});
  }

 private:
  ValueState<std::int64_t>* windows_seen_ = nullptr;
};

template <class Pre, class Function>
using SlicingWindowFunctionOperator =
    internal::SlicingWindowOperator<std::int64_t, Element, internal::SlicingWindowFunction<Element, Pre, Function>>;
using ApplyOperator =
    SlicingWindowFunctionOperator<internal::SlicingElements<Element>,
                                  internal::WindowFunctionAdapter<Element, Element, std::int64_t, TimeWindow>>;

template <class Operator, class OUT>
bool runsOn(const SingleOutputStreamOperator<OUT>& stream) {
  const auto* node = dynamic_cast<const internal::OneInputNode<Element, OUT>*>(&stream.graph()->node(stream.getId()));
  return node != nullptr && dynamic_cast<Operator*>(node->createTypedOperator().get()) != nullptr;
}

bool runsOnTheSlicingOperator(const SingleOutputStreamOperator<Element>& stream) {
  return runsOn<ApplyOperator>(stream);
}

TEST(SlicingWindowOperatorTest, TumblingApplyMatchesTheGeneralOperator) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  auto keyed = keyedInput(env);
  for (std::uint32_t seed : {5u, 6u}) {
    // Few keys (many elements per window) and many (mostly one).
    for (int keys : {12, 3000}) {
      const Input input = randomInput(seed, 4000, keys, 500);
      const auto fast_stream = keyed.window(TumblingEventTimeWindows::of(200, 30)).sideOutputLateData(kLate).apply(OrderSensitiveApply{});
      const auto general_stream = keyed.window(TumblingEventTimeWindows::of(200, 30))
                                      .trigger(EventTimeTrigger::create())
                                      .sideOutputLateData(kLate)
                                      .apply(OrderSensitiveApply{});
      ASSERT_TRUE(runsOnTheSlicingOperator(fast_stream));
      ASSERT_FALSE(runsOnTheSlicingOperator(general_stream));
      const Outcome fast = run(fast_stream, input);
      const Outcome general = run(general_stream, input);
      SCOPED_TRACE("keys " + std::to_string(keys) + ", seed " + std::to_string(seed));
      EXPECT_EQ(fast.main, general.main);
      EXPECT_EQ(fast.late, general.late);
      EXPECT_EQ(fast.timers_before_end, general.timers_before_end);
      EXPECT_GT(fast.main.size(), 300u);
      EXPECT_FALSE(fast.late.empty()) << "the input must exercise the late path";
      // Only the function's own state (a count per key) outlives the windows.
      EXPECT_EQ(fast.entries_after_end, general.entries_after_end);
      EXPECT_GT(fast.entries_after_end, 0u);
    }
  }
}

TEST(SlicingWindowOperatorTest, ExactOutputOfATumblingApply) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  Harness harness(keyedInput(env).window(TumblingEventTimeWindows::of(10)).apply<Element>(
      [](const std::int64_t& key, const TimeWindow& window, std::span<const Element> elements, Collector<Element>& out) {
        std::int64_t digits = 0;
        for (const Element& e : elements) digits = digits * 10 + e.second;
        out.collect(Element{key * 1000 + window.start, digits});
      }));
  harness.open();
  harness.processElement(Element{2, 1}, 3);
  harness.processElement(Element{1, 2}, 4);
  harness.processElement(Element{2, 3}, 12);  // window [10, 20)
  harness.processElement(Element{2, 4}, 9);
  harness.processElement(Element{1, 5}, 0);
  harness.processWatermark(9);  // fires [0, 10): key 2 arrived first
  harness.processElement(Element{1, 6}, 8);  // late: dropped
  harness.processWatermark(kMaxWatermark);
  EXPECT_EQ(harness.getOutput().lines(),
            (std::vector<std::string>{"Record((2000,14) @ 9)", "Record((1000,25) @ 9)", "Watermark(9)",
                                      "Record((2010,3) @ 19)", "Watermark(9223372036854775807)"}));
  EXPECT_EQ(harness.numKeyedStateEntries(), 0u);
}

/// A ProcessWindowFunction whose output depends on the window, the watermark,
/// the order of its elements and the key's earlier windows (global state);
/// it keeps a per-window count that its clear() removes, and sends windows of
/// more than two elements to a side output as well.
class OrderSensitiveProcess : public ProcessWindowFunction<Element, Element, std::int64_t, TimeWindow> {
 public:
  void process(const std::int64_t& key, Context& ctx, std::span<const Element> elements,
               Collector<Element>& out) override {
    ValueState<std::int64_t>& seen_state = ctx.globalState().getState(kWindowsSeen);
    const std::int64_t seen = seen_state.value().value_or(0) + 1;
    seen_state.update(seen);
    ctx.windowState().getState(kElements).update(static_cast<std::int64_t>(elements.size()));
    // Unsigned, so that the fold wraps instead of overflowing.
    auto fold = static_cast<std::uint64_t>(ctx.window().start * 7 + ctx.window().end) +
                static_cast<std::uint64_t>(ctx.currentWatermark());
    for (const Element& e : elements) fold = fold * 31 + static_cast<std::uint64_t>(e.second);
    out.collect(Element{key, static_cast<std::int64_t>(fold % 1'000'000'007) * 100 + seen});
    if (elements.size() > 2) ctx.output(kLarge, Element{key, static_cast<std::int64_t>(elements.size())});
  }
  void clear(Context& ctx) override { ctx.windowState().getState(kElements).clear(); }

 private:
  inline static const ValueStateDescriptor<std::int64_t> kWindowsSeen{"windows"};
  inline static const ValueStateDescriptor<std::int64_t> kElements{"elements of this window"};
};

/// The distinct keys of "Record((key,value) @ t)" lines.
std::size_t keysIn(const std::vector<std::string>& lines) {
  std::set<std::string> keys;
  for (const std::string& line : lines) {
    if (line.starts_with("Record((")) keys.insert(line.substr(8, line.find(',') - 8));
  }
  return keys.size();
}

TEST(SlicingWindowOperatorTest, TumblingProcessMatchesTheGeneralOperator) {
  using ProcessOperator =
      SlicingWindowFunctionOperator<internal::SlicingElements<Element>,
                                    internal::ProcessWindowFunctionAdapter<Element, Element, std::int64_t, TimeWindow>>;
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  auto keyed = keyedInput(env);
  for (std::uint32_t seed : {8u, 9u}) {
    for (int keys : {12, 3000}) {
      const Input input = randomInput(seed, 4000, keys, 500);
      const auto fast_stream =
          keyed.window(TumblingEventTimeWindows::of(200, 30)).sideOutputLateData(kLate).process(OrderSensitiveProcess{});
      const auto general_stream = keyed.window(TumblingEventTimeWindows::of(200, 30))
                                      .trigger(EventTimeTrigger::create())
                                      .sideOutputLateData(kLate)
                                      .process(OrderSensitiveProcess{});
      ASSERT_TRUE(runsOn<ProcessOperator>(fast_stream));
      ASSERT_FALSE(runsOn<ProcessOperator>(general_stream));
      const Outcome fast = run(fast_stream, input);
      const Outcome general = run(general_stream, input);
      SCOPED_TRACE("keys " + std::to_string(keys) + ", seed " + std::to_string(seed));
      EXPECT_EQ(fast.main, general.main);
      EXPECT_EQ(fast.late, general.late);
      EXPECT_EQ(fast.large, general.large);
      EXPECT_EQ(fast.timers_before_end, general.timers_before_end);
      EXPECT_GT(fast.main.size(), 300u);
      EXPECT_FALSE(fast.late.empty()) << "the input must exercise the late path";
      if (keys == 12) {
        EXPECT_FALSE(fast.large.empty()) << "the input must exercise the side output";
      }
      // The per-window counts are cleared; the count per key stays.
      EXPECT_EQ(fast.entries_after_end, general.entries_after_end);
      EXPECT_EQ(fast.entries_after_end, keysIn(fast.main)) << "one count per key that had a window";
    }
  }
}

/// After reduce() or aggregate(): the one pre-aggregated value, with the
/// window and the key's earlier windows.
template <class V>
class DescribeWindow : public ProcessWindowFunction<V, Element, std::int64_t, TimeWindow> {
 public:
  using Context = typename ProcessWindowFunction<V, Element, std::int64_t, TimeWindow>::Context;
  void process(const std::int64_t& key, Context& ctx, std::span<const V> values, Collector<Element>& out) override {
    ValueState<std::int64_t>& seen_state = ctx.globalState().getState(ValueStateDescriptor<std::int64_t>("windows"));
    const std::int64_t seen = seen_state.value().value_or(0) + 1;
    seen_state.update(seen);
    const auto value = static_cast<std::int64_t>(valueOf(values[0]) * 1000);
    out.collect(Element{key * 100'000 + static_cast<std::int64_t>(values.size()) * 10'000 + ctx.window().start,
                        value * 100 + seen});
  }

 private:
  static double valueOf(const Element& e) { return static_cast<double>(e.second); }
  static double valueOf(double d) { return d; }
};

TEST(SlicingWindowOperatorTest, TumblingReduceAndAggregateWithAProcessFunctionMatchTheGeneralOperator) {
  auto positional = [](const Element& a, const Element& b) {
    return Element{a.first, (a.second * 31 + b.second) % 1'000'003};
  };
  using ReduceOperator = SlicingWindowFunctionOperator<
      internal::SlicingReduce<Element, decltype(internal::asCallable(positional))>,
      internal::ProcessWindowFunctionAdapter<Element, Element, std::int64_t, TimeWindow>>;
  using AggregateOperator = SlicingWindowFunctionOperator<
      internal::SlicingAggregate<Element, std::pair<std::int64_t, std::int64_t>, double>,
      internal::ProcessWindowFunctionAdapter<double, Element, std::int64_t, TimeWindow>>;
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  auto keyed = keyedInput(env);
  const Input input = randomInput(12, 4000, 15, 500);
  auto windows = [&] { return keyed.window(TumblingEventTimeWindows::of(100, -30)); };

  const auto fast_reduce = windows().sideOutputLateData(kLate).reduce(positional, DescribeWindow<Element>{});
  const auto general_reduce = windows()
                                  .trigger(EventTimeTrigger::create())
                                  .sideOutputLateData(kLate)
                                  .reduce(positional, DescribeWindow<Element>{});
  ASSERT_TRUE(runsOn<ReduceOperator>(fast_reduce));
  ASSERT_FALSE(runsOn<ReduceOperator>(general_reduce));
  const Outcome reduced = run(fast_reduce, input);
  EXPECT_EQ(reduced.main, run(general_reduce, input).main);
  EXPECT_FALSE(reduced.late.empty());

  const auto fast_aggregate = windows().sideOutputLateData(kLate).aggregate(Average{}, DescribeWindow<double>{});
  const auto general_aggregate = windows()
                                     .trigger(EventTimeTrigger::create())
                                     .sideOutputLateData(kLate)
                                     .aggregate(Average{}, DescribeWindow<double>{});
  ASSERT_TRUE(runsOn<AggregateOperator>(fast_aggregate));
  ASSERT_FALSE(runsOn<AggregateOperator>(general_aggregate));
  const Outcome aggregated = run(fast_aggregate, input);
  EXPECT_EQ(aggregated.main, run(general_aggregate, input).main);
  EXPECT_GT(aggregated.main.size(), 500u);
  EXPECT_EQ(aggregated.entries_after_end, 15u) << "only the count per key outlives the windows";
}

TEST(SlicingWindowOperatorTest, ExactOutputOfATumblingAggregateWithAProcessFunction) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  Harness harness(keyedInput(env).window(TumblingEventTimeWindows::of(10)).aggregate(Average{},
                                                                                     DescribeWindow<double>{}));
  harness.open();
  harness.processElement(Element{2, 1}, 3);
  harness.processElement(Element{1, 2}, 4);
  harness.processElement(Element{2, 4}, 12);  // window [10, 20)
  harness.processElement(Element{2, 4}, 9);
  harness.processWatermark(9);               // fires [0, 10): key 2 arrived first
  harness.processElement(Element{1, 6}, 8);  // late: dropped
  harness.processWatermark(kMaxWatermark);
  EXPECT_EQ(harness.getOutput().lines(),
            (std::vector<std::string>{"Record((210000,250001) @ 9)", "Record((110000,200001) @ 9)", "Watermark(9)",
                                      "Record((210010,400002) @ 19)", "Watermark(9223372036854775807)"}));
}

}  // namespace
}  // namespace tidemark
