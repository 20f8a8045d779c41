// Event time across a restore: a job restored from a checkpoint taken while
// one of its inputs was idle goes on as the failed job did, with that input
// still idle, instead of holding every window and timer back until the input
// sends again (docs/semantics.md, checkpoints: the valve and the combination
// of a two-input operator's inputs are in the snapshot).
#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "support/logging_sink.h"
#include "support/scratch_directory.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using testing::AllOf;
using testing::Contains;
using testing::EndsWith;
using testing::StartsWith;
using testing_support::LoggingSink;
using testing_support::ScratchDirectory;
using testing_support::SinkLog;

/// Subtask i emits `counts[i]` values i * 1000 + j at event time j, four per
/// 3 ms, then waits `linger[i]` ms before it ends: one that lingers sends
/// nothing for a long while, and its watermark generator marks it idle.
class PacedSource : public ParallelSourceFunction<std::int64_t>, public CheckpointedFunction {
 public:
  PacedSource(std::vector<std::int64_t> counts, std::vector<Duration> linger)
      : counts_(std::move(counts)), linger_(std::move(linger)) {}

  void initializeState(FunctionInitializationContext& ctx) override {
    position_ = &ctx.getOperatorStateStore().getListState(ListStateDescriptor<std::int64_t>("next"));
    for (std::int64_t next : position_->get()) next_ = next;
  }
  void snapshotState(const FunctionSnapshotContext&) override { position_->update({next_}); }

  void run(SourceContext<std::int64_t>& ctx) override {
    const auto subtask = static_cast<std::size_t>(ctx.getIndexOfThisSubtask());
    const std::int64_t base = static_cast<std::int64_t>(subtask) * 1000;
    while (next_ < counts_.at(subtask) && !ctx.isCancelled()) {
      {
        std::lock_guard<CheckpointLock> lock(ctx.getCheckpointLock());
        ctx.collectWithTimestamp(base + next_, next_);
        ++next_;
      }
      if (next_ % 4 == 0) ctx.sleep(3);
    }
    if (!ctx.isCancelled()) ctx.sleep(linger_.at(subtask));
  }

 private:
  std::vector<std::int64_t> counts_;
  std::vector<Duration> linger_;
  std::int64_t next_ = 0;
  ListState<std::int64_t>* position_ = nullptr;
};

const char* timing(Timestamp watermark) { return watermark == kMaxWatermark ? "at the end" : "on time"; }

/// The sum of a window, and whether it fired on time or only at the end of input.
class TimedSum : public ProcessWindowFunction<std::int64_t, std::string, std::int64_t, TimeWindow> {
 public:
  void process(const std::int64_t& key, Context& ctx, std::span<const std::int64_t> values,
               Collector<std::string>& out) override {
    std::int64_t sum = 0;
    for (std::int64_t v : values) sum += v;
    out.collect(fmt::format("key {} [{}, {}) sum {} {}", key, ctx.window().getStart(), ctx.window().getEnd(), sum,
                            timing(ctx.currentWatermark())));
  }
};

struct RunOptions {
  std::int64_t fail_at = -1;  // the value whose map throws; -1: none
  std::filesystem::path storage;
  bool restore = false;
  int window_parallelism = 2;
};

StreamExecutionEnvironment checkpointedEnvironment(const RunOptions& options) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime().enableCheckpointing(100);
  env.getConfig().setAutoWatermarkInterval(10);
  if (!options.storage.empty()) env.getCheckpointConfig().setCheckpointStorage(options.storage.string());
  if (options.restore) env.setRestorePath(options.storage.string());
  env.setRestartStrategy(RestartStrategies::noRestart());  // a failure ends the process; a new one restores
  return env;
}

DataStream<std::int64_t> pacedStream(StreamExecutionEnvironment& env, PacedSource source, const std::string& name,
                                     std::int64_t fail_at) {
  return env.addSource(std::move(source), name)
      .assignTimestampsAndWatermarks(WatermarkStrategy<std::int64_t>::forMonotonousTimestamps().withIdleness(20))
      .map([fail_at](std::int64_t v) {
        if (v == fail_at) throw std::runtime_error(fmt::format("injected failure at {}", v));
        return v;
      })
      .name(name + "-fail-at");
}

/// Source subtask 0 sends 0..399 (until 300 ms); subtask 1 sends eight
/// values and is idle from about 30 ms until it ends at about 1000 ms. The
/// window task's valve follows subtask 0 alone while subtask 1 is idle.
JobExecutionResult runWindowsWithAnIdleChannel(const std::shared_ptr<SinkLog>& log, const RunOptions& options) {
  auto env = checkpointedEnvironment(options);
  pacedStream(env, PacedSource({400, 8}, {0, 1000}), "paced", options.fail_at)
      .keyBy([](std::int64_t v) { return v % 3; })
      .window(TumblingEventTimeWindows::of(50))
      .process(TimedSum{})
      .setParallelism(options.window_parallelism)
      .addSink(LoggingSink(log));
  return env.execute("windows with an idle channel");
}

/// Fails a run at `fail_at`, after checkpoint 1 and before checkpoint 2, and
/// restores it from checkpoint 1: the log ends with what the restored run wrote.
template <class Run>
void failAndRestore(Run run, const std::shared_ptr<SinkLog>& log, std::int64_t fail_at) {
  ScratchDirectory dir("checkpoint-event-time");
  EXPECT_THROW(run(log, {.fail_at = fail_at, .storage = dir.path()}), JobExecutionException);
  run(log, {.storage = dir.path(), .restore = true});
  EXPECT_GT(log->cut, 0u) << "the failed run wrote lines after its last checkpoint";
}

TEST(CheckpointEventTimeTest, AChannelIdleAtTheCheckpointIsStillIdleAfterTheRestore) {
  auto expected = std::make_shared<SinkLog>();
  runWindowsWithAnIdleChannel(expected, {});
  // Without a failure, windows after the failure point (value 200, at 150 ms)
  // fire on time, long before the idle subtask ends.
  EXPECT_THAT(expected->sortedLines(), Contains(AllOf(StartsWith("key 2 [200, 250) "), EndsWith(" on time"))));

  // The checkpoint at 100 ms is taken while subtask 1 is idle; the window
  // task's valve is restored with that channel idle (and the generator,
  // restored idle, says so again at its first periodic emit).
  auto log = std::make_shared<SinkLog>();
  failAndRestore(runWindowsWithAnIdleChannel, log, 200);
  EXPECT_EQ(log->sortedLines(), expected->sortedLines());
}

TEST(CheckpointEventTimeTest, AGeneratorRestoredIdleSaysSoAgainSoARescaledTaskDownstreamDoesNotWaitForIt) {
  auto expected = std::make_shared<SinkLog>();
  runWindowsWithAnIdleChannel(expected, {});
  ScratchDirectory dir("checkpoint-event-time");
  auto log = std::make_shared<SinkLog>();
  EXPECT_THROW(runWindowsWithAnIdleChannel(log, {.fail_at = 200, .storage = dir.path()}), JobExecutionException);
  // The window task comes back at parallelism 1: its valve cannot take the
  // old valves' channels, so both start active. Subtask 1's generator,
  // restored idle at the same parallelism, says so again at its first
  // periodic emit; without that the windows would wait for it until it ends
  // at about 1000 ms, and fire only at the end.
  runWindowsWithAnIdleChannel(log, {.storage = dir.path(), .restore = true, .window_parallelism = 1});
  EXPECT_GT(log->cut, 0u) << "the failed run wrote lines after its last checkpoint";
  EXPECT_EQ(log->sortedLines(), expected->sortedLines());
}

/// Sums both inputs per key over 50 ms spans of event time; a timer at the
/// end of each span reports it, and whether it fired on time.
class TimedSpanSums : public KeyedCoProcessFunction<std::int64_t, std::int64_t, std::int64_t, std::string> {
 public:
  void open() override { sums_ = &getRuntimeContext().getMapState(MapStateDescriptor<Timestamp, std::int64_t>("sums")); }
  void processElement1(const std::int64_t& v, Context& ctx, Collector<std::string>&) override { add(v, ctx); }
  void processElement2(const std::int64_t& v, Context& ctx, Collector<std::string>&) override { add(v, ctx); }
  void onTimer(Timestamp timestamp, OnTimerContext& ctx, Collector<std::string>& out) override {
    out.collect(fmt::format("key {} span {} sum {} {}", ctx.getCurrentKey(), timestamp, sums_->get(timestamp).value_or(0),
                            timing(ctx.timerService().currentWatermark())));
    sums_->remove(timestamp);
  }

 private:
  void add(std::int64_t v, Context& ctx) {
    const Timestamp span_end = (*ctx.timestamp() / 50 + 1) * 50 - 1;
    sums_->put(span_end, sums_->get(span_end).value_or(0) + v);
    ctx.timerService().registerEventTimeTimer(span_end);
  }

  MapState<Timestamp, std::int64_t>* sums_ = nullptr;
};

/// An active input (both subtasks send 0..399) connected to one that is
/// wholly idle after its first four values per subtask: the two-input
/// operator's event time follows the active input alone.
JobExecutionResult runTimersWithAnIdleInput(const std::shared_ptr<SinkLog>& log, const RunOptions& options) {
  auto env = checkpointedEnvironment(options);
  auto active = pacedStream(env, PacedSource({400, 400}, {0, 0}), "active", options.fail_at);
  auto idle = pacedStream(env, PacedSource({4, 4}, {1000, 1000}), "idle", -1);
  auto byResidue = [](std::int64_t v) { return v % 3; };
  active.connect(idle).keyBy(byResidue, byResidue).process(TimedSpanSums{}).addSink(LoggingSink(log));
  return env.execute("timers with an idle input");
}

TEST(CheckpointEventTimeTest, AnInputIdleAtTheCheckpointIsStillIdleAfterTheRestore) {
  auto expected = std::make_shared<SinkLog>();
  runTimersWithAnIdleInput(expected, {});
  EXPECT_THAT(expected->sortedLines(), Contains(AllOf(StartsWith("key 2 span 249 "), EndsWith(" on time"))));

  // At the checkpoint both channels of the second input are idle, and so is
  // the input; restored, the operator must not wait for it.
  auto log = std::make_shared<SinkLog>();
  failAndRestore(runTimersWithAnIdleInput, log, 200);
  EXPECT_EQ(log->sortedLines(), expected->sortedLines());
}

}  // namespace
}  // namespace tidemark
