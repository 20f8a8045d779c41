// Watermark strategies, end to end in simulated time: what watermark the
// downstream operator sees with each built-in generator, idleness, custom
// punctuated generators and timestamp assigners.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using Script = ScriptedSource<std::int64_t>::Script;

/// "value@watermark" for every element, as a downstream process function sees it.
std::vector<std::string> watermarksSeen(StreamExecutionEnvironment& env, const DataStream<std::int64_t>& stream) {
  auto seen = stream
                  .process<std::string>([](const std::int64_t& v, ProcessContext& ctx, Collector<std::string>& out) {
                    out.collect(std::to_string(v) + "@" + std::to_string(ctx.timerService().currentWatermark()));
                  })
                  .collectToMemory();
  env.execute("watermarks");
  return seen->values();
}

StreamExecutionEnvironment simulatedEnv() {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  return env;
}

auto byValue() {
  return [](const std::int64_t& v, Timestamp) { return static_cast<Timestamp>(v); };
}

TEST(WatermarkStrategyTest, BoundedOutOfOrdernessIsMaxMinusBoundMinusOne) {
  auto env = simulatedEnv();
  auto stream = env.addSource(ScriptedSource<std::int64_t>::single({{1000, 5000, {}}, {2000, 3000, {}}, {3000, 9000, {}}}))
                    .assignTimestampsAndWatermarks(
                        WatermarkStrategy<std::int64_t>::forBoundedOutOfOrderness(2000).withTimestampAssigner(byValue()));
  EXPECT_EQ(watermarksSeen(env, stream),
            (std::vector<std::string>{"5000@-9223372036854775808", "3000@2999", "9000@2999"}));
}

TEST(WatermarkStrategyTest, ChronoDurationsWork) {
  auto env = simulatedEnv();
  auto stream = env.addSource(ScriptedSource<std::int64_t>::single({{1000, 5000, {}}, {2000, 6000, {}}}))
                    .assignTimestampsAndWatermarks(WatermarkStrategy<std::int64_t>::forBoundedOutOfOrderness(
                                                       std::chrono::seconds(1))
                                                       .withTimestampAssigner(byValue()));
  EXPECT_EQ(watermarksSeen(env, stream), (std::vector<std::string>{"5000@-9223372036854775808", "6000@3999"}));
}

TEST(WatermarkStrategyTest, NoWatermarksLeavesEventTimeAtMinUntilTheEnd) {
  auto env = simulatedEnv();
  auto stream = env.addSource(ScriptedSource<std::int64_t>::single({{1000, 5000, {}}, {2000, 6000, {}}}))
                    .assignTimestampsAndWatermarks(
                        WatermarkStrategy<std::int64_t>::noWatermarks().withTimestampAssigner(byValue()));
  EXPECT_EQ(watermarksSeen(env, stream),
            (std::vector<std::string>{"5000@-9223372036854775808", "6000@-9223372036854775808"}));
}

TEST(WatermarkStrategyTest, AutoWatermarkIntervalControlsPeriodicEmission) {
  auto env = simulatedEnv();
  env.getConfig().setAutoWatermarkInterval(1500);
  // Elements at t = 1000, 2000, 3500; periodic emission at t = 1500, 3000.
  auto stream =
      env.addSource(ScriptedSource<std::int64_t>::single({{1000, 100, {}}, {2000, 200, {}}, {3500, 300, {}}}))
          .assignTimestampsAndWatermarks(
              WatermarkStrategy<std::int64_t>::forMonotonousTimestamps().withTimestampAssigner(byValue()));
  EXPECT_EQ(watermarksSeen(env, stream),
            (std::vector<std::string>{"100@-9223372036854775808", "200@99", "300@199"}));
}

/// Emits a watermark after every element that is a multiple of 10 (punctuated).
class EveryTen : public WatermarkGenerator<std::int64_t> {
 public:
  void onEvent(const std::int64_t& v, Timestamp ts, WatermarkOutput& out) override {
    if (v % 10 == 0) out.emitWatermark(ts);
  }
  void onPeriodicEmit(WatermarkOutput&) override {}
};

TEST(WatermarkStrategyTest, PunctuatedGeneratorEmitsRightAfterItsEvent) {
  auto env = simulatedEnv();
  env.getConfig().setAutoWatermarkInterval(0);
  auto stream = env.fromElements<std::int64_t>({3, 10, 12, 20, 25})
                    .assignTimestampsAndWatermarks(
                        WatermarkStrategy<std::int64_t>::forGenerator([] { return std::make_unique<EveryTen>(); })
                            .withTimestampAssigner(byValue()));
  EXPECT_EQ(watermarksSeen(env, stream),
            (std::vector<std::string>{"3@-9223372036854775808", "10@-9223372036854775808", "12@10", "20@10",
                                      "25@20"}));
}

TEST(WatermarkStrategyTest, AssignerSeesThePreviousTimestamp) {
  auto env = simulatedEnv();
  struct Stamped : SourceFunction<std::int64_t> {
    void run(SourceContext<std::int64_t>& ctx) override {
      ctx.collectWithTimestamp(1, 700);
      ctx.collect(2);
    }
  };
  auto stamped = env.addSource(Stamped{})
                     .assignTimestampsAndWatermarks(WatermarkStrategy<std::int64_t>::noWatermarks().withTimestampAssigner(
                         [](const std::int64_t& v, Timestamp previous) { return v == 1 ? previous + 1 : previous; }))
                     .collectToMemory();
  env.execute("assigner");
  const auto records = stamped->records();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].timestamp, 701);
  EXPECT_EQ(records[1].timestamp, kMinWatermark);  // no timestamp before: MIN is what the assigner got
}

/// A busy scripted input merged with a second one that plays `second`: the
/// second's watermarks follow `strategy_of_second`.
std::vector<std::string> unionWithSecondInput(ScriptedSource<std::int64_t>::Script second,
                                              WatermarkStrategy<std::int64_t> strategy_of_second) {
  auto env = simulatedEnv();
  auto busy = env.addSource(ScriptedSource<std::int64_t>::single(
                                {{1000, 1000, {}}, {3000, 3000, {}}, {5000, 5000, {}}, {7000, 7000, {}}}),
                            "busy")
                  .assignTimestampsAndWatermarks(
                      WatermarkStrategy<std::int64_t>::forMonotonousTimestamps().withTimestampAssigner(byValue()));
  auto other = env.addSource(ScriptedSource<std::int64_t>::single(std::move(second)).endAt(8000), "second")
                   .assignTimestampsAndWatermarks(strategy_of_second.withTimestampAssigner(byValue()));
  return watermarksSeen(env, busy.union_(other));
}

/// The second input goes quiet after t = 1000.
std::vector<std::string> unionWithQuietInput(WatermarkStrategy<std::int64_t> strategy_of_quiet_input) {
  return unionWithSecondInput({{1000, 500, {}}}, std::move(strategy_of_quiet_input));
}

TEST(WatermarkStrategyTest, AQuietInputHoldsTheUnionBack) {
  EXPECT_EQ(unionWithQuietInput(WatermarkStrategy<std::int64_t>::forMonotonousTimestamps()),
            (std::vector<std::string>{"1000@-9223372036854775808", "500@-9223372036854775808", "3000@499", "5000@499",
                                      "7000@499"}));
}

TEST(WatermarkStrategyTest, WithIdlenessAQuietInputStopsHoldingTheUnionBack) {
  // Idle once more than 2 s passed since the first periodic emission that saw
  // no event (t = 1400): at the emission at t = 3600, after the element at 3000.
  EXPECT_EQ(unionWithQuietInput(WatermarkStrategy<std::int64_t>::forMonotonousTimestamps().withIdleness(2000)),
            (std::vector<std::string>{"1000@-9223372036854775808", "500@-9223372036854775808", "3000@499", "5000@2999",
                                      "7000@4999"}));
}

/// The second input never emits at all, as a socketTextStream whose server
/// accepts the connection and then stays silent.
std::vector<std::string> unionWithSilentInput(WatermarkStrategy<std::int64_t> strategy_of_silent_input) {
  return unionWithSecondInput({}, std::move(strategy_of_silent_input));
}

TEST(WatermarkStrategyTest, ASilentInputFreezesTheUnionsWatermark) {
  EXPECT_EQ(unionWithSilentInput(WatermarkStrategy<std::int64_t>::forMonotonousTimestamps()),
            (std::vector<std::string>{"1000@-9223372036854775808", "3000@-9223372036854775808",
                                      "5000@-9223372036854775808", "7000@-9223372036854775808"}));
}

TEST(WatermarkStrategyTest, WithIdlenessASilentInputGoesIdle) {
  // No event ever: the countdown starts at the first periodic emission
  // (t = 200) and the input is idle at the one at t = 2400, more than 2 s on.
  EXPECT_EQ(unionWithSilentInput(WatermarkStrategy<std::int64_t>::forMonotonousTimestamps().withIdleness(2000)),
            (std::vector<std::string>{"1000@-9223372036854775808", "3000@999", "5000@2999", "7000@4999"}));
}

TEST(WatermarkStrategyTest, InvalidArgumentsAreRefused) {
  EXPECT_THROW(WatermarkStrategy<int>::forBoundedOutOfOrderness(-1), std::invalid_argument);
  EXPECT_THROW(WatermarkStrategy<int>::forMonotonousTimestamps().withIdleness(0), std::invalid_argument);
}

TEST(SourceWatermarkTest, SourceEmittedWatermarksAndIdlenessReachDownstream) {
  auto env = simulatedEnv();
  struct Source : SourceFunction<std::int64_t> {
    void run(SourceContext<std::int64_t>& ctx) override {
      ctx.collectWithTimestamp(1, 100);
      ctx.emitWatermark(150);
      ctx.collectWithTimestamp(2, 200);
      ctx.markAsTemporarilyIdle();
      ctx.sleep(1000);
      ctx.collectWithTimestamp(3, 300);
      ctx.emitWatermark(120);  // not larger than 150: ignored downstream
      ctx.collectWithTimestamp(4, 400);
    }
  };
  auto stream = env.addSource(Source{});
  EXPECT_EQ(watermarksSeen(env, stream), (std::vector<std::string>{"1@-9223372036854775808", "2@150", "3@150", "4@150"}));
}

}  // namespace
}  // namespace tidemark
