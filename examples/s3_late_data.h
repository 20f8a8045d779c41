// Scenario S3's job, shared by the example program and the tests that run
// it through failures (tests/examples/scenario_failure_test.cc).
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>

#include "click_events.h"
#include "tidemark/tidemark.h"
#include "tidemark/windowing/tumbling_event_time_windows.h"

namespace s3 {

using click_events::Event;
using click_events::Script;

struct UrlViewCount {
  std::string url;
  std::int64_t count = 0;
  tidemark::Timestamp window_start = 0;
  tidemark::Timestamp window_end = 0;

  friend std::ostream& operator<<(std::ostream& os, const UrlViewCount& c) {
    return os << "UrlViewCount{url=" << c.url << ", count=" << c.count << ", windowStart=" << c.window_start
              << ", windowEnd=" << c.window_end << '}';
  }
};

/// Counts a window's events incrementally.
class CountViews : public tidemark::AggregateFunction<Event, std::int64_t, std::int64_t> {
 public:
  std::int64_t createAccumulator() override { return 0; }
  std::int64_t add(const Event&, std::int64_t count) override { return count + 1; }
  std::int64_t getResult(const std::int64_t& count) override { return count; }
  std::int64_t merge(std::int64_t a, std::int64_t b) override { return a + b; }
};

/// Adds the url and the window's bounds to the count.
class ToUrlViewCount
    : public tidemark::ProcessWindowFunction<std::int64_t, UrlViewCount, std::string, tidemark::TimeWindow> {
 public:
  void process(const std::string& url, Context& ctx, std::span<const std::int64_t> counts,
               tidemark::Collector<UrlViewCount>& out) override {
    out.collect(UrlViewCount{url, counts.front(), ctx.window().getStart(), ctx.window().getEnd()});
  }
};

/// The scenario's 12 lines, one per virtual second from 1 s.
inline Script scenarioScript() {
  const char* lines[] = {"Alice,./home,1000",         "Alice,./home,2000",  "Alice,./home,10000",
                         "Alice,./home,9000",         "Alice,./cart,12000", "Alice,./prod?id=100,15000",
                         "Alice,./home,9000",         "Alice,./home,8000",  "Alice,./prod?id=200,70000",
                         "Alice,./home,8000",         "Alice,./prod?id=300,72000", "Alice,./home,8000"};
  Script script;
  tidemark::Duration at = 1000;
  for (const char* line : lines) {
    script.push_back({at, line, {}});
    at += 1000;
  }
  return script;
}

/// What the job prints: the window results ("result> ") and the events
/// too late even for the allowed lateness ("late> ").
struct LateDataOutputs {
  tidemark::SingleOutputStreamOperator<UrlViewCount> results;
  tidemark::DataStream<Event> late;
};

/// lines -> parse -> watermarks 2 s out of order -> keyBy(url) -> tumbling 10 s
/// windows, 1 minute allowed lateness, late data to a side output -> count.
inline LateDataOutputs lateData(const tidemark::DataStream<std::string>& lines) {
  auto events = lines.map([](const std::string& line) { return click_events::parseEvent(line); })
                    .name("parse")
                    .assignTimestampsAndWatermarks(
                        tidemark::WatermarkStrategy<Event>::forBoundedOutOfOrderness(std::chrono::seconds(2))
                            .withTimestampAssigner([](const Event& e, tidemark::Timestamp) { return e.timestamp; }));
  const tidemark::OutputTag<Event> late("late");
  auto results = events.keyBy([](const Event& e) { return e.url; })
                     .window(tidemark::TumblingEventTimeWindows::of(std::chrono::seconds(10)))
                     .allowedLateness(std::chrono::minutes(1))
                     .sideOutputLateData(late)
                     .aggregate(CountViews{}, ToUrlViewCount{});
  return {results, results.getSideOutput(late)};
}

}  // namespace s3
