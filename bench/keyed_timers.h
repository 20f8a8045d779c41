// keyed-timers: generator -> keyBy(key) -> a KeyedProcessFunction that
// registers an event-time timer at timestamp + 1000 ms for every record and
// counts the timers that fire.
//
// With the default 1000 records per millisecond about 1,000,000 timers are
// pending at any time: the watermark trails the newest timestamp by ~1 ms and
// each timer waits 1000 ms. Timers are deduplicated per (key, time), so the
// number fired is the number of distinct (key, timestamp + 1000) pairs; the
// MAX watermark at the end of input fires the last second's worth.
//
// Watermarks come from the generator itself by default (one per millisecond
// of event time, see GeneratorSource); WatermarkMode::kStrategy uses
// forMonotonousTimestamps instead, for comparison. Either way the generator
// subtasks stay within kMaxSourceDrift of each other in event time (see
// EventTimeAlignment).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "workload_common.h"

namespace tidemark::bench {

inline constexpr Duration kTimerDelay = 1000;
/// How far (event time) a generator subtask may run ahead of the slowest:
/// small against the 1000 ms the timers wait, so it adds at most 5% to the
/// pending timers.
inline constexpr Duration kMaxSourceDrift = 50;

class FiredTimerCounter final : public KeyedProcessFunction<std::int64_t, Event, std::int64_t> {
 public:
  explicit FiredTimerCounter(std::shared_ptr<Tally> tally) : tally_(std::move(tally)) {}

  void processElement(const Event&, Context& ctx, Collector<std::int64_t>&) override {
    ++records_;
    ctx.timerService().registerEventTimeTimer(*ctx.timestamp() + kTimerDelay);
  }

  void onTimer(Timestamp timestamp, OnTimerContext& ctx, Collector<std::int64_t>&) override {
    ++fired_;
    checksum_ += checksumTerm(ctx.getCurrentKey(), timestamp);
  }

  // Timers fire inside the MAX watermark, before close(); emitting them
  // downstream instead would add a record per firing to what is measured.
  void close() override { tally_->add(checksum_, fired_, records_); }

 private:
  std::shared_ptr<Tally> tally_;
  std::uint64_t checksum_ = 0;
  std::int64_t fired_ = 0;
  std::int64_t records_ = 0;
};

inline WorkloadResult runKeyedTimers(const WorkloadOptions& options) {
  auto tally = std::make_shared<Tally>();
  auto env = StreamExecutionEnvironment::createLocalEnvironment(options.parallelism);
  const bool from_source = options.watermarks == WatermarkMode::kSource;
  auto alignment = std::make_shared<EventTimeAlignment>(options.parallelism, kMaxSourceDrift);
  DataStream<Event> events = env.addSource(
      GeneratorSource(options.records, options.records_per_milli, from_source, options.steady_hooks, alignment),
      "generator");
  if (!from_source) {
    events = events.assignTimestampsAndWatermarks(WatermarkStrategy<Event>::forMonotonousTimestamps());
  }
  events.keyBy([](const Event& e) { return e.key; }).process(FiredTimerCounter(tally)).name("timers");
  return executeJob(env, "keyed-timers", options, *tally);
}

}  // namespace tidemark::bench
