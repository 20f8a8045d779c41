// Scenario S4: complex event processing. Login events get watermarks with
// 3 s of bounded out-of-orderness; per user, the pattern "three failed logins
// in a row within 10 s" is matched in event time, so events are put in
// timestamp order before matching; events that arrive behind the watermark go
// to a side output.
//
// Prints each match as "alert> <user> failed to log in 3 times in a row: ..."
// and each late event as "late> LoginEvent{...}".
//
// The job itself is in s4_cep_login_failures.h.
//
// Inputs: with --simulated, the scenario's lines (exact output):
//   --variant a: the 7 lines all at virtual time 0
//   --variant b: the 7 lines at virtual seconds 1..7, then a late failure of
//                user_1 (timestamp 4000) at 8 s
// In real time, lines "user,ip,type,timestamp" from a TCP server (--host,
// --port 7777; e.g. `nc -lk 7777`), or --script FILE played against the wall
// clock ("<ms after start>,<line>" per line).
#include <string>

#include <CLI/CLI.hpp>

#include "click_events.h"
#include "example_main.h"
#include "s4_cep_login_failures.h"
#include "tidemark/tidemark.h"

namespace {

struct Options {
  bool simulated = false;
  std::string variant = "a";
  std::string host = "localhost";
  int port = 7777;
  std::string script;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Scenario S4: CEP, three consecutive login failures with out-of-order and late data"};
  Options o;
  CLI::Option* simulated =
      app.add_flag("--simulated", o.simulated, "run in simulated time on the scenario's scripted input (exact output)");
  app.add_option("--variant", o.variant, "a: all lines at once; b: a line per second, then a late one")
      ->check(CLI::IsMember({"a", "b"}));
  examples::addTextServerOptions(app, simulated, o.host, o.port, o.script);
  if (const auto exit_code = examples::parseArguments(app, argc, argv)) return *exit_code;

  return examples::runExample([&] {
    auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
    env.setParallelism(1);
    if (o.simulated) env.enableSimulatedTime(0);
    const bool scripted = o.simulated || !o.script.empty();
    auto lines = scripted ? env.addSource(tidemark::ScriptedSource<std::string>::single(
                                              o.script.empty() ? s4::scenarioScript(o.variant == "b")
                                                               : click_events::readScript(o.script)),
                                          "logins")
                          : env.socketTextStream(o.host, o.port);
    const s4::LoginAlerts outputs = s4::loginAlerts(lines);
    outputs.alerts.print("alert");
    outputs.late.print("late");
    env.execute("S4 CEP login failures");
  });
}
