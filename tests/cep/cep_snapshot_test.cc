// The CEP operator goes on from a snapshot as if nothing happened: buffered
// elements, partial matches (with branching versions and the shared buffer's
// reference counts), held matches, wake-ups and the watermark all come back,
// so matches and timeouts after a restore are, line for line, those of the
// uninterrupted run; after a rescale each key's are. A snapshot restored into
// another pattern, and an event type without a serializer, are refused by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "cep/cep_test_support.h"
#include "tidemark/tidemark.h"
#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/testing/operator_subtask_state.h"

namespace tidemark {
namespace {

using ::testing::HasSubstr;

/// An event a snapshot can write: named like the test support's events, with fields().
struct Tick {
  std::string name;
  std::string key;
  std::int64_t value = 0;

  auto fields() { return std::tie(name, key, value); }
  friend std::ostream& operator<<(std::ostream& os, const Tick& t) { return os << t.key << "/" << t.name; }
};

std::string keyOf(const Tick& t) { return t.key; }

std::string renderWithKey(const Match<Tick>& match) {
  return match.begin()->second.front().key + ": " + cep_test::named::render(match);
}

using Matches = cep_test::named::MatchesAndTimeouts<Tick, &renderWithKey>;
using Harness = KeyedOneInputStreamOperatorTestHarness<std::string, Tick, std::string>;
using cep_test::named::is;
using cep_test::named::kTimedOut;

/// a, then one or more b (relaxed: branching versions share the buffer), then c, within 30.
Pattern<Tick> aBsC() {
  return Pattern<Tick>::begin("a")
      .where(is('a'))
      .followedByAny("b")
      .where(is('b'))
      .oneOrMore()
      .followedBy("c")
      .where(is('c'))
      .within(30);
}

Pattern<Tick> aThenC() { return Pattern<Tick>::begin("a").where(is('a')).followedBy("c").where(is('c')); }

struct Step {
  Tick tick;
  Timestamp time;
};

/// Four keys; names cycle so that partial matches start, branch, complete and
/// time out; timestamps mostly rise, some arrive out of order (buffered).
std::vector<Step> steps() {
  const char* keys[] = {"k1", "k2", "k3"};
  const char* names = "abxbcabbaxcbc";
  std::vector<Step> result;
  for (int i = 0; i < 70; ++i) {
    const Timestamp time = 2 * i - (i % 5 == 4 ? 3 : 0);
    const char name = names[(i * 3 + i / 7) % 13];
    result.push_back({{fmt::format("{}{}", name, i), keys[(i / 4) % 3], i}, time});
  }
  return result;
}

std::unique_ptr<Harness> harnessFor(const Pattern<Tick>& pattern, OperatorTestHarnessOptions options = {}) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto harness = std::make_unique<Harness>(CEP::pattern(env.fromElements<Tick>({}).keyBy(keyOf), pattern).process(Matches{}),
                                           std::move(options));
  harness->captureSideOutput(kTimedOut);
  return harness;
}

/// Elements of the keys `owns` accepts, and a watermark 4 behind each step.
void feed(Harness& harness, const std::vector<Step>& input, Timestamp& last,
          const std::function<bool(const std::string&)>& owns = nullptr) {
  for (const Step& step : input) {
    if (!owns || owns(step.tick.key)) harness.processElement(step.tick, step.time);
    if (step.time - 4 > last) {
      last = step.time - 4;
      harness.processWatermark(last);
    }
  }
}

/// The timed-out partial matches, with their timestamps.
std::vector<std::string> timeoutsOf(const Harness& harness) {
  std::vector<std::string> lines;
  for (const auto& record : harness.getSideOutput(kTimedOut)) {
    lines.push_back(fmt::format("timeout {} @ {}", record.value, record.timestamp));
  }
  return lines;
}

/// Main output lines, then the timed-out partial matches.
std::vector<std::string> outputOf(const Harness& harness) {
  std::vector<std::string> lines = harness.getOutput().lines();
  for (const std::string& line : timeoutsOf(harness)) lines.push_back(line);
  return lines;
}

std::vector<std::string> recordsOnly(std::vector<std::string> lines) {
  std::erase_if(lines, [](const std::string& line) { return line.starts_with("Watermark"); });
  std::sort(lines.begin(), lines.end());
  return lines;
}

void expectRestoresExactly(const Pattern<Tick>& pattern) {
  const std::vector<Step> input = steps();
  auto whole = harnessFor(pattern);
  whole->open();
  Timestamp last = kMinWatermark;
  feed(*whole, input, last);
  whole->processWatermark(kMaxWatermark);
  const std::vector<std::string> main_expected = whole->getOutput().lines();
  const std::vector<std::string> timeouts_expected = timeoutsOf(*whole);
  ASSERT_GT(recordsOnly(main_expected).size(), 3u);

  for (std::size_t cut : {std::size_t{3}, input.size() / 3, input.size() / 2, input.size() - 2}) {
    const std::vector<Step> before_steps(input.begin(), input.begin() + static_cast<std::ptrdiff_t>(cut));
    const std::vector<Step> after_steps(input.begin() + static_cast<std::ptrdiff_t>(cut), input.end());
    auto before = harnessFor(pattern);
    before->open();
    Timestamp before_last = kMinWatermark;
    feed(*before, before_steps, before_last);
    const OperatorSubtaskState state = before->snapshot(1);

    auto after = harnessFor(pattern);
    after->initializeState(state);
    after->open();
    EXPECT_EQ(after->numKeyedStateEntries(), before->numKeyedStateEntries());
    EXPECT_EQ(after->numEventTimeTimers(), before->numEventTimeTimers());
    Timestamp after_last = before_last;
    feed(*after, after_steps, after_last);
    after->processWatermark(kMaxWatermark);
    std::vector<std::string> main = before->getOutput().lines();
    for (const std::string& line : after->getOutput().lines()) main.push_back(line);
    EXPECT_EQ(main, main_expected) << "restored after " << cut << " steps";
    std::vector<std::string> timeouts = timeoutsOf(*before);
    for (const std::string& line : timeoutsOf(*after)) timeouts.push_back(line);
    EXPECT_EQ(timeouts, timeouts_expected) << "restored after " << cut << " steps";

    std::vector<std::string> rescaled = outputOf(*before);
    for (int subtask = 0; subtask < 2; ++subtask) {
      auto half = harnessFor(pattern, {.parallelism = 2, .subtask_index = subtask});
      half->initializeState(state);
      half->open();
      const KeyGroupRange range = half->getOperatorContext().key_group_range;
      const KeyGroupAssigner groups(half->getOperatorContext().max_parallelism);
      Timestamp half_last = before_last;
      feed(*half, after_steps, half_last, [&](const std::string& key) { return range.contains(groups.keyGroupOf(key)); });
      half->processWatermark(kMaxWatermark);
      for (const std::string& line : outputOf(*half)) rescaled.push_back(line);
    }
    std::vector<std::string> expected = main_expected;
    for (const std::string& line : timeouts_expected) expected.push_back(line);
    EXPECT_EQ(recordsOnly(rescaled), recordsOnly(expected)) << "rescaled after " << cut << " steps";
  }
}

TEST(CepSnapshotTest, BranchingPartialMatchesTimeoutsAndBufferedElementsComeBack) { expectRestoresExactly(aBsC()); }

TEST(CepSnapshotTest, APatternWithoutWindowComesBackToo) { expectRestoresExactly(aThenC()); }

TEST(CepSnapshotTest, ASnapshotOfAnotherPatternIsRefused) {
  auto before = harnessFor(aBsC());
  before->open();
  before->processElement(Tick{"a1", "k1", 1}, 1);
  const OperatorSubtaskState state = before->snapshot(1);
  auto other = harnessFor(aThenC());
  other->initializeState(state);
  EXPECT_THAT([&] { other->open(); },
              ::testing::ThrowsMessage<std::exception>(HasSubstr("were taken with key string and pattern (")));
}

struct Opaque {
  std::string name;
  std::string key;
};

TEST(CepSnapshotTest, AnEventTypeWithoutSerializerIsNamed) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto pattern = Pattern<Opaque>::begin("a").where(is('a')).followedBy("b").where(is('b'));
  auto matches = CEP::pattern(env.fromElements<Opaque>({}).keyBy([](const Opaque& o) { return o.key; }), pattern)
                     .select([](const Match<Opaque>& m) { return m.at("a").front().name; });
  KeyedOneInputStreamOperatorTestHarness<std::string, Opaque, std::string> harness(matches);
  harness.open();
  harness.processElement(Opaque{"a1", "k"}, 1);
  EXPECT_THAT([&] { harness.snapshot(1); },
              ::testing::ThrowsMessage<std::exception>(
                  HasSubstr("cannot be snapshotted: its event type tidemark::(anonymous namespace)::Opaque has no "
                            "TypeSerializer")));
}

}  // namespace
}  // namespace tidemark
