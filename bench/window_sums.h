// tumbling-sum, sliding-sum and tumbling-sum-1m-keys: generator ->
// keyBy(key) -> event-time windows -> sum(value) -> checksum sink.
//
//   tumbling-sum          10,000 keys, tumbling 1 s windows
//   sliding-sum           10,000 keys, sliding windows of 10 s every 1 s
//   tumbling-sum-1m-keys  1,000,000 keys, tumbling 1 s windows
//   tumbling-aggregate-process
//                         as tumbling-sum, written the way Flink jobs usually
//                         are: aggregate(AggregateFunction, ProcessWindowFunction),
//                         the function making each result from the key and
//                         the pre-aggregated sum
//
// Timestamps are ordered (record i at i / records-per-ms) and the generator
// emits the watermark itself, one per millisecond, so each window fires
// right after its last millisecond. The sink checksums every window result
// as (key, window, sum): which results exist and what they hold does not
// depend on parallelism or timing, so neither does the checksum.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>

#include "keyed_timers.h"
#include "workload_common.h"

namespace tidemark::bench {

inline constexpr std::int64_t kManyKeys = 1'000'000;
inline constexpr Duration kWindowSize = 1000;
inline constexpr Duration kSlidingSize = 10'000;
inline constexpr Duration kSlidingSlide = 1000;

/// One window result's contribution to a checksum: its key, window end and value.
constexpr std::uint64_t windowResultTerm(std::int64_t key, Timestamp window_max_timestamp, std::int64_t value) {
  return checksumTerm(static_cast<std::int64_t>(mix(static_cast<std::uint64_t>(key)) ^
                                                static_cast<std::uint64_t>(window_max_timestamp)),
                      value);
}

class WindowResultSink final : public SinkFunction<Event> {
 public:
  explicit WindowResultSink(std::shared_ptr<Tally> tally) : tally_(std::move(tally)) {}

  void invoke(const Event& result, const Context& ctx) override {
    checksum_ += windowResultTerm(result.key, ctx.timestamp.value_or(kMinWatermark), result.value);
    ++results_;
  }

  void finish() override { tally_->add(checksum_, results_, results_); }

 private:
  std::shared_ptr<Tally> tally_;
  std::uint64_t checksum_ = 0;
  std::int64_t results_ = 0;
};

/// generator -> keyBy(key) -> window(assigner) -> sum_per_window -> checksum
/// sink, where `sum_per_window(windowed)` makes the stream of window sums.
template <class Assigner, class SumPerWindow>
WorkloadResult runWindowJob(const WorkloadOptions& options, const char* name, std::int64_t keys, Assigner assigner,
                            SumPerWindow sum_per_window) {
  auto tally = std::make_shared<Tally>();
  auto env = StreamExecutionEnvironment::createLocalEnvironment(options.parallelism);
  auto alignment = std::make_shared<EventTimeAlignment>(options.parallelism, kMaxSourceDrift);
  auto windowed =
      env.addSource(GeneratorSource(options.records, options.records_per_milli, true, options.steady_hooks, alignment)
                        .withKeys(keys),
                    "generator")
          .keyBy([](const Event& e) { return e.key; })
          .window(assigner);
  sum_per_window(windowed).name("window sums").addSink(WindowResultSink(tally)).name("checksum");
  return executeJob(env, name, options, *tally);
}

template <class Assigner>
WorkloadResult runWindowSum(const WorkloadOptions& options, const char* name, std::int64_t keys, Assigner assigner) {
  return runWindowJob(options, name, keys, assigner, [](auto& windowed) { return windowed.sum(&Event::value); });
}

/// Sums values per window, one long at a time.
class SumValues final : public AggregateFunction<Event, std::int64_t, std::int64_t> {
 public:
  std::int64_t createAccumulator() override { return 0; }
  std::int64_t add(const Event& event, std::int64_t sum) override { return sum + event.value; }
  std::int64_t getResult(const std::int64_t& sum) override { return sum; }
  std::int64_t merge(std::int64_t a, std::int64_t b) override { return a + b; }
};

/// The window's result for its key (stamped with the window's maxTimestamp).
class KeyedWindowSum final : public ProcessWindowFunction<std::int64_t, Event, std::int64_t, TimeWindow> {
 public:
  void process(const std::int64_t& key, Context&, std::span<const std::int64_t> sums, Collector<Event>& out) override {
    out.collect(Event{key, sums[0]});
  }
};

inline WorkloadResult runTumblingAggregateProcess(const WorkloadOptions& options) {
  return runWindowJob(options, "tumbling-aggregate-process", kNumKeys, TumblingEventTimeWindows::of(kWindowSize),
                      [](auto& windowed) { return windowed.aggregate(SumValues{}, KeyedWindowSum{}); });
}

inline WorkloadResult runTumblingSum(const WorkloadOptions& options) {
  return runWindowSum(options, "tumbling-sum", kNumKeys, TumblingEventTimeWindows::of(kWindowSize));
}

inline WorkloadResult runSlidingSum(const WorkloadOptions& options) {
  return runWindowSum(options, "sliding-sum", kNumKeys, SlidingEventTimeWindows::of(kSlidingSize, kSlidingSlide));
}

inline WorkloadResult runTumblingSumManyKeys(const WorkloadOptions& options) {
  return runWindowSum(options, "tumbling-sum-1m-keys", kManyKeys, TumblingEventTimeWindows::of(kWindowSize));
}

}  // namespace tidemark::bench
