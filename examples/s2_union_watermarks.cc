// Scenario S2: the watermark after a union is the minimum of its inputs.
//
// Two streams of "user,url,timestamp" lines are parsed into events, get
// monotonous-timestamp watermarks, are merged, and a process function prints
// every record with the watermark its operator has at that moment.
//
//   --variant a (default): stream1.union(stream2).process(...)
//   --variant b: ONE source of parallelism 2 (subtask i plays stream i+1),
//                keyBy(user) into a process function of parallelism 1.
//
// Inputs: with --simulated, scripted lines at the scenario's virtual instants
// (exact output). In real time, variant a reads two TCP servers
// (--host, --port1 7777, --port2 8888; e.g. `nc -lk 7777`) and variant b plays
// the scripts against the wall clock. --script1/--script2 FILE replace a
// script: one "<ms after start>,<line>" per line.
//
// The jobs themselves are in s2_union_watermarks.h.
//
// Malformed lines fail the job, naming the parse operator and the line;
// with --dead-letter they go to a side output printed as "dead-letter> ...".
#include <string>

#include <CLI/CLI.hpp>

#include "click_events.h"
#include "example_main.h"
#include "s2_union_watermarks.h"
#include "tidemark/tidemark.h"

namespace {

using click_events::Script;
using s2::scenarioScript;

struct Options {
  bool simulated = false;
  std::string variant = "a";
  bool dead_letter = false;
  std::string host = "localhost";
  int port1 = 7777;
  int port2 = 8888;
  std::string script1;
  std::string script2;
};

void buildVariantA(tidemark::StreamExecutionEnvironment& env, const Options& o, const Script& script1,
                   const Script& script2) {
  const bool scripted = o.simulated || !o.script1.empty();
  auto lines1 = scripted ? env.addSource(tidemark::ScriptedSource<std::string>::single(script1), "stream1")
                         : env.socketTextStream(o.host, o.port1);
  auto lines2 = scripted ? env.addSource(tidemark::ScriptedSource<std::string>::single(script2), "stream2")
                         : env.socketTextStream(o.host, o.port2);
  s2::unionOfTwoStreams(lines1, lines2, o.dead_letter).print();
}

void buildVariantB(tidemark::StreamExecutionEnvironment& env, const Options& o, const Script& script1,
                   const Script& script2) {
  // Source, parser and watermark generator run as two parallel subtasks, one
  // per script; only the keyed process function (and its sink) is single.
  env.setParallelism(2);
  auto lines = env.addSource(tidemark::ScriptedSource<std::string>({script1, script2}), "streams");
  s2::keyedByUser(lines, o.dead_letter).print().setParallelism(1);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Scenario S2: the watermark after a union is the minimum of its inputs"};
  Options o;
  CLI::Option* simulated =
      app.add_flag("--simulated", o.simulated, "run in simulated time on the scenario's scripted input (exact output)");
  app.add_option("--variant", o.variant, "a: union of two streams; b: one source of parallelism 2 + keyBy")
      ->check(CLI::IsMember({"a", "b"}));
  app.add_flag("--dead-letter", o.dead_letter, "send malformed lines to a dead-letter side output instead of failing");
  // The socket options mean nothing in a simulated run: refused, not ignored.
  app.add_option("--host", o.host, "host of the two text servers (real time, variant a)")->excludes(simulated);
  app.add_option("--port1", o.port1, "port of stream 1 (real time, variant a)")
      ->check(examples::strictDecimal(1, 65535))
      ->excludes(simulated);
  app.add_option("--port2", o.port2, "port of stream 2 (real time, variant a)")
      ->check(examples::strictDecimal(1, 65535))
      ->excludes(simulated);
  app.add_option("--script1", o.script1, "replace stream 1's script: lines '<ms>,<line>'");
  app.add_option("--script2", o.script2, "replace stream 2's script: lines '<ms>,<line>'");
  if (const auto exit_code = examples::parseArguments(app, argc, argv)) return *exit_code;

  return examples::runExample([&] {
    const Script script1 = o.script1.empty() ? scenarioScript(1) : click_events::readScript(o.script1);
    const Script script2 = o.script2.empty() ? scenarioScript(2) : click_events::readScript(o.script2);
    auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
    env.setParallelism(1);
    if (o.simulated) env.enableSimulatedTime(0);
    if (o.variant == "a") {
      buildVariantA(env, o, script1, script2);
    } else {
      buildVariantB(env, o, script1, script2);
    }
    env.execute("S2 union watermarks");
  });
}
