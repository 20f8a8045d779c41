// A user function that throws fails the job: execute() throws a
// JobExecutionException naming the operator, the subtask and the element.
// An invalid program is refused before it runs, with every problem listed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::HasSubstr;

template <class T>
struct DiscardSink : SinkFunction<T> {
  void invoke(const T&, const typename SinkFunction<T>::Context&) override {}
};

std::string failureOf(StreamExecutionEnvironment& env) {
  try {
    env.execute("failing job");
  } catch (const JobExecutionException& e) {
    return e.what();
  }
  return "the job did not fail";
}

class JobFailureTest : public ::testing::TestWithParam<bool> {
 protected:
  StreamExecutionEnvironment makeEnv() {
    auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
    if (GetParam()) env.enableSimulatedTime();
    return env;
  }
};

TEST_P(JobFailureTest, ThrowingMapNamesOperatorSubtaskAndElement) {
  auto env = makeEnv();
  env.fromElements<int>({1, 2, 3, 4})
      .map([](int x) {
        if (x == 3) throw std::runtime_error("three is not allowed");
        return x;
      })
      .name("checker")
      .print();
  const std::string message = failureOf(env);
  EXPECT_THAT(message, HasSubstr("job 'failing job' failed"));
  EXPECT_THAT(message, HasSubstr("operator 'checker' (subtask 1/1)"));
  EXPECT_THAT(message, HasSubstr("element '3'"));
  EXPECT_THAT(message, HasSubstr("three is not allowed"));
}

TEST_P(JobFailureTest, AHugeElementIsNotCopiedWholeIntoTheMessage) {
  auto env = makeEnv();
  const std::string line(4 * 1024 * 1024, 'x');
  env.fromElements<std::string>({line, ""})
      .map([](const std::string&) -> std::string { throw std::invalid_argument("expected 3 fields"); })
      .name("parse")
      .print();
  const std::string message = failureOf(env);
  EXPECT_THAT(message, HasSubstr("operator 'parse' (subtask 1/1) failed while processing element 'xxxx"));
  EXPECT_THAT(message, HasSubstr("...' (4194304 characters, the first 200 shown): expected 3 fields"));
  EXPECT_LT(message.size(), 500u) << message.substr(0, 500);
}

TEST_P(JobFailureTest, AnEmptyElementReadsAsQuotedEmptyText) {
  auto env = makeEnv();
  env.fromElements<std::string>({""})
      .map([](const std::string&) -> std::string { throw std::invalid_argument("expected 3 fields"); })
      .name("parse")
      .print();
  EXPECT_THAT(failureOf(env), HasSubstr("failed while processing element '': expected 3 fields"));
}

TEST_P(JobFailureTest, SideOutputTagsThatShareAnIdButNotATypeFailTheJob) {
  auto env = makeEnv();
  struct EmitsInts : ProcessFunction<int, int> {
    void processElement(const int& x, Context& ctx, Collector<int>& out) override {
      ctx.output(OutputTag<int>("odd"), x);
      out.collect(x);
    }
  };
  auto main = env.fromElements<int>({7}).process(EmitsInts{}).name("splitter");
  main.getSideOutput(OutputTag<std::string>("odd")).addSink(DiscardSink<std::string>{});
  const std::string message = failureOf(env);
  EXPECT_THAT(message, HasSubstr("operator 'splitter' (subtask 1/1)"));
  EXPECT_THAT(message, HasSubstr("emitted int to a side output whose stream carries std::"));
  EXPECT_THAT(message, HasSubstr("two OutputTags share an id but not a type"));
  EXPECT_THAT(message, HasSubstr("element '7'"));
}

TEST_P(JobFailureTest, ThrowingOnTimerNamesTheWatermark) {
  auto env = makeEnv();
  struct FailingTimer : KeyedProcessFunction<int, int, int> {
    void processElement(const int&, Context& ctx, Collector<int>&) override {
      ctx.timerService().registerEventTimeTimer(100);
    }
    void onTimer(Timestamp, OnTimerContext&, Collector<int>&) override { throw std::logic_error("timer broke"); }
  };
  env.fromElements<int>({1})
      .assignTimestampsAndWatermarks(WatermarkStrategy<int>::forMonotonousTimestamps().withTimestampAssigner(
          [](const int& x, Timestamp) { return static_cast<Timestamp>(x); }))
      .keyBy([](const int& x) { return x; })
      .process(FailingTimer{})
      .name("timers")
      .print();
  const std::string message = failureOf(env);
  EXPECT_THAT(message, HasSubstr("operator 'timers' (subtask 1/1)"));
  EXPECT_THAT(message, HasSubstr("watermark 9223372036854775807"));
  EXPECT_THAT(message, HasSubstr("timer broke"));
}

TEST_P(JobFailureTest, ThrowingSourceIsNamed) {
  auto env = makeEnv();
  struct Broken : SourceFunction<int> {
    void run(SourceContext<int>& ctx) override {
      ctx.collect(1);
      throw std::runtime_error("disk on fire");
    }
  };
  env.addSource(Broken{}, "broken source").print();
  const std::string message = failureOf(env);
  EXPECT_THAT(message, HasSubstr("operator 'broken source' (subtask 1/1)"));
  EXPECT_THAT(message, HasSubstr("disk on fire"));
}

TEST_P(JobFailureTest, TimersOnANonKeyedStreamAreRefused) {
  auto env = makeEnv();
  env.fromElements<int>({1})
      .process<int>([](const int&, ProcessContext& ctx, Collector<int>&) {
        ctx.timerService().registerEventTimeTimer(5);
      })
      .name("unkeyed")
      .print();
  const std::string message = failureOf(env);
  EXPECT_THAT(message, HasSubstr("operator 'unkeyed'"));
  EXPECT_THAT(message, HasSubstr("only supported on a keyed stream"));
}

TEST_P(JobFailureTest, AFailingSubtaskStopsAnEndlessSourceThatIgnoresCancellation) {
  auto env = makeEnv();
  env.setParallelism(2);
  struct Endless : ParallelSourceFunction<int> {
    void run(SourceContext<int>& ctx) override {
      for (int i = 0;; ++i) ctx.collect(i);  // never looks at isCancelled()
    }
  };
  env.addSource(Endless{}, "endless")
      .map([](int x) {
        if (x == 5000) throw std::runtime_error("enough");
        return x;
      })
      .name("limit")
      .addSink(DiscardSink<int>{});
  const std::string message = failureOf(env);
  EXPECT_THAT(message, HasSubstr("operator 'limit'"));
  EXPECT_THAT(message, HasSubstr("element '5000'"));
}

INSTANTIATE_TEST_SUITE_P(RealAndSimulated, JobFailureTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "Simulated" : "RealThreads"; });

TEST(InvalidProgramTest, EveryProblemIsListed) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  auto numbers = env.fromElements<int>({1, 2});
  numbers.setParallelism(3);
  numbers.forward().map([](int x) { return x; }).print();
  try {
    env.execute("invalid");
    FAIL() << "execute() accepted an invalid program";
  } catch (const InvalidProgramException& e) {
    const std::string message = e.what();
    EXPECT_THAT(message, HasSubstr("2 problems"));
    EXPECT_THAT(message, HasSubstr("'Collection Source' is not parallel"));
    EXPECT_THAT(message, HasSubstr("forward partitioning from 'Collection Source' (parallelism 3) to 'Map' (parallelism 2)"));
  }
}

TEST(InvalidProgramTest, AnEmptyJobIsRefused) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  EXPECT_THROW(env.execute("empty"), InvalidProgramException);
}

TEST(EnvironmentTest, BadSettingsAreRefusedAtOnce) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  EXPECT_THROW(env.setParallelism(0), std::invalid_argument);
  EXPECT_THROW(env.setMaxParallelism(1 << 16), std::invalid_argument);
  EXPECT_THROW(env.setBufferTimeout(-2), std::invalid_argument);
  EXPECT_THROW(env.getConfig().setAutoWatermarkInterval(-1), std::invalid_argument);
}

}  // namespace
}  // namespace tidemark
