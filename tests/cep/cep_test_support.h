// Shared helpers for the CEP tests: two event types with their match renderings, and runners that put a
// pattern over events as a job (cep_test::spec) or through the CEP operator's test harness (cep_test::named).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/tidemark.h"

namespace tidemark::cep_test {

using Strings = std::vector<std::string>;

// ---- events written as a spec string, run as a job; matches as "name:[id,id]" ----
namespace spec {

/// One input event: `kind` is `id` without its trailing digits ("a2" -> "a").
struct Ev {
  std::string id;
  std::string kind;
  double price = 0;
  int key = 0;
  Timestamp ts = 0;

  friend std::ostream& operator<<(std::ostream& os, const Ev& e) { return os << e.id << "@" << e.ts; }
};

/// "a1 x b2:7.5 2/a3": tokens id[:price], optionally prefixed by "key/";
/// timestamps 10, 20, 30, ... in input order.
inline std::vector<Ev> parseEvents(std::string_view spec) {
  std::vector<Ev> events;
  std::istringstream in{std::string(spec)};
  std::string token;
  while (in >> token) {
    Ev e;
    if (auto slash = token.find('/'); slash != std::string::npos) {
      e.key = std::stoi(token.substr(0, slash));
      token = token.substr(slash + 1);
    }
    if (auto colon = token.find(':'); colon != std::string::npos) {
      e.price = std::stod(token.substr(colon + 1));
      token = token.substr(0, colon);
    }
    e.id = token;
    e.kind = token.substr(0, token.find_last_not_of("0123456789") + 1);
    e.ts = static_cast<Timestamp>(events.size() + 1) * 10;
    events.push_back(std::move(e));
  }
  return events;
}

inline auto is(std::string kind) {
  return [kind = std::move(kind)](const Ev& e) { return e.kind == kind; };
}

/// "a:[a1,a2] b:[b1]": the ids of each pattern name's events, in Match order.
template <class T, class IdOf>
std::string render(const Match<T>& match, IdOf id_of) {
  std::string out;
  for (const auto& [name, events] : match) {
    if (!out.empty()) out += ' ';
    out += fmt::format("{}:[", name);
    for (std::size_t i = 0; i < events.size(); ++i) out += (i == 0 ? "" : ",") + id_of(events[i]);
    out += ']';
  }
  return out;
}

inline std::string idOf(const Ev& e) { return e.id; }

inline std::string render(const Match<Ev>& match) { return render(match, idOf); }

/// What one run emitted: all matches in emission order, and the same matches
/// grouped by the event that completed them (i.e. by record timestamp).
struct Emitted {
  Strings matches;
  std::vector<Strings> by_event;
};

/// Run `pattern` as a job at parallelism 1 (non-keyed CEP) over `events`.
template <class T, class TsOf, class IdOf>
Emitted runPattern(const Pattern<T>& pattern, std::vector<T> events, TsOf ts_of, IdOf id_of) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1).enableSimulatedTime(0);
  auto input =
      env.fromCollection(std::move(events))
          .assignTimestampsAndWatermarks(WatermarkStrategy<T>::forMonotonousTimestamps().withTimestampAssigner(ts_of));
  auto out =
      CEP::pattern(input, pattern).select([id_of](const Match<T>& m) { return render(m, id_of); }).collectToMemory();
  env.execute("cep-pattern");
  Emitted result;
  std::optional<Timestamp> last;
  for (const auto& r : out->records()) {
    result.matches.push_back(r.value);
    if (!last || *last != r.timestamp) result.by_event.emplace_back();
    result.by_event.back().push_back(r.value);
    last = r.timestamp;
  }
  return result;
}

/// Run `pattern` as a job at parallelism 1 (non-keyed CEP) over the events of `spec`.
inline Emitted run(const Pattern<Ev>& pattern, std::string_view spec) {
  return runPattern(
      pattern, parseEvents(spec), [](const Ev& e) { return e.ts; }, idOf);
}

/// Run `pattern` keyed by Ev::key at parallelism 2; matches per key, in emission order.
inline std::map<int, Strings> runKeyed(const Pattern<Ev>& pattern, std::string_view spec) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(2).enableSimulatedTime(0);
  auto keyed =
      env.fromCollection(parseEvents(spec))
          .assignTimestampsAndWatermarks(
              WatermarkStrategy<Ev>::forMonotonousTimestamps().withTimestampAssigner([](const Ev& e) { return e.ts; }))
          .keyBy([](const Ev& e) { return e.key; });
  auto out = CEP::pattern(keyed, pattern)
                 .select([](const Match<Ev>& m) { return std::make_pair(m.begin()->second.front().key, render(m)); })
                 .collectToMemory();
  env.execute("cep-pattern-keyed");
  std::map<int, Strings> per_key;
  for (const auto& [key, match] : out->values()) per_key[key].push_back(match);
  return per_key;
}

/// The same matches, then the same emission order (two checks, so that a
/// wrong order is told apart from a wrong result).
inline void expectEmitted(const Emitted& r, const Strings& expected) {
  EXPECT_THAT(r.matches, ::testing::UnorderedElementsAreArray(expected)) << "set of matches";
  EXPECT_EQ(r.matches, expected) << "emission order";
}

}  // namespace spec

// ---- named events through the CEP operator's harness; matches as "name=[n n]" ----
namespace named {

/// One input event, of key "k" unless told otherwise.
struct Ev {
  std::string name;
  Timestamp ts = 0;
  double price = 0;
  std::string key = "k";
};

inline std::string keyOf(const Ev& e) { return e.key; }

/// "start=[a1 a2] end=[b1]": the names of each pattern name's events, in pattern order.
template <class E>
std::string render(const Match<E>& match) {
  std::string out;
  for (const auto& [name, events] : match) {
    if (!out.empty()) out += ' ';
    out += std::string(name) + "=[";
    for (std::size_t i = 0; i < events.size(); ++i) out += (i ? " " : "") + events[i].name;
    out += ']';
  }
  return out;
}

/// Events are recognised by the first letter of their name (any event type with a `name`).
inline auto is(char c) {
  return [c](const auto& e) -> bool { return !e.name.empty() && e.name[0] == c; };
}

inline const OutputTag<std::string> kTimedOut("timed-out");

/// Matches to the main output, timed-out partial matches to kTimedOut, both as `Render(match)`.
template <class E, std::string (*Render)(const Match<E>&) = &render<E>>
class MatchesAndTimeouts final : public PatternProcessFunction<E, std::string>, public TimedOutPartialMatchHandler<E> {
 public:
  void processMatch(const Match<E>& match, typename PatternProcessFunction<E, std::string>::Context&,
                    Collector<std::string>& out) override {
    out.collect(Render(match));
  }
  void processTimedOutMatch(const Match<E>& match, typename TimedOutPartialMatchHandler<E>::Context& ctx) override {
    ctx.output(kTimedOut, Render(match));
  }
};

template <class E>
using CepHarness = KeyedOneInputStreamOperatorTestHarness<std::string, E, std::string>;
using Harness = CepHarness<Ev>;

/// An opened harness around the CEP operator of `pattern` (keyed by keyOf) with process function `fn`,
/// capturing kTimedOut.
template <class Fn = MatchesAndTimeouts<Ev>>
std::unique_ptr<Harness> harnessFor(const Pattern<Ev>& pattern, Fn fn = {}) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto harness =
      std::make_unique<Harness>(CEP::pattern(env.fromElements<Ev>({}).keyBy(keyOf), pattern).process(std::move(fn)));
  harness->captureSideOutput(kTimedOut);
  harness->open();
  return harness;
}

/// Each event at its own timestamp.
template <class E>
void feed(CepHarness<E>& harness, const std::vector<E>& events) {
  for (const E& e : events) harness.processElement(e, e.ts);
}

/// Events named `names`, at timestamps 1, 2, 3, ...
inline std::vector<Ev> sequence(std::initializer_list<std::string> names) {
  std::vector<Ev> events;
  Timestamp ts = 0;
  for (const std::string& name : names) events.push_back(Ev{name, ++ts});
  return events;
}

/// `events` through a harnessFor(pattern), then a final watermark 1000.
inline std::unique_ptr<Harness> runThrough(const Pattern<Ev>& pattern, const std::vector<Ev>& events) {
  auto harness = harnessFor(pattern);
  feed(*harness, events);
  harness->processWatermark(1000);
  return harness;
}

/// "value @ ts" (or "value, no timestamp") of each record of side output `tag`.
template <class E>
std::vector<std::string> sideLines(const CepHarness<E>& harness, const OutputTag<std::string>& tag) {
  std::vector<std::string> out;
  for (const auto& r : harness.getSideOutput(tag)) {
    out.push_back(r.has_timestamp ? r.value + " @ " + std::to_string(r.timestamp) : r.value + ", no timestamp");
  }
  return out;
}

}  // namespace named
}  // namespace tidemark::cep_test
