// Scenario S3: late data. Events get watermarks with 2 s of bounded
// out-of-orderness; per url, tumbling 10 s event-time windows count views,
// stay open for one more minute of event time (allowedLateness) and re-fire
// with the updated count for every late event in that minute; events later
// than that go to a side output.
//
// Prints the window results as "result> UrlViewCount{...}" and the late side
// output as "late> Event{...}".
//
// Inputs: with --simulated, the scenario's 12 lines at virtual seconds
// 1..12 (exact output). In real time, lines "user,url,timestamp" from a TCP
// server (--host, --port 7777; e.g. `nc -lk 7777`), or --script FILE played
// against the wall clock ("<ms after start>,<line>" per line).
#include <cstdint>
#include <iostream>
#include <span>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "click_events.h"
#include "example_main.h"
#include "tidemark/tidemark.h"
#include "tidemark/windowing/tumbling_event_time_windows.h"

namespace {

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

Script scenarioScript() {
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

struct Options {
  bool simulated = false;
  std::string host = "localhost";
  int port = 7777;
  std::string script;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Scenario S3: late data with a watermark delay, allowed lateness and a late side output"};
  Options o;
  CLI::Option* simulated =
      app.add_flag("--simulated", o.simulated, "run in simulated time on the scenario's scripted input (exact output)");
  examples::addTextServerOptions(app, simulated, o.host, o.port, o.script);
  if (const auto exit_code = examples::parseArguments(app, argc, argv)) return *exit_code;

  return examples::runExample([&] {
    auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
    env.setParallelism(1);
    if (o.simulated) env.enableSimulatedTime(0);
    const bool scripted = o.simulated || !o.script.empty();
    auto lines = scripted ? env.addSource(tidemark::ScriptedSource<std::string>::single(
                                              o.script.empty() ? scenarioScript() : click_events::readScript(o.script)),
                                          "events")
                          : env.socketTextStream(o.host, o.port);
    auto events = lines.map([](const std::string& line) { return click_events::parseEvent(line); })
                      .name("parse")
                      .assignTimestampsAndWatermarks(
                          tidemark::WatermarkStrategy<Event>::forBoundedOutOfOrderness(std::chrono::seconds(2))
                              .withTimestampAssigner([](const Event& e, tidemark::Timestamp) { return e.timestamp; }));

    const tidemark::OutputTag<Event> late("late");
    auto result = events.keyBy([](const Event& e) { return e.url; })
                      .window(tidemark::TumblingEventTimeWindows::of(std::chrono::seconds(10)))
                      .allowedLateness(std::chrono::minutes(1))
                      .sideOutputLateData(late)
                      .aggregate(CountViews{}, ToUrlViewCount{});
    result.print("result");
    result.getSideOutput(late).print("late");
    env.execute("S3 late data");
  });
}
