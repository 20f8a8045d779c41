// Scenario S1: event-time timers in a keyed process function.
//
// A source emits three clicks of Mary five seconds apart; watermarks follow
// the timestamps (monotonous, periodic every 200 ms). For every element the
// process function prints the element's timestamp and the operator's current
// watermark, and registers an event-time timer:
//   --variant a: at currentWatermark() + 5000
//   --variant b: at ctx.timestamp() + 5000 (and one more element, 6001)
// onTimer prints the timer and the watermark that fired it.
//
// Run: s1_event_time_timers --simulated --variant a   (exact, instant)
//      s1_event_time_timers --variant a               (real time, ~15 s)
#include <cstdio>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "example_main.h"
#include "tidemark/tidemark.h"

namespace {

struct Event {
  std::string user;
  std::string url;
  tidemark::Timestamp timestamp;
};

/// The clicks of the scenario, with the source's sleeps between them.
class ClickSource : public tidemark::SourceFunction<Event> {
 public:
  explicit ClickSource(bool with_extra_click) : with_extra_click_(with_extra_click) {}

  void run(tidemark::SourceContext<Event>& ctx) override {
    ctx.collect({"Mary", "./home", 1000});
    ctx.sleep(5000);
    ctx.collect({"Mary", "./home", 2000});
    ctx.sleep(5000);
    ctx.collect({"Mary", "./home", 6000});
    if (with_extra_click_) ctx.collect({"Mary", "./home", 6001});
    ctx.sleep(5000);
  }

 private:
  bool with_extra_click_;
};

class TimerPrinter : public tidemark::KeyedProcessFunction<std::string, Event, std::string> {
 public:
  explicit TimerPrinter(bool timer_from_timestamp) : timer_from_timestamp_(timer_from_timestamp) {}

  void processElement(const Event& event, Context& ctx, tidemark::Collector<std::string>& out) override {
    const tidemark::Timestamp watermark = ctx.timerService().currentWatermark();
    out.collect(fmt::format("data arrived: key={} timestamp={} watermark={}", ctx.getCurrentKey(), event.timestamp,
                            watermark));
    const tidemark::Timestamp base = timer_from_timestamp_ ? *ctx.timestamp() : watermark;
    ctx.timerService().registerEventTimeTimer(tidemark::saturatingAdd(base, 5000));
  }

  void onTimer(tidemark::Timestamp timestamp, OnTimerContext& ctx, tidemark::Collector<std::string>& out) override {
    out.collect(fmt::format("timer fired: key={} time={} watermark={}", ctx.getCurrentKey(), timestamp,
                            ctx.timerService().currentWatermark()));
  }

 private:
  bool timer_from_timestamp_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Scenario S1: event-time timers in a keyed process function"};
  bool simulated = false;
  std::string variant = "a";
  app.add_flag("--simulated", simulated, "run in simulated time (exact output, no waiting)");
  app.add_option("--variant", variant, "a: timer at watermark + 5 s; b: timer at timestamp + 5 s")
      ->check(CLI::IsMember({"a", "b"}));
  if (const auto exit_code = examples::parseArguments(app, argc, argv)) return *exit_code;

  const bool variant_b = variant == "b";
  auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  if (simulated) env.enableSimulatedTime(0);

  env.addSource(ClickSource(variant_b), "clicks")
      .assignTimestampsAndWatermarks(tidemark::WatermarkStrategy<Event>::forMonotonousTimestamps()
                                         .withTimestampAssigner([](const Event& e, tidemark::Timestamp) {
                                           return e.timestamp;
                                         }))
      .keyBy([](const Event& e) { return e.user; })
      .process(TimerPrinter(variant_b))
      .print();
  return examples::runExample([&] {
    env.execute("S1 event-time timers");
  });
}
