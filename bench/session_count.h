// session-count: generator -> map(to a session key, 1) -> keyBy ->
// event-time session windows (gap 1 s) -> sum -> checksum sink.
//
// The generator's keys recur every few milliseconds, so on their own they
// would form one session per key lasting the whole run. Instead a key lives
// for one epoch of kSessionEpoch ms of event time (the session key is the
// generator key plus the epoch), then falls silent: each (key, epoch) is one
// session of ~kSessionEpoch ms that grows by merging with every element and
// closes a gap after its last one.
//
// Timestamps advance 3 ms per generator millisecond (withTimestampStride),
// so two elements of a key are never exactly one gap (1000 ms) apart. That
// keeps the result independent of timing: a session [s, e) and an element at
// e touch, and whether they merge depends on whether the watermark fired the
// session before the element arrived, which at parallelism > 1 depends on
// how the source subtasks interleave.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "window_sums.h"

namespace tidemark::bench {

inline constexpr Duration kSessionGap = 1000;
inline constexpr Duration kSessionEpoch = 2000;
inline constexpr std::int64_t kSessionTimestampStride = 3;

constexpr std::int64_t sessionKeyOf(std::int64_t key, Timestamp timestamp) {
  return key + kNumKeys * (timestamp / kSessionEpoch);
}

inline WorkloadResult runSessionCount(const WorkloadOptions& options) {
  auto tally = std::make_shared<Tally>();
  auto env = StreamExecutionEnvironment::createLocalEnvironment(options.parallelism);
  auto alignment = std::make_shared<EventTimeAlignment>(options.parallelism, kMaxSourceDrift);
  const std::int64_t records_per_milli = options.records_per_milli;
  env.addSource(GeneratorSource(options.records, options.records_per_milli, true, options.steady_hooks, alignment)
                    .withTimestampStride(kSessionTimestampStride),
                "generator")
      .map([records_per_milli](const Event& e) {
        return Event{sessionKeyOf(e.key, timestampOf(e.value, records_per_milli) * kSessionTimestampStride), 1};
      })
      .keyBy([](const Event& e) { return e.key; })
      .window(EventTimeSessionWindows::withGap(kSessionGap))
      .sum(&Event::value)
      .name("session counts")
      .addSink(WindowResultSink(tally))
      .name("checksum");
  return executeJob(env, "session-count", options, *tally);
}

}  // namespace tidemark::bench
