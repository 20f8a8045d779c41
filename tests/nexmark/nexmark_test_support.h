// Running a Nexmark query on a small generated input in simulated time, and
// the same events as a vector for a brute-force expected result.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "nexmark/event_generator.h"
#include "nexmark/nexmark_source.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark::testing {

/// A small input whose windows and auctions close many times: 1,000 events
/// per second of event time (so 50,000 events span 50 s), events up to
/// 200 ms out of order.
inline GeneratorConfig smallConfig() {
  GeneratorConfig config;
  config.seed = 42;
  config.events_per_second = 1000;
  config.max_out_of_orderness = 200;
  return config;
}

/// 20 events per millisecond and none out of order: many bids and auctions
/// share their millisecond with others of the same bidder, auction or
/// seller, which is what the queries' combining before a shuffle folds.
inline GeneratorConfig denseConfig() {
  GeneratorConfig config = smallConfig();
  config.events_per_second = 20'000;
  config.max_out_of_orderness = 0;
  return config;
}

inline std::vector<Event> generateEvents(const GeneratorConfig& config, std::int64_t count) {
  const EventGenerator generator(config);
  std::vector<Event> events;
  events.reserve(static_cast<std::size_t>(count));
  for (std::int64_t n = 0; n < count; ++n) events.push_back(generator.generate(n));
  return events;
}

/// Runs `build(source)` over `count` generated events at `parallelism` in
/// simulated time and returns what reached its sink (arrival order). With a
/// `job_clock_rate`, the source is paced on the job's clock: event n is
/// processed at n * 1000 / job_clock_rate ms of (virtual) processing time.
template <class Build>
auto runQuery(Build build, const GeneratorConfig& config, std::int64_t count, int parallelism,
              std::int64_t job_clock_rate = 0) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(parallelism);
  env.enableSimulatedTime();
  SourceOptions options;
  options.generator = config;
  options.events = count;
  options.rate = job_clock_rate;
  options.pacing = Pacing::kJobClock;
  auto results = build(addNexmarkSource(env, options)).collectToMemory();
  env.execute("nexmark test");
  return results->values();
}

/// `values` sorted, for comparing results whose order depends on parallelism.
template <class T, class Less = std::less<>>
std::vector<T> sorted(std::vector<T> values, Less less = {}) {
  std::sort(values.begin(), values.end(), less);
  return values;
}

}  // namespace tidemark::nexmark::testing
