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
// The job itself is in s1_event_time_timers.h.
//
// Run: s1_event_time_timers --simulated --variant a   (exact, instant)
//      s1_event_time_timers --variant a               (real time, ~15 s)
#include <string>

#include <CLI/CLI.hpp>

#include "example_main.h"
#include "s1_event_time_timers.h"
#include "tidemark/tidemark.h"

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

  s1::eventTimeTimers(env, variant_b).print();
  return examples::runExample([&] {
    env.execute("S1 event-time timers");
  });
}
