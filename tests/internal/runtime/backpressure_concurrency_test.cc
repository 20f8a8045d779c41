// Real threads: a slow consumer slows the producer (bounded channels), and a
// trickle of records still flows one at a time (batches are flushed when a
// task waits, not only when full).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "tidemark/internal/runtime/record_writer.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

struct Counters {
  std::atomic<std::int64_t> emitted{0};
  std::atomic<std::int64_t> received{0};
  std::atomic<std::int64_t> max_in_flight{0};
};

/// Emits `n` records and tracks how far it ever got ahead of the sink.
class CountingSource : public SourceFunction<std::int64_t> {
 public:
  CountingSource(Counters* counters, std::int64_t n) : counters_(counters), n_(n) {}
  void run(SourceContext<std::int64_t>& ctx) override {
    for (std::int64_t i = 0; i < n_; ++i) {
      ctx.collect(i);
      const std::int64_t emitted = counters_->emitted.fetch_add(1) + 1;
      const std::int64_t in_flight = emitted - counters_->received.load();
      std::int64_t max = counters_->max_in_flight.load();
      while (in_flight > max && !counters_->max_in_flight.compare_exchange_weak(max, in_flight)) {
      }
    }
  }

 private:
  Counters* counters_;
  std::int64_t n_;
};

/// Holds its first record until the source has filled the channel, then drains.
class StallingSink : public SinkFunction<std::int64_t> {
 public:
  StallingSink(Counters* counters, std::int64_t stall_until) : counters_(counters), stall_until_(stall_until) {}
  void invoke(const std::int64_t&, const Context&) override {
    if (counters_->received.load() == 0) {
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (counters_->emitted.load() < stall_until_ && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::yield();
      }
    }
    counters_->received.fetch_add(1);
  }

 private:
  Counters* counters_;
  std::int64_t stall_until_;
};

TEST(BackpressureConcurrencyTest, ASlowSinkBoundsWhatTheSourceRunsAhead) {
  Counters counters;
  constexpr std::int64_t kRecords = 300000;
  // Room between the two tasks: the channel (8 batches), the batch being
  // filled, and the batch being consumed.
  constexpr std::int64_t kBound = (8 + 2) * static_cast<std::int64_t>(internal::kBatchSize);
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.addSource(CountingSource(&counters, kRecords))
      .addSink(StallingSink(&counters, 6 * static_cast<std::int64_t>(internal::kBatchSize)))
      .disableChaining();
  env.execute("backpressure");
  EXPECT_EQ(counters.received.load(), kRecords);
  EXPECT_GE(counters.max_in_flight.load(), 6 * static_cast<std::int64_t>(internal::kBatchSize));
  EXPECT_LE(counters.max_in_flight.load(), kBound);
}

/// Sends one record, then waits (through its context) until the sink echoes
/// it back over a pipe: only works if every single record is flushed.
class PingSource : public SourceFunction<std::int64_t> {
 public:
  PingSource(int echo_fd, int rounds) : echo_fd_(echo_fd), rounds_(rounds) {}
  void run(SourceContext<std::int64_t>& ctx) override {
    for (int i = 0; i < rounds_; ++i) {
      ctx.collect(i);
      if (!ctx.waitReadable(echo_fd_, 30000)) throw std::runtime_error("record " + std::to_string(i) + " never arrived");
      char byte = 0;
      if (::read(echo_fd_, &byte, 1) != 1) throw std::runtime_error("echo pipe broke");
    }
  }

 private:
  int echo_fd_;
  int rounds_;
};

class EchoSink : public SinkFunction<std::int64_t> {
 public:
  explicit EchoSink(int fd) : fd_(fd) {}
  void invoke(const std::int64_t&, const Context&) override {
    const char byte = 1;
    if (::write(fd_, &byte, 1) != 1) throw std::runtime_error("echo pipe broke");
  }

 private:
  int fd_;
};

TEST(BackpressureConcurrencyTest, ATrickleOfRecordsFlowsOneAtATime) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.addSource(PingSource(fds[0], 50)).addSink(EchoSink(fds[1])).disableChaining();
  const auto result = env.execute("trickle");
  EXPECT_EQ(result.recordsIn("Sink"), 50u);
  ::close(fds[0]);
  ::close(fds[1]);
}

}  // namespace
}  // namespace tidemark
