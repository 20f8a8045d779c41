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
// Malformed lines fail the job, naming the parse operator and the line;
// with --dead-letter they go to a side output printed as "dead-letter> ...".
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "click_events.h"
#include "example_main.h"
#include "tidemark/tidemark.h"

namespace {

using click_events::Event;
using click_events::Script;

/// A line that could not be parsed, and why.
struct DeadLetter {
  std::string line;
  std::string reason;
  friend std::ostream& operator<<(std::ostream& os, const DeadLetter& d) {
    return os << "line=\"" << d.line << "\" reason=" << d.reason;
  }
};

const tidemark::OutputTag<DeadLetter> kDeadLetters("dead-letter");

/// Parses lines; bad lines throw (failing the job) or, with a dead-letter
/// output, are kept with their reason.
class ParseEvents : public tidemark::ProcessFunction<std::string, Event> {
 public:
  explicit ParseEvents(bool dead_letter) : dead_letter_(dead_letter) {}
  void processElement(const std::string& line, Context& ctx, tidemark::Collector<Event>& out) override {
    if (!dead_letter_) {
      out.collect(click_events::parseEvent(line));
      return;
    }
    try {
      out.collect(click_events::parseEvent(line));
    } catch (const std::invalid_argument& e) {
      ctx.output(kDeadLetters, DeadLetter{line, e.what()});
    }
  }

 private:
  bool dead_letter_;
};

std::string describeRecord(const Event& e, tidemark::Timestamp watermark) {
  return fmt::format("watermark={} record={},{},{}", watermark, e.user, e.url, e.timestamp);
}

Script scenarioScript(int stream) {
  if (stream == 1) {
    return {{1000, "Alice,./home,1000", {}},
            {2000, "Bob,./cart,2000", {}},
            {5000, "Alice,./prod?id=1,3000", {}},
            {7000, "Alice,./prod?id=3,4000", {}}};
  }
  return {{3000, "Alice,./home,1000", {}}, {4000, "Bob,./cart,2000", {}}, {6000, "Bob,./prod?id=2,3000", {}}};
}

tidemark::SingleOutputStreamOperator<Event> parsed(const tidemark::DataStream<std::string>& lines, bool dead_letter) {
  auto events = lines.process(ParseEvents(dead_letter));
  events.name("parse");
  if (dead_letter) events.getSideOutput(kDeadLetters).print("dead-letter");
  return events;
}

auto withWatermarks(const tidemark::DataStream<Event>& events) {
  return events.assignTimestampsAndWatermarks(
      tidemark::WatermarkStrategy<Event>::forMonotonousTimestamps().withTimestampAssigner(
          [](const Event& e, tidemark::Timestamp) { return e.timestamp; }));
}

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

void buildVariantA(tidemark::StreamExecutionEnvironment& env, const Options& o, const Script& s1, const Script& s2) {
  const bool scripted = o.simulated || !o.script1.empty();
  auto lines1 = scripted ? env.addSource(tidemark::ScriptedSource<std::string>::single(s1), "stream1")
                         : env.socketTextStream(o.host, o.port1);
  auto lines2 = scripted ? env.addSource(tidemark::ScriptedSource<std::string>::single(s2), "stream2")
                         : env.socketTextStream(o.host, o.port2);
  auto stream1 = withWatermarks(parsed(lines1, o.dead_letter));
  auto stream2 = withWatermarks(parsed(lines2, o.dead_letter));
  stream1.union_(stream2)
      .process<std::string>([](const Event& e, tidemark::ProcessContext& ctx, tidemark::Collector<std::string>& out) {
        out.collect(describeRecord(e, ctx.timerService().currentWatermark()));
      })
      .print();
}

void buildVariantB(tidemark::StreamExecutionEnvironment& env, const Options& o, const Script& s1, const Script& s2) {
  // Source, parser and watermark generator run as two parallel subtasks, one
  // per script; only the keyed process function (and its sink) is single.
  env.setParallelism(2);
  auto lines = env.addSource(tidemark::ScriptedSource<std::string>({s1, s2}), "streams");
  auto events = withWatermarks(parsed(lines, o.dead_letter));
  events.keyBy([](const Event& e) { return e.user; })
      .process<std::string>([](const Event& e, auto& ctx, tidemark::Collector<std::string>& out) {
        out.collect(describeRecord(e, ctx.timerService().currentWatermark()));
      })
      .setParallelism(1)
      .print()
      .setParallelism(1);
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
    const Script s1 = o.script1.empty() ? scenarioScript(1) : click_events::readScript(o.script1);
    const Script s2 = o.script2.empty() ? scenarioScript(2) : click_events::readScript(o.script2);
    auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
    env.setParallelism(1);
    if (o.simulated) env.enableSimulatedTime(0);
    if (o.variant == "a") {
      buildVariantA(env, o, s1, s2);
    } else {
      buildVariantB(env, o, s1, s2);
    }
    env.execute("S2 union watermarks");
  });
}
