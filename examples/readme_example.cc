// The example of README.md, built with the other examples so it stays correct.
#include <iostream>

#include "tidemark/tidemark.h"
struct Click { std::string user; tidemark::Timestamp ts; };

class Timeout : public tidemark::KeyedProcessFunction<std::string, Click, std::string> {
 public:
  void processElement(const Click& c, Context& ctx, tidemark::Collector<std::string>&) override {
    ctx.timerService().registerEventTimeTimer(c.ts + 5000);  // 5 s of event time later
  }
  void onTimer(tidemark::Timestamp t, OnTimerContext& ctx, tidemark::Collector<std::string>& out) override {
    out.collect(ctx.getCurrentKey() + " timer at " + std::to_string(t));
  }
};

int main() {
  auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(2).enableSimulatedTime();  // drop enableSimulatedTime() for the wall clock
  env.fromElements<Click>({{"Mary", 1000}, {"Bob", 2000}, {"Mary", 3000}})
      .assignTimestampsAndWatermarks(tidemark::WatermarkStrategy<Click>::forMonotonousTimestamps()
          .withTimestampAssigner([](const Click& c, tidemark::Timestamp) { return c.ts; }))
      .keyBy([](const Click& c) { return c.user; })
      .process(Timeout{})
      .print();
  try {
    env.execute("timeouts");
  } catch (const tidemark::JobExecutionException& e) {  // the job failed, or Ctrl-C cancelled it
    std::cerr << e.what() << '\n';
    return 1;
  }
}
