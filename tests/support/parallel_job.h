// A parallelism-2 job that uses every routing feature of the core engine: a
// parallel source, union, keyBy, keyed state and event-time timers, a side
// output, and a keyed connect with a control stream. Its results do not depend
// on timing (every record arrives before the watermark passes it, and results
// are computed in event-time timers), so a real-thread run must produce the
// same multiset as a simulated one; the simulated run also records the
// watermark each result was made at, which must be identical run after run.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/tidemark.h"

namespace tidemark::testing_support {

struct Click {
  std::string user;
  std::string url;
  Timestamp ts = 0;
  friend std::ostream& operator<<(std::ostream& os, const Click& c) {
    return os << c.user << "," << c.url << "," << c.ts;
  }
};

/// A per-key result and the watermark of the operator that made it.
struct Result {
  std::string text;
  Timestamp watermark = kMinWatermark;
  friend std::ostream& operator<<(std::ostream& os, const Result& r) { return os << r.text << " @wm=" << r.watermark; }
  friend bool operator==(const Result&, const Result&) = default;
};

struct ParallelJobOutputs {
  std::shared_ptr<CollectedRecords<Result>> counts;
  std::shared_ptr<CollectedRecords<Result>> alerts;
  std::shared_ptr<CollectedRecords<std::string>> product_views;
};

/// Per user: at event time ts + 1000 after each click, report how many of the
/// user's clicks have a timestamp up to then. Product pages go to a side output.
class ClicksUpTo : public KeyedProcessFunction<std::string, Click, std::pair<std::string, std::pair<Timestamp, int>>> {
 public:
  using Out = std::pair<std::string, std::pair<Timestamp, int>>;
  static inline const OutputTag<std::string> kProductViews{"product-views"};

  void open() override { seen_ = &getRuntimeContext().getListState(ListStateDescriptor<Timestamp>("seen")); }

  void processElement(const Click& click, Context& ctx, Collector<Out>&) override {
    seen_->add(click.ts);
    ctx.timerService().registerEventTimeTimer(click.ts + 1000);
    if (click.url.rfind("./prod", 0) == 0) ctx.output(kProductViews, click.user + " viewed " + click.url);
  }

  void onTimer(Timestamp t, OnTimerContext& ctx, Collector<Out>& out) override {
    int n = 0;
    for (Timestamp ts : seen_->get()) n += ts <= t ? 1 : 0;
    out.collect({ctx.getCurrentKey(), {t, n}});
  }

 private:
  ListState<Timestamp>* seen_ = nullptr;
};

/// Alerts when a count reaches the user's threshold from the control stream.
/// Decided in an event-time timer, when both inputs have passed the count's time.
class ThresholdAlerts
    : public KeyedCoProcessFunction<std::string, ClicksUpTo::Out, std::pair<std::string, int>, Result> {
 public:
  void open() override {
    threshold_ = &getRuntimeContext().getState(ValueStateDescriptor<int>("threshold"));
    pending_ = &getRuntimeContext().getMapState(MapStateDescriptor<Timestamp, int>("pending"));
  }
  void processElement1(const ClicksUpTo::Out& count, Context& ctx, Collector<Result>&) override {
    pending_->put(count.second.first, count.second.second);
    ctx.timerService().registerEventTimeTimer(count.second.first);
  }
  void processElement2(const std::pair<std::string, int>& control, Context&, Collector<Result>&) override {
    threshold_->update(control.second);
  }
  void onTimer(Timestamp t, OnTimerContext& ctx, Collector<Result>& out) override {
    const auto n = pending_->get(t);
    pending_->remove(t);
    const auto limit = threshold_->value();
    if (n && limit && *n >= *limit) {
      out.collect({"ALERT " + ctx.getCurrentKey() + " reached " + std::to_string(*n) + " clicks by " +
                       std::to_string(t),
                   ctx.timerService().currentWatermark()});
    }
  }

 private:
  ValueState<int>* threshold_ = nullptr;
  MapState<Timestamp, int>* pending_ = nullptr;
};

inline ScriptedSource<Click>::Script clickScript(const std::vector<std::pair<std::string, Timestamp>>& clicks) {
  ScriptedSource<Click>::Script script;
  Duration at = 0;
  for (const auto& [user_url, ts] : clicks) {
    const auto space = user_url.find(' ');
    at += 100;
    script.push_back({at, Click{user_url.substr(0, space), user_url.substr(space + 1), ts}, ts});
  }
  return script;
}

/// Build the job on `env` (parallelism 2) and return its collected outputs.
inline ParallelJobOutputs buildParallelJob(StreamExecutionEnvironment& env) {
  env.setParallelism(2);
  auto strategy = WatermarkStrategy<Click>::forBoundedOutOfOrderness(0);
  auto web = env.addSource(ScriptedSource<Click>({clickScript({{"Alice ./home", 1000},
                                                               {"Bob ./prod?id=1", 1500},
                                                               {"Alice ./prod?id=2", 2500},
                                                               {"Carol ./home", 4000},
                                                               {"Alice ./cart", 5200}}),
                                                  clickScript({{"Bob ./home", 1200},
                                                               {"Alice ./home", 1800},
                                                               {"Bob ./cart", 3300},
                                                               {"Bob ./prod?id=3", 3400}})}),
                           "web clicks")
                 .assignTimestampsAndWatermarks(strategy);
  auto mobile = env.addSource(ScriptedSource<Click>({clickScript({{"Carol ./prod?id=1", 900},
                                                                  {"Alice ./home", 2100},
                                                                  {"Carol ./cart", 4500}}),
                                                     clickScript({{"Dave ./home", 3000}, {"Bob ./home", 3900}})}),
                              "mobile clicks")
                    .assignTimestampsAndWatermarks(strategy);
  auto counts = web.union_(mobile).keyBy([](const Click& c) { return c.user; }).process(ClicksUpTo{}).name("counts");

  ParallelJobOutputs outputs;
  outputs.product_views = counts.getSideOutput(ClicksUpTo::kProductViews).collectToMemory();
  outputs.counts = counts
                       .process<Result>([](const ClicksUpTo::Out& c, ProcessContext& ctx, Collector<Result>& out) {
                         out.collect({c.first + " had " + std::to_string(c.second.second) + " clicks by " +
                                          std::to_string(c.second.first),
                                      ctx.timerService().currentWatermark()});
                       })
                       .collectToMemory();
  auto thresholds = env.fromElements<std::pair<std::string, int>>({{"Alice", 3}, {"Bob", 4}, {"Carol", 2}});
  outputs.alerts = counts.keyBy([](const ClicksUpTo::Out& c) { return c.first; })
                       .connect(thresholds.keyBy([](const std::pair<std::string, int>& t) { return t.first; }))
                       .process(ThresholdAlerts{})
                       .name("alerts")
                       .collectToMemory();
  return outputs;
}

}  // namespace tidemark::testing_support
