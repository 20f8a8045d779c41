#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/output_tag.h"
#include "tidemark/core/key_group.h"
#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"
#include "tidemark/functions/keyed_process_function.h"
#include "tidemark/functions/process_function.h"
#include "tidemark/internal/operators/keyed_process_operator.h"
#include "tidemark/internal/core/operator_failure.h"
#include "tidemark/internal/operators/reduce_operator.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/state/state_descriptor.h"
#include "tidemark/state/value_state.h"
#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/testing/one_input_harness.h"
#include "tidemark/testing/test_harness_output.h"
#include "tidemark/testing/two_input_harness.h"

namespace tidemark {
namespace {

using ::testing::HasSubstr;
using Lines = std::vector<std::string>;
using Timestamps = std::vector<Timestamp>;
using StringOutput = TestHarnessOutput<std::string>;
using StringEvents = std::vector<StringOutput::Event>;

StreamRecord<std::string> rec(std::string value, Timestamp timestamp) {
  return StreamRecord<std::string>::withTimestamp(std::move(value), timestamp);
}
StreamRecord<std::string> recNoTimestamp(std::string value) {
  return StreamRecord<std::string>::withoutTimestamp(std::move(value));
}

// Runs `call`, which must throw an OperatorFailure, and returns its message.
template <class F>
std::string operatorFailureMessage(F&& call) {
  try {
    call();
  } catch (const internal::OperatorFailure& failure) {
    return failure.what();
  }
  ADD_FAILURE() << "no OperatorFailure was thrown";
  return "";
}

struct Event {
  std::string user;
  std::string url;
  Timestamp timestamp = 0;
};

std::string userOf(const Event& e) { return e.user; }

// --- functions under test -------------------------------------------------

// The S1 function; `from_watermark` picks S1a (timer at watermark + 5 s) or
// S1b (timer at the element's timestamp + 5 s).
class ReportingTimers : public KeyedProcessFunction<std::string, Event, std::string> {
 public:
  explicit ReportingTimers(bool from_watermark) : from_watermark_(from_watermark) {}

  void processElement(const Event&, Context& ctx, Collector<std::string>& out) override {
    out.collect(fmt::format("data arrived: key={} timestamp={} watermark={}", ctx.getCurrentKey(), *ctx.timestamp(),
                            ctx.timerService().currentWatermark()));
    const Timestamp base = from_watermark_ ? ctx.timerService().currentWatermark() : *ctx.timestamp();
    ctx.timerService().registerEventTimeTimer(saturatingAdd(base, 5000));
  }

  void onTimer(Timestamp t, OnTimerContext& ctx, Collector<std::string>& out) override {
    out.collect(fmt::format("timer fired: key={} time={} watermark={}", ctx.getCurrentKey(), t,
                            ctx.timerService().currentWatermark()));
  }

 private:
  bool from_watermark_;
};

// Registers the timers an element names ("e:<t>" event time, "p:<t>"
// processing time, "p+<d>" processing time now + d); onTimer reports them.
class TimerScript : public KeyedProcessFunction<std::string, std::string, std::string> {
 public:
  void processElement(const std::string& v, Context& ctx, Collector<std::string>& out) override {
    (void)out;
    const std::string spec = v.substr(v.find('/') + 1);
    const Timestamp t = std::stoll(spec.substr(2));
    if (spec[0] == 'e') {
      ctx.timerService().registerEventTimeTimer(t);
    } else if (spec[1] == ':') {
      ctx.timerService().registerProcessingTimeTimer(t);
    } else {
      ctx.timerService().registerProcessingTimeTimer(ctx.timerService().currentProcessingTime() + t);
    }
  }

  void onTimer(Timestamp t, OnTimerContext& ctx, Collector<std::string>& out) override {
    const bool event_time = ctx.timeDomain() == TimeDomain::EVENT_TIME;
    out.collect(fmt::format("{} {}@{} ts={} now={}", ctx.getCurrentKey(), event_time ? "event" : "processing", t,
                            ctx.timestamp() ? std::to_string(*ctx.timestamp()) : "none",
                            ctx.timerService().currentProcessingTime()));
  }
};

// Keys "user/spec" by user.
std::string keyBeforeSlash(const std::string& v) { return v.substr(0, v.find('/')); }

// Counts elements per key; "<key>/reset" clears the key's count.
class CountPerKey : public KeyedProcessFunction<std::string, std::string, std::string> {
 public:
  void open() override { count_ = &getRuntimeContext().getState(ValueStateDescriptor<std::int64_t>("count")); }

  void processElement(const std::string& v, Context& ctx, Collector<std::string>& out) override {
    if (v.ends_with("/reset")) {
      count_->clear();
      return;
    }
    const std::int64_t n = count_->value().value_or(0) + 1;
    count_->update(n);
    out.collect(fmt::format("{}={}", ctx.getCurrentKey(), n));
  }

 private:
  ValueState<std::int64_t>* count_ = nullptr;
};

// Describes what a non-keyed ProcessFunction sees for each element.
class DescribeContext : public ProcessFunction<std::string, std::string> {
 public:
  void processElement(const std::string& v, Context& ctx, Collector<std::string>& out) override {
    out.collect(fmt::format("{} ts={} wm={} now={} task={} {}/{}", v,
                            ctx.timestamp() ? std::to_string(*ctx.timestamp()) : "none",
                            ctx.timerService().currentWatermark(), ctx.timerService().currentProcessingTime(),
                            getRuntimeContext().getTaskName(), getRuntimeContext().getIndexOfThisSubtask(),
                            getRuntimeContext().getNumberOfParallelSubtasks()));
  }
};

class RegistersTimer : public ProcessFunction<std::string, std::string> {
 public:
  void processElement(const std::string&, Context& ctx, Collector<std::string>&) override {
    ctx.timerService().registerEventTimeTimer(1000);
  }
};

// Even values to the main output, odd ones to `odd`, negative ones described
// to `negative`.
class Route : public ProcessFunction<int, int> {
 public:
  Route(OutputTag<int> odd, OutputTag<std::string> negative) : odd_(std::move(odd)), negative_(std::move(negative)) {}

  void processElement(const int& v, Context& ctx, Collector<int>& out) override {
    if (v < 0) {
      ctx.output(negative_, "negative " + std::to_string(v));
    } else if (v % 2 != 0) {
      ctx.output(odd_, v);
    } else {
      out.collect(v);
    }
  }

 private:
  OutputTag<int> odd_;
  OutputTag<std::string> negative_;
};

// Logs its lifecycle into a log shared with the test (the harness copies it).
class Lifecycle : public ProcessFunction<std::string, std::string> {
 public:
  explicit Lifecycle(std::shared_ptr<Lines> log) : log_(std::move(log)) {}
  void open() override { log_->push_back("open"); }
  void close() override { log_->push_back("close"); }
  void processElement(const std::string& v, Context&, Collector<std::string>& out) override {
    if (v == "boom") throw std::invalid_argument("cannot take boom");
    log_->push_back("element " + v);
    out.collect(v);
  }

 private:
  std::shared_ptr<Lines> log_;
};

// An operator that holds its input back until the input ends.
class EmitAtEnd final : public internal::OneInputOperator<std::string, std::string> {
 public:
  void processElement(StreamRecord<std::string>& record) override { held_.push_back(std::move(record)); }
  void finish() override {
    for (auto& record : held_) output().collect(record);
    held_.clear();
  }

 private:
  std::vector<StreamRecord<std::string>> held_;
};

// A two-input operator: tags each element with its input and the operator's
// event time; "tick+<d>" on input 1 asks for a processing-time callback.
class TagInputs final : public internal::TwoInputOperator<std::string, int, std::string> {
 public:
  void processElement1(StreamRecord<std::string>& record) override {
    if (record.value.starts_with("tick+")) {
      const Timestamp due = processingTimeService().currentProcessingTime() + std::stoll(record.value.substr(5));
      processingTimeService().registerTimer(due, [this](Timestamp now) {
        StreamRecord<std::string> out = StreamRecord<std::string>::withoutTimestamp("tick@" + std::to_string(now));
        output().collect(out);
      });
      return;
    }
    emit("1:" + record.value, record.optionalTimestamp());
  }
  void processElement2(StreamRecord<int>& record) override {
    emit("2:" + std::to_string(record.value), record.optionalTimestamp());
  }
  void processWatermark(Timestamp watermark) override {
    watermark_ = watermark;
    emitWatermarkToAll(watermark);
  }

 private:
  void emit(std::string value, std::optional<Timestamp> timestamp) {
    StreamRecord<std::string> out{fmt::format("{} wm={}", value, watermark_), timestamp.value_or(kMinWatermark),
                                  timestamp.has_value()};
    output().collect(out);
  }

  Timestamp watermark_ = kMinWatermark;
};

Lines readLines(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  Lines lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// --- keyed: event time ------------------------------------------------------

TEST(KeyedHarness, EventTimerOutputPrecedesTheWatermarkThatFiredItAndCarriesTheTimerTimestamp) {
  KeyedOneInputStreamOperatorTestHarness harness(TimerScript{}, keyBeforeSlash);
  harness.open();
  harness.processElement("a/e:5000", 1000);
  harness.processElement("b/e:3000", 1200);
  harness.processWatermark(2999);
  harness.processWatermark(4000);
  harness.processWatermark(5000);

  EXPECT_EQ(harness.getOutput().events(), (StringEvents{
                                              WatermarkEvent{2999},
                                              rec("b event@3000 ts=3000 now=0", 3000),
                                              WatermarkEvent{4000},
                                              rec("a event@5000 ts=5000 now=0", 5000),
                                              WatermarkEvent{5000},
                                          }));
}

TEST(KeyedHarness, ProcessingTimerFiresAtSetProcessingTimeWithoutTimestamp) {
  KeyedOneInputStreamOperatorTestHarness harness(TimerScript{}, keyBeforeSlash, {.initial_processing_time = 100});
  harness.open();
  harness.processElement("a/p+50", 7);  // due at 150
  harness.processElement("b/p:400", 8);
  EXPECT_EQ(harness.numProcessingTimeTimers(), 2u);

  harness.setProcessingTime(149);
  EXPECT_TRUE(harness.getOutput().empty());
  harness.setProcessingTime(150);
  EXPECT_EQ(harness.getOutput().events(), (StringEvents{recNoTimestamp("a processing@150 ts=none now=150")}));
  EXPECT_EQ(harness.numProcessingTimeTimers(), 1u);

  // Jumping past a timer fires it with its own time; the clock says where we are.
  harness.setProcessingTime(1000);
  EXPECT_EQ(harness.getOutput().lines(), (Lines{"Record(a processing@150 ts=none now=150, no timestamp)",
                                                 "Record(b processing@400 ts=none now=1000, no timestamp)"}));
  EXPECT_EQ(harness.numProcessingTimeTimers(), 0u);
  EXPECT_THROW(harness.setProcessingTime(999), std::invalid_argument);
}

TEST(KeyedHarness, TimersOfOneKeyAndTimeAreDeduplicated) {
  KeyedOneInputStreamOperatorTestHarness harness(TimerScript{}, keyBeforeSlash);
  harness.open();
  harness.processElement("a/e:5000", 1);
  harness.processElement("a/e:5000", 2);
  EXPECT_EQ(harness.numEventTimeTimers(), 1u);
  harness.processElement("b/e:5000", 3);
  EXPECT_EQ(harness.numEventTimeTimers(), 2u);
  harness.processElement("a/p:70", 4);
  harness.processElement("a/p:70", 5);
  EXPECT_EQ(harness.numProcessingTimeTimers(), 1u);

  harness.processWatermark(5000);
  harness.setProcessingTime(70);
  EXPECT_EQ(harness.extractOutputValues(),
            (Lines{"a event@5000 ts=5000 now=0", "b event@5000 ts=5000 now=0", "a processing@70 ts=none now=70"}));
}

TEST(KeyedHarness, NumEventTimeTimersDecreasesAsTimersFire) {
  KeyedOneInputStreamOperatorTestHarness harness(TimerScript{}, keyBeforeSlash);
  harness.open();
  for (const char* spec : {"a/e:1000", "a/e:2000", "b/e:2000", "a/e:3000"}) harness.processElement(spec, 0);
  EXPECT_EQ(harness.numEventTimeTimers(), 4u);
  harness.processWatermark(999);
  EXPECT_EQ(harness.numEventTimeTimers(), 4u);
  harness.processWatermark(1000);
  EXPECT_EQ(harness.numEventTimeTimers(), 3u);
  harness.processWatermark(2500);
  EXPECT_EQ(harness.numEventTimeTimers(), 1u);
  harness.processWatermark(kMaxWatermark);
  EXPECT_EQ(harness.numEventTimeTimers(), 0u);
  EXPECT_EQ(harness.getOutput().watermarks(), (Timestamps{999, 1000, 2500, kMaxWatermark}));
  EXPECT_EQ(harness.getOutput().records().size(), 4u);
}

TEST(KeyedHarness, S1aScenarioGivesTheExactLines) {
  KeyedOneInputStreamOperatorTestHarness harness(ReportingTimers(/*from_watermark=*/true), userOf);
  harness.open();
  // The simulated job: each element, then the periodic watermark after it
  // (monotonous timestamps: max - 1), then MAX at the end of the input.
  harness.processElement({"Mary", "./home", 1000}, 1000);
  harness.processWatermark(999);
  harness.processElement({"Mary", "./home", 2000}, 2000);
  harness.processWatermark(1999);
  harness.processElement({"Mary", "./home", 6000}, 6000);
  harness.processWatermark(5999);
  harness.processWatermark(kMaxWatermark);
  harness.endInput();
  harness.close();

  EXPECT_EQ(harness.extractOutputValues(), readLines(std::string(TIDEMARK_TEST_DATA_DIR) + "/scenarios/s1a.out"));
  EXPECT_EQ(harness.extractOutputValues(),
            (Lines{"data arrived: key=Mary timestamp=1000 watermark=-9223372036854775808",
                   "timer fired: key=Mary time=-9223372036854770808 watermark=999",
                   "data arrived: key=Mary timestamp=2000 watermark=999",
                   "data arrived: key=Mary timestamp=6000 watermark=1999",
                   "timer fired: key=Mary time=5999 watermark=5999",
                   "timer fired: key=Mary time=6999 watermark=9223372036854775807"}));
  EXPECT_EQ(harness.getOutput().watermarks(), (Timestamps{999, 1999, 5999, kMaxWatermark}));
}

TEST(KeyedHarness, S1bScenarioGivesTheExactLines) {
  KeyedOneInputStreamOperatorTestHarness harness(ReportingTimers(/*from_watermark=*/false), userOf);
  harness.open();
  harness.processElement({"Mary", "./home", 1000}, 1000);
  harness.processWatermark(999);
  harness.processElement({"Mary", "./home", 2000}, 2000);
  harness.processWatermark(1999);
  harness.processElement({"Mary", "./home", 6000}, 6000);
  harness.processElement({"Mary", "./home", 6001}, 6001);
  harness.processWatermark(6000);
  harness.processWatermark(kMaxWatermark);
  harness.endInput();

  EXPECT_EQ(harness.extractOutputValues(), readLines(std::string(TIDEMARK_TEST_DATA_DIR) + "/scenarios/s1b.out"));
}

// --- keyed: state -------------------------------------------------------------

TEST(KeyedHarness, KeyedStateIsPerKey) {
  KeyedOneInputStreamOperatorTestHarness harness(CountPerKey{}, keyBeforeSlash);
  harness.open();
  EXPECT_EQ(harness.numKeyedStateEntries(), 0u);
  for (const char* v : {"a/x", "b/x", "a/y", "c/x", "a/z", "b/y"}) harness.processElement(v, 1);
  EXPECT_EQ(harness.extractOutputValues(), (Lines{"a=1", "b=1", "a=2", "c=1", "a=3", "b=2"}));
  EXPECT_EQ(harness.numKeyedStateEntries(), 3u);

  harness.processElement("a/reset", 2);
  EXPECT_EQ(harness.numKeyedStateEntries(), 2u);
  harness.getOutput().clear();
  harness.processElement("a/again", 3);
  EXPECT_EQ(harness.getOutput().events(), (StringEvents{rec("a=1", 3)}));
}

TEST(KeyedHarness, RunsOtherKeyedOperatorsAndCountsTheirState) {
  using Reduce = internal::KeyedReduceOperator<std::string, std::string, std::function<std::string(const std::string&)>,
                                               std::function<std::string(const std::string&, const std::string&)>>;
  KeyedOneInputStreamOperatorTestHarness<std::string, std::string, std::string> harness(std::make_unique<Reduce>(
      [](const std::string& v) { return v.substr(0, 1); },
      [](const std::string& acc, const std::string& v) { return acc + "+" + v; }));
  harness.open();
  for (const char* v : {"a1", "b1", "a2"}) harness.processElement(v, 5);
  EXPECT_EQ(harness.extractOutputValues(), (Lines{"a1", "b1", "a1+a2"}));
  EXPECT_EQ(harness.numKeyedStateEntries(), 2u);
  EXPECT_THROW(harness.numEventTimeTimers(), std::logic_error);  // a reduce has no timers to report
}

TEST(KeyedHarness, SubtaskOwnsOnlyItsKeyGroups) {
  const OperatorTestHarnessOptions options{.parallelism = 4, .subtask_index = 2, .max_parallelism = 16};
  const KeyGroupRange range = computeKeyGroupRangeForOperatorIndex(16, 4, 2);
  std::string own_key;
  std::string foreign_key;
  for (int i = 0; own_key.empty() || foreign_key.empty(); ++i) {
    const std::string key = "k" + std::to_string(i);
    (range.contains(assignToKeyGroup(key, 16)) ? own_key : foreign_key) = key;
  }

  KeyedOneInputStreamOperatorTestHarness harness(CountPerKey{}, keyBeforeSlash, options);
  EXPECT_EQ(harness.getOperatorContext().key_group_range, range);
  harness.open();
  harness.processElement(own_key + "/x", 1);
  EXPECT_EQ(harness.extractOutputValues(), (Lines{own_key + "=1"}));
  EXPECT_THAT(operatorFailureMessage([&] { harness.processElement(foreign_key + "/x", 2); }),
              HasSubstr("operator 'KeyedProcess' (subtask 3/4) failed while processing element '" + foreign_key + "/x'"));
}

// --- side outputs -------------------------------------------------------------

TEST(OneInputHarness, SideOutputsAreCapturedPerTag) {
  const OutputTag<int> odd("odd");
  const OutputTag<std::string> negative("negative");
  const OutputTag<int> unused("unused");
  OneInputStreamOperatorTestHarness harness(Route(odd, negative));
  harness.captureSideOutput(odd);
  harness.captureSideOutput(negative);
  harness.captureSideOutput(odd);  // again: harmless
  EXPECT_THROW(harness.captureSideOutput(OutputTag<std::string>("odd")), std::logic_error);
  harness.open();
  EXPECT_THROW(harness.captureSideOutput(unused), std::logic_error);

  harness.processElement(1, 10);
  harness.processElement(2, 20);
  harness.processElement(-3, 30);
  harness.processWatermark(30);
  harness.processElement(5);

  EXPECT_EQ(harness.getOutput().events(), (std::vector<TestHarnessOutput<int>::Event>{
                                              StreamRecord<int>::withTimestamp(2, 20), WatermarkEvent{30}}));
  EXPECT_EQ(harness.getSideOutput(odd),
            (std::vector<StreamRecord<int>>{StreamRecord<int>::withTimestamp(1, 10),
                                            StreamRecord<int>::withoutTimestamp(5)}));
  EXPECT_EQ(harness.getSideOutput(negative),
            (std::vector<StreamRecord<std::string>>{rec("negative -3", 30)}));
  // Side outputs carry the operator's watermarks as well.
  EXPECT_EQ(harness.getSideOutputEvents(odd).lines(),
            (Lines{"Record(1 @ 10)", "Watermark(30)", "Record(5, no timestamp)"}));
  EXPECT_THROW(harness.getSideOutput(unused), std::logic_error);
}

// --- non-keyed ----------------------------------------------------------------

TEST(OneInputHarness, ProcessFunctionSeesWatermarkTimestampAndProcessingTime) {
  OneInputStreamOperatorTestHarness harness(
      DescribeContext{}, {.parallelism = 3, .subtask_index = 1, .initial_processing_time = 40, .operator_name = "Tag"});
  harness.open();
  harness.processElement("a", 1000);
  harness.processWatermark(1500);
  harness.setProcessingTime(41);
  harness.processElement("b");

  EXPECT_EQ(harness.getOutput().events(),
            (StringEvents{rec("a ts=1000 wm=-9223372036854775808 now=40 task=Tag 1/3", 1000), WatermarkEvent{1500},
                          recNoTimestamp("b ts=none wm=1500 now=41 task=Tag 1/3")}));
  EXPECT_EQ(harness.getCurrentWatermark(), 1500);
  EXPECT_EQ(harness.numEventTimeTimers(), 0u);  // a ProcessFunction cannot have any
}

TEST(OneInputHarness, RegisteringATimerInANonKeyedFunctionThrows) {
  OneInputStreamOperatorTestHarness harness(RegistersTimer{});
  harness.open();
  const std::string message = operatorFailureMessage([&] { harness.processElement("x", 1); });
  EXPECT_THAT(message, HasSubstr("operator 'Process' (subtask 1/1) failed while processing element 'x'"));
  EXPECT_THAT(message, HasSubstr("only supported on a keyed stream"));
}

TEST(OneInputHarness, WatermarksMustStrictlyIncreaseAndStatusMustChange) {
  OneInputStreamOperatorTestHarness harness(DescribeContext{});
  harness.open();
  EXPECT_THROW(harness.processWatermark(kMinWatermark), std::invalid_argument);
  harness.processWatermark(10);
  EXPECT_THROW(harness.processWatermark(10), std::invalid_argument);
  EXPECT_THROW(harness.processWatermark(9), std::invalid_argument);
  EXPECT_THROW(harness.processWatermarkStatus(WatermarkStatus::ACTIVE), std::invalid_argument);
  harness.processWatermarkStatus(WatermarkStatus::IDLE);
  harness.processWatermarkStatus(WatermarkStatus::ACTIVE);
  EXPECT_EQ(harness.getOutput().watermarks(), (Timestamps{10}));
  EXPECT_EQ(harness.getOutput().watermarkStatuses(),
            (std::vector<WatermarkStatus>{WatermarkStatus::IDLE, WatermarkStatus::ACTIVE}));
}

TEST(OneInputHarness, LifecycleIsEnforcedAndFailuresNameTheOperator) {
  auto log = std::make_shared<Lines>();
  {
    OneInputStreamOperatorTestHarness harness{Lifecycle(log)};
    EXPECT_THROW(harness.processElement("early", 1), std::logic_error);
    harness.open();
    EXPECT_THROW(harness.open(), std::logic_error);
    harness.processElement("a", 1);
    EXPECT_EQ(operatorFailureMessage([&] { harness.processElement("boom", 2); }),
              "operator 'Process' (subtask 1/1) failed while processing element 'boom': cannot take boom");
    harness.processElement("b", 3);  // like Flink's harness, a failure does not end the test run
    harness.endInput();
    EXPECT_THROW(harness.processElement("late", 4), std::logic_error);
    EXPECT_THROW(harness.processWatermark(5), std::logic_error);
    EXPECT_THROW(harness.setProcessingTime(5), std::logic_error);
    EXPECT_EQ(*log, (Lines{"open", "element a", "element b"}));
    // Destroyed without close(): the harness closes it, as a failing job would.
  }
  EXPECT_EQ(*log, (Lines{"open", "element a", "element b", "close"}));
}

TEST(OneInputHarness, EndInputCallsFinishWhereTheOperatorMayStillEmit) {
  OneInputStreamOperatorTestHarness harness(std::make_unique<EmitAtEnd>());
  harness.open();
  harness.processElement("a", 1);
  harness.processElement("b");
  harness.processWatermark(kMaxWatermark);
  EXPECT_EQ(harness.getOutput().lines(), (Lines{"Watermark(9223372036854775807)"}));
  harness.endInput();
  harness.close();
  EXPECT_EQ(harness.getOutput().lines(),
            (Lines{"Watermark(9223372036854775807)", "Record(a @ 1)", "Record(b, no timestamp)"}));
  EXPECT_EQ(harness.getOperator().recordsIn(), 2u);
  EXPECT_THROW(harness.numEventTimeTimers(), std::logic_error);  // it does not say
  EXPECT_THROW(harness.close(), std::logic_error);
}

TEST(OneInputHarness, ProcessingTimeFailureNamesTheOperatorAndTime) {
  class FailingTimer : public KeyedProcessFunction<std::string, std::string, std::string> {
   public:
    void processElement(const std::string&, Context& ctx, Collector<std::string>&) override {
      ctx.timerService().registerProcessingTimeTimer(100);
    }
    void onTimer(Timestamp, OnTimerContext&, Collector<std::string>&) override {
      throw std::runtime_error("timer broke");
    }
  };
  KeyedOneInputStreamOperatorTestHarness harness(FailingTimer{}, [](const std::string& v) { return v; },
                                                 {.operator_name = "Fragile"});
  harness.open();
  harness.processElement("k", 1);
  EXPECT_EQ(operatorFailureMessage([&] { harness.setProcessingTime(100); }),
            "operator 'Fragile' (subtask 1/1) failed while processing processing time 100: timer broke");
}

TEST(OneInputHarness, InvalidOptionsAreRefused) {
  EXPECT_THROW(OneInputStreamOperatorTestHarness(DescribeContext{}, {.parallelism = 0}), std::invalid_argument);
  EXPECT_THROW(OneInputStreamOperatorTestHarness(DescribeContext{}, {.parallelism = 2, .subtask_index = 2}),
               std::invalid_argument);
  EXPECT_THROW(OneInputStreamOperatorTestHarness(DescribeContext{}, {.parallelism = 8, .max_parallelism = 4}),
               std::invalid_argument);
  using Harness = OneInputStreamOperatorTestHarness<std::string, std::string>;
  using Operator = internal::OneInputOperator<std::string, std::string>;
  EXPECT_THROW(Harness(std::unique_ptr<Operator>()), std::invalid_argument);
}

// --- output -------------------------------------------------------------------

TEST(HarnessOutput, PrintsReadablyAndClears) {
  StringOutput output;
  output.addRecord(rec("a", 1));
  output.addWatermark(1);
  output.addRecord(recNoTimestamp("b"));
  output.addWatermarkStatus(WatermarkStatus::IDLE);

  std::ostringstream printed;
  printed << output;
  EXPECT_EQ(printed.str(), "[Record(a @ 1), Watermark(1), Record(b, no timestamp)]");
  EXPECT_THAT(::testing::PrintToString(output.events()), HasSubstr("Record(b, no timestamp)"));
  EXPECT_THAT(::testing::PrintToString(output.events()), HasSubstr("Watermark(1)"));
  EXPECT_EQ(output.values(), (Lines{"a", "b"}));
  EXPECT_EQ(output.records(), (std::vector<StreamRecord<std::string>>{rec("a", 1), recNoTimestamp("b")}));
  EXPECT_NE(rec("a", 1), recNoTimestamp("a"));
  EXPECT_NE(rec("a", 1), rec("a", 2));

  output.clear();
  EXPECT_TRUE(output.empty());
  EXPECT_TRUE(output.watermarkStatuses().empty());
}

// --- two inputs ---------------------------------------------------------------

TEST(TwoInputHarness, WatermarkIsTheMinimumOfBothInputs) {
  TwoInputStreamOperatorTestHarness harness(std::make_unique<TagInputs>());
  harness.open();
  harness.processElement1("a", 100);
  harness.processWatermark1(1000);  // input 2 still at MIN: nothing advances
  harness.processElement2(7, 200);
  harness.processWatermark2(500);   // min(1000, 500)
  harness.processElement1("b", 1100);
  harness.processWatermark2(2000);  // min(1000, 2000)
  harness.processWatermark1(1500);  // min(1500, 2000)
  harness.processElement2(8);
  EXPECT_THROW(harness.processWatermark1(1500), std::invalid_argument);

  EXPECT_EQ(harness.getOutput().events(), (StringEvents{
                                              rec("1:a wm=-9223372036854775808", 100),
                                              rec("2:7 wm=-9223372036854775808", 200),
                                              WatermarkEvent{500},
                                              rec("1:b wm=500", 1100),
                                              WatermarkEvent{1000},
                                              WatermarkEvent{1500},
                                              recNoTimestamp("2:8 wm=1500"),
                                          }));
}

TEST(TwoInputHarness, AnIdleInputDoesNotHoldEventTimeBack) {
  TwoInputStreamOperatorTestHarness harness(std::make_unique<TagInputs>());
  harness.open();
  harness.processWatermarkStatus2(WatermarkStatus::IDLE);
  harness.processWatermark1(1000);
  harness.processElement1("a", 1200);
  EXPECT_EQ(harness.getOutput().lines(), (Lines{"Watermark(1000)", "Record(1:a wm=1000 @ 1200)"}));
}

TEST(TwoInputHarness, ProcessingTimeCallbacksFireAtSetProcessingTime) {
  TwoInputStreamOperatorTestHarness harness(std::make_unique<TagInputs>(), {.initial_processing_time = 1000});
  harness.open();
  harness.processElement1("tick+250");
  harness.setProcessingTime(1249);
  EXPECT_TRUE(harness.getOutput().empty());
  harness.setProcessingTime(1300);
  EXPECT_EQ(harness.getOutput().events(), (StringEvents{recNoTimestamp("tick@1250")}));
  EXPECT_THROW(harness.numEventTimeTimers(), std::logic_error);
  harness.endInput();
  harness.close();
}

}  // namespace
}  // namespace tidemark
