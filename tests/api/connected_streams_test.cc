// DataStream::connect end to end: co-map, co-flat-map, co-process and keyed
// co-process, run in simulated time so that the interleaving of the two
// inputs and every watermark is exact.
//
// Inputs are ScriptedSources (one subtask) whose steps happen at distinct
// instants; where a test needs watermarks, each element is followed by a
// watermark equal to its timestamp (a punctuated generator), so event time on
// each input is exactly "the timestamp of its last element".
#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

template <class T>
using Script = typename ScriptedSource<T>::Script;

/// Every event's timestamp becomes the watermark right after it.
template <class T>
class TimestampIsWatermark final : public WatermarkGenerator<T> {
 public:
  void onEvent(const T&, Timestamp event_timestamp, tidemark::WatermarkOutput& output) override {
    output.emitWatermark(event_timestamp);
  }
  void onPeriodicEmit(tidemark::WatermarkOutput&) override {}
};

template <class T>
WatermarkStrategy<T> punctuated() {
  return WatermarkStrategy<T>::forGenerator(
      [] { return std::unique_ptr<WatermarkGenerator<T>>(std::make_unique<TimestampIsWatermark<T>>()); });
}

/// A one-subtask input playing `script`, ending its input at `end_at`.
template <class T>
DataStream<T> scripted(StreamExecutionEnvironment& env, Script<T> script, Duration end_at) {
  ScriptedSource<T> source = ScriptedSource<T>::single(std::move(script));
  source.endAt(end_at);
  DataStream<T> stream = env.addSource(source, "script").setParallelism(1);
  return stream;
}

/// The same, with a watermark after every element (see the file comment).
template <class T>
DataStream<T> scriptedWithWatermarks(StreamExecutionEnvironment& env, Script<T> script, Duration end_at) {
  DataStream<T> stream =
      scripted<T>(env, std::move(script), end_at).assignTimestampsAndWatermarks(punctuated<T>()).setParallelism(1);
  return stream;
}

std::string watermarkText(Timestamp watermark) {
  if (watermark == kMinWatermark) return "MIN";
  if (watermark == kMaxWatermark) return "MAX";
  return std::to_string(watermark);
}

std::string timestampText(const std::optional<Timestamp>& timestamp) {
  return timestamp ? std::to_string(*timestamp) : "none";
}

StreamExecutionEnvironment simulatedEnv(int parallelism = 1) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(parallelism).enableSimulatedTime(0);
  return env;
}

template <class T>
std::vector<T> sorted(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  return values;
}

// ---- co-map and co-flat-map ----

TEST(ConnectedStreamsTest, CoMapWithTwoLambdasKeepsArrivalOrderAndTimestamps) {
  auto env = simulatedEnv();
  auto numbers = scripted<int>(env, {{0, 1, 10}, {200, 2, 20}, {400, 3, 30}}, 500);
  auto words = scripted<std::string>(env, {{100, "a", std::nullopt}, {300, "b", 40}}, 500);
  auto out = numbers.connect(words)
                 .map([](const int& n) { return fmt::format("int {}", n); },
                      [](const std::string& s) { return "str " + s; })
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(out->values(), ElementsAre("int 1", "str a", "int 2", "str b", "int 3"));
  std::vector<std::string> stamps;
  for (const auto& r : out->records()) stamps.push_back(timestampText(r.optionalTimestamp()));
  EXPECT_THAT(stamps, ElementsAre("10", "none", "20", "40", "30"));
}

/// One instance serves both inputs: the second input sets what the first prints.
class PrefixMapper : public CoMapFunction<int, std::string, std::string> {
 public:
  std::string map1(const int& n) override { return prefix_ + std::to_string(n); }
  std::string map2(const std::string& prefix) override {
    prefix_ = prefix;
    return "prefix=" + prefix;
  }

 private:
  std::string prefix_ = "?";
};

TEST(ConnectedStreamsTest, CoMapFunctionSharesOneInstanceBetweenInputs) {
  auto env = simulatedEnv();
  auto numbers = scripted<int>(env, {{0, 1}, {200, 2}, {400, 3}}, 500);
  auto prefixes = scripted<std::string>(env, {{100, "x"}, {300, "y"}}, 500);
  auto out = numbers.connect(prefixes).map(PrefixMapper{}).collectToMemory();
  env.execute();

  EXPECT_THAT(out->values(), ElementsAre("?1", "prefix=x", "x2", "prefix=y", "y3"));
}

TEST(ConnectedStreamsTest, CoFlatMapWithLambdasEmitsZeroOrMorePerElement) {
  auto env = simulatedEnv();
  auto lines = scripted<std::string>(env, {{0, "to be", 5}, {200, "", 6}}, 500);
  auto counts = scripted<int>(env, {{100, 2, 7}, {300, 0, 8}}, 500);
  auto out = lines.connect(counts)
                 .flatMap<std::string>(
                     [](const std::string& line, Collector<std::string>& collector) {
                       std::size_t start = 0;
                       while (start < line.size()) {
                         const std::size_t end = std::min(line.find(' ', start), line.size());
                         collector.collect(line.substr(start, end - start));
                         start = end + 1;
                       }
                     },
                     [](const int& n, Collector<std::string>& collector) {
                       for (int i = 0; i < n; ++i) collector.collect(fmt::format("#{}", i));
                     })
                 .collectToMemory();
  env.execute();

  std::vector<std::string> seen;
  for (const auto& r : out->records()) seen.push_back(r.value + "@" + timestampText(r.optionalTimestamp()));
  EXPECT_THAT(seen, ElementsAre("to@5", "be@5", "#0@7", "#1@7"));
}

/// Flink's classic: a control input names words to drop from the data input.
class DropListed : public CoFlatMapFunction<std::string, std::string, std::string> {
 public:
  void flatMap1(const std::string& blocked, Collector<std::string>&) override { blocked_.insert(blocked); }
  void flatMap2(const std::string& word, Collector<std::string>& out) override {
    if (!blocked_.contains(word)) out.collect(word);
  }

 private:
  std::set<std::string> blocked_;
};

TEST(ConnectedStreamsTest, CoFlatMapFunctionSubclass) {
  auto env = simulatedEnv();
  auto control = scripted<std::string>(env, {{0, "DROP"}, {0, "IGNORE"}}, 100);
  auto words = scripted<std::string>(env, {{10, "Apache"}, {20, "DROP"}, {30, "Flink"}, {40, "IGNORE"}}, 100);
  auto out = control.connect(words).flatMap(DropListed{}).collectToMemory();
  env.execute();

  EXPECT_THAT(out->values(), ElementsAre("Apache", "Flink"));
}

TEST(ConnectedStreamsTest, UnionedStreamCanBeConnected) {
  auto env = simulatedEnv();
  auto a = scripted<int>(env, {{0, 1}, {200, 2}}, 300);
  auto b = scripted<int>(env, {{100, 10}}, 300);
  auto c = scripted<std::string>(env, {{50, "c"}}, 300);
  auto out = a.union_(b)
                 .connect(c)
                 .map([](const int& n) { return std::to_string(n); }, [](const std::string& s) { return s; })
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(out->values(), ElementsAre("1", "c", "10", "2"));
}

TEST(ConnectedStreamsTest, AStreamConnectedToItselfFeedsBothInputs) {
  auto env = simulatedEnv();
  auto a = scripted<int>(env, {{0, 1}, {100, 2}}, 200);
  auto out = a.connect(a)
                 .map([](const int& n) { return fmt::format("first {}", n); },
                      [](const int& n) { return fmt::format("second {}", n); })
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(sorted(out->values()), ElementsAre("first 1", "first 2", "second 1", "second 2"));
}

TEST(ConnectedStreamsTest, ConnectingStreamsOfDifferentEnvironmentsIsRefused) {
  auto env1 = simulatedEnv();
  auto env2 = simulatedEnv();
  auto a = env1.fromElements<int>({1});
  auto b = env2.fromElements<int>({2});
  EXPECT_THROW(a.connect(b), std::invalid_argument);
}

// ---- co-process: the combined watermark ----

/// Reports, per element, which input it came from, its timestamp and the
/// operator's event time before it.
class WatermarkReporter : public CoProcessFunction<std::string, std::string, std::string> {
 public:
  void processElement1(const std::string& v, Context& ctx, Collector<std::string>& out) override {
    out.collect(report(v, ctx));
  }
  void processElement2(const std::string& v, Context& ctx, Collector<std::string>& out) override {
    out.collect(report(v, ctx));
  }

 private:
  static std::string report(const std::string& v, Context& ctx) {
    return fmt::format("{}@{} wm={}", v, timestampText(ctx.timestamp()),
                       watermarkText(ctx.timerService().currentWatermark()));
  }
};

TEST(ConnectedStreamsTest, CoProcessSeesTheMinimumOfBothInputsWatermarks) {
  auto env = simulatedEnv();
  auto a = scriptedWithWatermarks<std::string>(env, {{0, "a1", 1000}, {1000, "a2", 2000}, {2000, "a3", 3000}}, 5000);
  auto b = scriptedWithWatermarks<std::string>(env, {{500, "b1", 500}, {1500, "b2", 1500}, {2500, "b3", 2500}}, 5000);
  auto out = a.connect(b).process(WatermarkReporter{}).collectToMemory();
  env.execute();

  // Input A is always ahead, so event time follows B; nothing moves before B's first watermark.
  EXPECT_THAT(out->values(), ElementsAre("a1@1000 wm=MIN", "b1@500 wm=MIN", "a2@2000 wm=500", "b2@1500 wm=500",
                                         "a3@3000 wm=1500", "b3@2500 wm=1500"));
}

TEST(ConnectedStreamsTest, CoProcessEventTimeStaysMinWhileOneInputIsSilent) {
  auto env = simulatedEnv();
  auto a = scriptedWithWatermarks<std::string>(env, {{0, "a1", 1000}, {1000, "a2", 2000}, {2000, "a3", 3000}}, 5000);
  // B has records but never a watermark until its input ends at 1200 (MAX).
  auto b = scripted<std::string>(env, {{500, "b1", 500}}, 1200);
  auto out = a.connect(b).process(WatermarkReporter{}).collectToMemory();
  env.execute();

  EXPECT_THAT(out->values(), ElementsAre("a1@1000 wm=MIN", "b1@500 wm=MIN", "a2@2000 wm=MIN", "a3@3000 wm=2000"));
}

/// Emits one record, a watermark, then declares itself idle.
class GoesIdle final : public SourceFunction<std::string> {
 public:
  void run(SourceContext<std::string>& ctx) override {
    ctx.sleep(100);
    ctx.collectWithTimestamp("b1", 100);
    ctx.emitWatermark(100);
    ctx.sleep(400);
    ctx.markAsTemporarilyIdle();
    ctx.sleep(4500);
  }
};

TEST(ConnectedStreamsTest, CoProcessIgnoresAnIdleInput) {
  auto env = simulatedEnv();
  auto a = scriptedWithWatermarks<std::string>(env, {{0, "a1", 1000}, {1000, "a2", 2000}, {2000, "a3", 3000}}, 5000);
  auto b = env.addSource(GoesIdle{}, "idle");
  auto out = a.connect(b).process(WatermarkReporter{}).collectToMemory();
  env.execute();

  // From 500 on, B is idle and event time is A's alone.
  EXPECT_THAT(out->values(), ElementsAre("a1@1000 wm=MIN", "b1@100 wm=MIN", "a2@2000 wm=1000", "a3@3000 wm=2000"));
}

class RegistersTimer : public CoProcessFunction<int, int, int> {
 public:
  void processElement1(const int&, Context& ctx, Collector<int>&) override {
    ctx.timerService().registerEventTimeTimer(100);
  }
  void processElement2(const int&, Context&, Collector<int>&) override {}
};

TEST(ConnectedStreamsTest, CoProcessRefusesTimersWithoutKeys) {
  auto env = simulatedEnv();
  auto a = env.fromElements<int>({1});
  auto b = env.fromElements<int>({2});
  a.connect(b).process(RegistersTimer{}).collectToMemory();
  try {
    env.execute();
    FAIL() << "a timer on a non-keyed co-process must fail the job";
  } catch (const JobExecutionException& e) {
    EXPECT_THAT(e.what(), HasSubstr("keyed stream"));
  }
}

// ---- keyed connect ----

using Control = std::pair<std::string, bool>;  // (word, blocked)

/// Blocks and unblocks words per key; the state written by the control input
/// is read by the word input of the same key.
class WordGate : public KeyedCoProcessFunction<std::string, Control, std::string, std::string> {
 public:
  void open() override { blocked_ = &getRuntimeContext().getState(ValueStateDescriptor<bool>("blocked")); }
  void processElement1(const Control& control, Context& ctx, Collector<std::string>&) override {
    EXPECT_EQ(ctx.getCurrentKey(), control.first);
    blocked_->update(control.second);
  }
  void processElement2(const std::string& word, Context& ctx, Collector<std::string>& out) override {
    EXPECT_EQ(ctx.getCurrentKey(), word);
    if (!blocked_->value().value_or(false)) out.collect(word);
  }

 private:
  ValueState<bool>* blocked_ = nullptr;
};

Script<Control> gateControl() {
  return {{0, {"DROP", true}}, {0, {"IGNORE", true}}, {500, {"DROP", false}}};
}
Script<std::string> gateWords() {
  return {{100, "Apache"}, {200, "DROP"}, {300, "Flink"}, {400, "IGNORE"}, {600, "DROP"}, {700, "IGNORE"}};
}

TEST(ConnectedStreamsTest, KeyedConnectSharesStateBetweenInputsViaConnectedKeyBy) {
  auto env = simulatedEnv();
  auto control = scripted<Control>(env, gateControl(), 1000);
  auto words = scripted<std::string>(env, gateWords(), 1000);
  auto out = control.connect(words)
                 .keyBy([](const Control& c) { return c.first; }, [](const std::string& w) { return w; })
                 .process(WordGate{})
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(out->values(), ElementsAre("Apache", "Flink", "DROP"));
}

TEST(ConnectedStreamsTest, KeyedStreamConnectSharesStateBetweenInputs) {
  auto env = simulatedEnv();
  auto control = scripted<Control>(env, gateControl(), 1000).keyBy([](const Control& c) { return c.first; });
  auto words = scripted<std::string>(env, gateWords(), 1000).keyBy([](const std::string& w) { return w; });
  KeyedConnectedStreams<std::string, Control, std::string> connected = control.connect(words);
  auto out = connected.process(WordGate{}).collectToMemory();
  env.execute();

  EXPECT_THAT(out->values(), ElementsAre("Apache", "Flink", "DROP"));
}

/// Counts per key across both inputs; reports the count and its own subtask.
class CountBothInputs : public KeyedCoProcessFunction<std::string, std::string, std::string,
                                                      std::pair<std::string, int>> {
 public:
  void open() override { count_ = &getRuntimeContext().getState(ValueStateDescriptor<int>("count")); }
  void processElement1(const std::string& key, Context&, Collector<std::pair<std::string, int>>& out) override {
    emit("1:" + key, out);
  }
  void processElement2(const std::string& key, Context& ctx, Collector<std::pair<std::string, int>>& out) override {
    emit("2:" + key, out);
    ctx.timerService().registerEventTimeTimer(*ctx.timestamp() + 1000);
  }
  void onTimer(Timestamp t, OnTimerContext& ctx, Collector<std::pair<std::string, int>>& out) override {
    emit(fmt::format("timer {}@{}", ctx.getCurrentKey(), t), out);
  }

 private:
  void emit(const std::string& what, Collector<std::pair<std::string, int>>& out) {
    const int n = count_->value().value_or(0) + 1;
    count_->update(n);
    out.collect({fmt::format("{} #{}", what, n), getRuntimeContext().getIndexOfThisSubtask()});
  }
  ValueState<int>* count_ = nullptr;
};

std::vector<std::pair<std::string, int>> runCountBothInputs(int parallelism) {
  auto env = simulatedEnv(parallelism);
  const std::vector<std::string> keys = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};
  Script<std::string> first;
  Script<std::string> second;
  for (std::size_t i = 0; i < 24; ++i) {
    const auto at = static_cast<Duration>(i) * 100;
    first.push_back({at, keys[i % keys.size()], at});
    second.push_back({at + 50, keys[(i * 3) % keys.size()], at + 50});
  }
  auto a = scriptedWithWatermarks<std::string>(env, first, 5000).keyBy([](const std::string& k) { return k; });
  auto b = scriptedWithWatermarks<std::string>(env, second, 5000).keyBy([](const std::string& k) { return k; });
  auto out = a.connect(b).process(CountBothInputs{}).collectToMemory();
  env.execute();
  return out->values();
}

TEST(ConnectedStreamsTest, KeyedCoProcessParallelismTwoGivesTheSameMultisetAsOne) {
  const auto serial = runCountBothInputs(1);
  const auto parallel = runCountBothInputs(2);
  std::vector<std::string> serial_values;
  std::vector<std::string> parallel_values;
  std::set<int> subtasks;
  for (const auto& [v, subtask] : serial) serial_values.push_back(v);
  for (const auto& [v, subtask] : parallel) {
    parallel_values.push_back(v);
    subtasks.insert(subtask);
  }
  EXPECT_EQ(serial_values.size(), 24u * 3u);
  EXPECT_EQ(sorted(serial_values), sorted(parallel_values));
  EXPECT_EQ(subtasks, (std::set<int>{0, 1})) << "both subtasks should own some of the eight keys";
}

/// Registers an event-time timer 500 ms after each element of input 1 and
/// reports it when it fires, with the watermark that fired it.
class DelayedReport : public KeyedCoProcessFunction<std::string, std::string, std::string, std::string> {
 public:
  void processElement1(const std::string&, Context& ctx, Collector<std::string>&) override {
    ctx.timerService().registerEventTimeTimer(*ctx.timestamp() + 500);
  }
  void processElement2(const std::string&, Context&, Collector<std::string>&) override {}
  void onTimer(Timestamp t, OnTimerContext& ctx, Collector<std::string>& out) override {
    EXPECT_EQ(ctx.timeDomain(), TimeDomain::EVENT_TIME);
    EXPECT_EQ(ctx.timestamp(), t);
    out.collect(fmt::format("{}@{} wm={}", ctx.getCurrentKey(), t, watermarkText(ctx.timerService().currentWatermark())));
  }
};

/// Tags each element with the event time its operator had seen before it.
class TagWithWatermark : public ProcessFunction<std::string, std::string> {
 public:
  void processElement(const std::string& v, Context& ctx, Collector<std::string>& out) override {
    out.collect(fmt::format("{} ts={} before wm={}", v, timestampText(ctx.timestamp()),
                            watermarkText(ctx.timerService().currentWatermark())));
  }
};

TEST(ConnectedStreamsTest, KeyedCoProcessEventTimersFireWhenTheCombinedWatermarkPasses) {
  auto env = simulatedEnv();
  auto data = scriptedWithWatermarks<std::string>(env, {{0, "x", 1000}, {1000, "y", 1500}, {3000, "z", 4000}}, 6000)
                  .keyBy([](const std::string& k) { return k; });
  auto ticks = scriptedWithWatermarks<std::string>(env, {{500, "x", 200}, {2000, "x", 2500}, {4000, "x", 5000}}, 7000)
                   .keyBy([](const std::string& k) { return k; });
  auto out = data.connect(ticks).process(DelayedReport{}).process(TagWithWatermark{}).collectToMemory();
  env.execute();

  // Combined watermark: 200 (t=500), 1500 (t=2000), 2500 (t=3000), 4000 (t=4000), 5000 (t=6000, the
  // data input ends), MAX (t=7000).
  // A timer's output reaches downstream before the watermark that fired it.
  EXPECT_THAT(out->values(), ElementsAre("x@1500 wm=1500 ts=1500 before wm=200", "y@2000 wm=2500 ts=2000 before wm=1500",
                                         "z@4500 wm=5000 ts=4500 before wm=4000"));
}

class ProcessingTimeReport : public KeyedCoProcessFunction<std::string, std::string, std::string, std::string> {
 public:
  void processElement1(const std::string&, Context&, Collector<std::string>&) override {}
  void processElement2(const std::string&, Context& ctx, Collector<std::string>&) override {
    ctx.timerService().registerProcessingTimeTimer(ctx.timerService().currentProcessingTime() + 300);
  }
  void onTimer(Timestamp t, OnTimerContext& ctx, Collector<std::string>& out) override {
    out.collect(fmt::format("{} {} at {} now={}", ctx.getCurrentKey(),
                            ctx.timeDomain() == TimeDomain::PROCESSING_TIME ? "processing" : "event", t,
                            ctx.timerService().currentProcessingTime()));
  }
};

TEST(ConnectedStreamsTest, KeyedCoProcessProcessingTimeTimerHasNoTimestamp) {
  auto env = simulatedEnv();
  auto a = scripted<std::string>(env, {}, 1000).keyBy([](const std::string& k) { return k; });
  auto b = scripted<std::string>(env, {{100, "k", 100}}, 1000).keyBy([](const std::string& k) { return k; });
  auto out = a.connect(b).process(ProcessingTimeReport{}).collectToMemory();
  env.execute();

  const auto records = out->records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].value, "k processing at 400 now=400");
  EXPECT_FALSE(records[0].has_timestamp);
}

TEST(ConnectedStreamsTest, UnkeyedMapOnKeyedConnectedStreamsKeepsWorking) {
  auto env = simulatedEnv();
  auto control = scripted<Control>(env, gateControl(), 1000);
  auto words = scripted<std::string>(env, gateWords(), 1000);
  auto out = control.connect(words)
                 .keyBy([](const Control& c) { return c.first; }, [](const std::string& w) { return w; })
                 .map([](const Control& c) { return c.first + (c.second ? "+" : "-"); },
                      [](const std::string& w) { return w; })
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(out->values(), ElementsAre("DROP+", "IGNORE+", "Apache", "DROP", "Flink", "IGNORE", "DROP-", "DROP",
                                         "IGNORE"));
}

}  // namespace
}  // namespace tidemark
