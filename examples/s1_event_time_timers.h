// Scenario S1's job, shared by the example program and the tests that run
// it through failures (tests/examples/scenario_failure_test.cc).
//
// The clicks are a ScriptedSource (parallelism 1, as the scenario says), so
// that the job can be checkpointed and restored: it keeps its position, and
// a restored source plays the rest of the clicks with their gaps.
#pragma once

#include <string>
#include <tuple>

#include <fmt/format.h>

#include "tidemark/tidemark.h"

namespace s1 {

struct Event {
  std::string user;
  std::string url;
  tidemark::Timestamp timestamp = 0;
  auto fields() { return std::tie(user, url, timestamp); }
};

/// Mary's three clicks five seconds apart (variant b: one more, 6001, with
/// the 6000 one); the input ends five seconds after the last.
inline tidemark::ScriptedSource<Event> clicks(bool with_extra_click) {
  tidemark::ScriptedSource<Event>::Script script{{0, {"Mary", "./home", 1000}, {}},
                                                 {5000, {"Mary", "./home", 2000}, {}},
                                                 {10000, {"Mary", "./home", 6000}, {}}};
  if (with_extra_click) script.push_back({10000, {"Mary", "./home", 6001}, {}});
  auto source = tidemark::ScriptedSource<Event>::single(std::move(script));
  source.endAt(15000);
  return source;
}

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

/// The job: clicks -> monotonous watermarks -> keyBy(user) -> TimerPrinter;
/// returns the lines the example prints (from the process function, whose
/// parallelism the caller may change). Variant b times the timers from the
/// element's timestamp instead of the watermark.
inline tidemark::SingleOutputStreamOperator<std::string> eventTimeTimers(tidemark::StreamExecutionEnvironment& env,
                                                                       bool variant_b) {
  return env.addSource(clicks(variant_b), "clicks")
      .setParallelism(1)
      .assignTimestampsAndWatermarks(tidemark::WatermarkStrategy<Event>::forMonotonousTimestamps()
                                         .withTimestampAssigner([](const Event& e, tidemark::Timestamp) {
                                           return e.timestamp;
                                         }))
      .keyBy([](const Event& e) { return e.user; })
      .process(TimerPrinter(variant_b));
}

}  // namespace s1
