// SIGINT / SIGTERM cancel a running job (signal_cancellation.h), inside this
// process: a source raises the signal itself, once it has emitted, and then
// waits for the cancellation; no test here waits on the clock.
#include "tidemark/internal/runtime/signal_cancellation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <vector>

#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::HasSubstr;

/// Emits 1, 2, 3, raises `signal_number`, then waits until the job is cancelled.
struct RaisingSource : SourceFunction<int> {
  explicit RaisingSource(int signal) : signal_number(signal) {}
  void run(SourceContext<int>& ctx) override {
    for (int i = 1; i <= 3; ++i) ctx.collect(i);
    std::raise(signal_number);
    while (!ctx.isCancelled()) ctx.sleep(5);
  }
  int signal_number;
};

bool hasDefaultAction(int signal_number) {
  struct sigaction current {};
  ::sigaction(signal_number, nullptr, &current);
  return current.sa_handler == SIG_DFL;
}

TEST(SignalCancellationTest, SigtermCancelsTheJobAndClosesItsSinks) {
  ASSERT_TRUE(hasDefaultAction(SIGTERM));
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  auto collected = env.addSource(RaisingSource(SIGTERM), "raising").collectToMemory();
  try {
    env.execute("until SIGTERM");
    FAIL() << "the job was not cancelled";
  } catch (const JobCancellationException& e) {
    EXPECT_EQ(e.signal(), SIGTERM);
    EXPECT_THAT(e.what(), HasSubstr("job 'until SIGTERM' was cancelled by SIGTERM"));
  }
  EXPECT_EQ(collected->values(), (std::vector<int>{1, 2, 3}));
  EXPECT_TRUE(hasDefaultAction(SIGTERM)) << "the default action must be back once the job ended";
}

TEST(SignalCancellationTest, AUsersOwnHandlerIsLeftAlone) {
  static volatile std::sig_atomic_t caught = 0;
  struct sigaction own {};
  own.sa_handler = [](int) { caught = 1; };
  sigemptyset(&own.sa_mask);
  struct sigaction before {};
  ASSERT_EQ(::sigaction(SIGINT, &own, &before), 0);

  struct RaiseOnce : SourceFunction<int> {
    void run(SourceContext<int>& ctx) override {
      std::raise(SIGINT);
      ctx.collect(1);
    }
  };
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  auto collected = env.addSource(RaiseOnce{}, "raise once").collectToMemory();
  env.execute("own handler");  // not cancelled: the signal went to the user's handler
  EXPECT_EQ(caught, 1);
  EXPECT_EQ(collected->values(), (std::vector<int>{1}));
  ::sigaction(SIGINT, &before, nullptr);
}

TEST(SignalCancellationTest, TurnedOffTheSignalsKeepTheirActions) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.setCancelOnSignals(false);
  struct ChecksActions : SourceFunction<int> {
    void run(SourceContext<int>& ctx) override { ctx.collect(hasDefaultAction(SIGINT) && hasDefaultAction(SIGTERM)); }
  };
  auto collected = env.addSource(ChecksActions{}, "checks").collectToMemory();
  env.execute("no signal handling");
  EXPECT_EQ(collected->values(), (std::vector<int>{1}));
}

TEST(SignalCancellationTest, WhileAJobRunsTheSignalsAreTakenOver) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  struct ChecksActions : SourceFunction<int> {
    void run(SourceContext<int>& ctx) override { ctx.collect(!hasDefaultAction(SIGINT) && !hasDefaultAction(SIGTERM)); }
  };
  auto collected = env.addSource(ChecksActions{}, "checks").collectToMemory();
  env.execute("signal handling");
  EXPECT_EQ(collected->values(), (std::vector<int>{1}));
}

}  // namespace
}  // namespace tidemark
