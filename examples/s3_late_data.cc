// Scenario S3: late data. Events get watermarks with 2 s of bounded
// out-of-orderness; per url, tumbling 10 s event-time windows count views,
// stay open for one more minute of event time (allowedLateness) and re-fire
// with the updated count for every late event in that minute; events later
// than that go to a side output.
//
// Prints the window results as "result> UrlViewCount{...}" and the late side
// output as "late> Event{...}".
//
// The job itself is in s3_late_data.h.
//
// Inputs: with --simulated, the scenario's 12 lines at virtual seconds
// 1..12 (exact output). In real time, lines "user,url,timestamp" from a TCP
// server (--host, --port 7777; e.g. `nc -lk 7777`), or --script FILE played
// against the wall clock ("<ms after start>,<line>" per line).
#include <string>

#include <CLI/CLI.hpp>

#include "click_events.h"
#include "example_main.h"
#include "s3_late_data.h"
#include "tidemark/tidemark.h"

namespace {

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
                                              o.script.empty() ? s3::scenarioScript() : click_events::readScript(o.script)),
                                          "events")
                          : env.socketTextStream(o.host, o.port);
    const s3::LateDataOutputs outputs = s3::lateData(lines);
    outputs.results.print("result");
    outputs.late.print("late");
    env.execute("S3 late data");
  });
}
