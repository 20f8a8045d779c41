// Scenario S4: complex event processing. Login events get watermarks with
// 3 s of bounded out-of-orderness; per user, the pattern "three failed logins
// in a row within 10 s" is matched in event time, so events are put in
// timestamp order before matching; events that arrive behind the watermark go
// to a side output.
//
// Prints each match as "alert> <user> failed to log in 3 times in a row: ..."
// and each late event as "late> LoginEvent{...}".
//
// Inputs: with --simulated, the scenario's lines (exact output):
//   --variant a: the 7 lines all at virtual time 0
//   --variant b: the 7 lines at virtual seconds 1..7, then a late failure of
//                user_1 (timestamp 4000) at 8 s
// In real time, lines "user,ip,type,timestamp" from a TCP server (--host,
// --port 7777; e.g. `nc -lk 7777`), or --script FILE played against the wall
// clock ("<ms after start>,<line>" per line).
#include <chrono>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "click_events.h"
#include "login_events.h"
#include "example_main.h"
#include "tidemark/tidemark.h"

namespace {

using click_events::Script;
using login_events::LoginEvent;

const char* const kLines[] = {"user_1,192.168.0.1,fail,2000",  "user_1,192.168.0.2,fail,3000",
                              "user_2,192.168.1.29,fail,4000", "user_1,171.56.23.10,fail,5000",
                              "user_2,192.168.1.29,fail,7000", "user_2,192.168.1.29,fail,8000",
                              "user_2,192.168.1.29,success,6000"};

Script scenarioScript(bool variant_b) {
  Script script;
  tidemark::Duration at = 0;
  for (const char* line : kLines) {
    if (variant_b) at += 1000;
    script.push_back({at, line, {}});
  }
  // At 8 s the watermark is 8000 - 3000 - 1 = 4999, so this one is late.
  if (variant_b) script.push_back({8000, "user_1,192.168.0.3,fail,4000", {}});
  return script;
}

/// Renders a match of the three failures as the alert line.
std::string alertFor(const tidemark::Match<LoginEvent>& match) {
  const LoginEvent& first = match.at("first").front();
  return fmt::format("{} failed to log in 3 times in a row: {}, {}, {}", first.user, first.timestamp,
                     match.at("second").front().timestamp, match.at("third").front().timestamp);
}

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
                                              o.script.empty() ? scenarioScript(o.variant == "b")
                                                               : click_events::readScript(o.script)),
                                          "logins")
                          : env.socketTextStream(o.host, o.port);
    const auto timestamp_of = [](const LoginEvent& e, tidemark::Timestamp) { return e.timestamp; };
    auto logins = lines.map([](const std::string& line) { return login_events::parseLoginEvent(line); })
                      .name("parse")
                      .assignTimestampsAndWatermarks(
                          tidemark::WatermarkStrategy<LoginEvent>::forBoundedOutOfOrderness(std::chrono::seconds(3))
                              .withTimestampAssigner(timestamp_of));

    const auto fail = [](const LoginEvent& e) { return e.type == "fail"; };
    const tidemark::Pattern<LoginEvent> three_failures = tidemark::Pattern<LoginEvent>::begin("first")
                                                             .where(fail)
                                                             .next("second")
                                                             .where(fail)
                                                             .next("third")
                                                             .where(fail)
                                                             .within(std::chrono::seconds(10));

    // The late side output and the alerts leave the same operator, whose sinks
    // are chained to it: a late event prints when it arrives, an alert when
    // the watermark passes its last event, so the order follows event time.
    const tidemark::OutputTag<LoginEvent> late("late");
    auto alerts = tidemark::CEP::pattern(logins.keyBy([](const LoginEvent& e) { return e.user; }), three_failures)
                      .sideOutputLateData(late)
                      .select(alertFor);
    alerts.print("alert");
    alerts.getSideOutput(late).print("late");
    env.execute("S4 CEP login failures");
  });
}
