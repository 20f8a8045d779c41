// Scenario S2's jobs, shared by the example program and the tests that run
// them through failures (tests/examples/scenario_failure_test.cc).
#pragma once

#include <ostream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "click_events.h"
#include "tidemark/tidemark.h"

namespace s2 {

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

inline const tidemark::OutputTag<DeadLetter> kDeadLetters("dead-letter");

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

inline std::string describeRecord(const Event& e, tidemark::Timestamp watermark) {
  return fmt::format("watermark={} record={},{},{}", watermark, e.user, e.url, e.timestamp);
}

/// The scenario's lines of stream 1 or 2, at their virtual instants.
inline Script scenarioScript(int stream) {
  if (stream == 1) {
    return {{1000, "Alice,./home,1000", {}},
            {2000, "Bob,./cart,2000", {}},
            {5000, "Alice,./prod?id=1,3000", {}},
            {7000, "Alice,./prod?id=3,4000", {}}};
  }
  return {{3000, "Alice,./home,1000", {}}, {4000, "Bob,./cart,2000", {}}, {6000, "Bob,./prod?id=2,3000", {}}};
}

/// The parsed events; with `dead_letter`, malformed lines print as "dead-letter> ...".
inline tidemark::SingleOutputStreamOperator<Event> parsed(const tidemark::DataStream<std::string>& lines,
                                                          bool dead_letter) {
  auto events = lines.process(ParseEvents(dead_letter));
  events.name("parse");
  if (dead_letter) events.getSideOutput(kDeadLetters).print("dead-letter");
  return events;
}

inline auto withWatermarks(const tidemark::DataStream<Event>& events) {
  return events.assignTimestampsAndWatermarks(
      tidemark::WatermarkStrategy<Event>::forMonotonousTimestamps().withTimestampAssigner(
          [](const Event& e, tidemark::Timestamp) { return e.timestamp; }));
}

/// Variant a: stream1.union(stream2).process(...); the lines it prints.
inline tidemark::DataStream<std::string> unionOfTwoStreams(const tidemark::DataStream<std::string>& lines1,
                                                           const tidemark::DataStream<std::string>& lines2,
                                                           bool dead_letter) {
  auto stream1 = withWatermarks(parsed(lines1, dead_letter));
  auto stream2 = withWatermarks(parsed(lines2, dead_letter));
  return stream1.union_(stream2).process<std::string>(
      [](const Event& e, tidemark::ProcessContext& ctx, tidemark::Collector<std::string>& out) {
        out.collect(describeRecord(e, ctx.timerService().currentWatermark()));
      });
}

/// Variant b: `lines` from one source of parallelism 2, keyBy(user) into a
/// process function of parallelism 1; the lines it prints (print them at
/// parallelism 1 too).
inline tidemark::DataStream<std::string> keyedByUser(const tidemark::DataStream<std::string>& lines,
                                                     bool dead_letter) {
  auto events = withWatermarks(parsed(lines, dead_letter));
  auto printed = events.keyBy([](const Event& e) { return e.user; })
                     .process<std::string>([](const Event& e, auto& ctx, tidemark::Collector<std::string>& out) {
                       out.collect(describeRecord(e, ctx.timerService().currentWatermark()));
                     });
  printed.setParallelism(1);
  return printed;
}

}  // namespace s2
