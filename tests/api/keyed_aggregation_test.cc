// KeyedStream::sum/min/max/minBy/maxBy: the exact sequence of rolling
// aggregates Flink emits, by data member and by tuple position.
//
// Inputs are non-parallel collections at parallelism 1, so the output order is
// the input order.
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;

struct Reading {
  std::string sensor;
  int value = 0;
  std::string note;
  double celsius = 0.0;

  bool operator==(const Reading&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const Reading& r) {
    return os << "{" << r.sensor << "," << r.value << "," << r.note << "," << r.celsius << "}";
  }
};

StreamExecutionEnvironment simulatedEnv(int parallelism = 1) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(parallelism).enableSimulatedTime(0);
  return env;
}

KeyedStream<std::string, Reading> bySensor(StreamExecutionEnvironment& env, std::vector<Reading> readings) {
  return env.fromCollection(std::move(readings)).keyBy([](const Reading& r) { return r.sensor; });
}

/// value and note of each emitted reading, as "value/note".
std::vector<std::string> valueAndNote(const std::vector<Reading>& readings) {
  std::vector<std::string> out;
  for (const auto& r : readings) out.push_back(std::to_string(r.value) + "/" + r.note);
  return out;
}

// ---- by data member ----

TEST(KeyedAggregationTest, SumKeepsTheOtherFieldsOfTheFirstElement) {
  auto env = simulatedEnv();
  auto out = bySensor(env, {{"a", 1, "first", 10.0},
                            {"b", 10, "b1", 0.0},
                            {"a", 2, "second", 20.0},
                            {"a", 3, "third", 30.0},
                            {"b", 20, "b2", 5.0}})
                 .sum(&Reading::value)
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(out->values(), ElementsAre(Reading{"a", 1, "first", 10.0}, Reading{"b", 10, "b1", 0.0},
                                         Reading{"a", 3, "first", 10.0}, Reading{"a", 6, "first", 10.0},
                                         Reading{"b", 30, "b1", 0.0}));
}

TEST(KeyedAggregationTest, SumOfADoubleMember) {
  auto env = simulatedEnv();
  auto out =
      bySensor(env, {{"a", 1, "x", 0.5}, {"a", 2, "y", 0.25}, {"a", 3, "z", 1.0}}).sum(&Reading::celsius).collectToMemory();
  env.execute();

  std::vector<double> sums;
  for (const auto& r : out->values()) sums.push_back(r.celsius);
  EXPECT_THAT(sums, ElementsAre(0.5, 0.75, 1.75));
  EXPECT_THAT(valueAndNote(out->values()), ElementsAre("1/x", "1/x", "1/x"));
}

TEST(KeyedAggregationTest, MinReplacesOnlyTheField) {
  auto env = simulatedEnv();
  auto out = bySensor(env, {{"a", 5, "n1"}, {"a", 3, "n2"}, {"a", 4, "n3"}, {"a", 1, "n4"}})
                 .min(&Reading::value)
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(valueAndNote(out->values()), ElementsAre("5/n1", "3/n1", "3/n1", "1/n1"));
}

TEST(KeyedAggregationTest, MaxReplacesOnlyTheField) {
  auto env = simulatedEnv();
  auto out = bySensor(env, {{"a", 1, "n1"}, {"a", 3, "n2"}, {"a", 2, "n3"}, {"a", 5, "n4"}})
                 .max(&Reading::value)
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(valueAndNote(out->values()), ElementsAre("1/n1", "3/n1", "3/n1", "5/n1"));
}

TEST(KeyedAggregationTest, MinByEmitsTheWholeElementWithTheMinimum) {
  auto env = simulatedEnv();
  auto out = bySensor(env, {{"a", 5, "n1"}, {"a", 3, "n2"}, {"a", 4, "n3"}, {"a", 1, "n4"}})
                 .minBy(&Reading::value)
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(valueAndNote(out->values()), ElementsAre("5/n1", "3/n2", "3/n2", "1/n4"));
}

TEST(KeyedAggregationTest, MaxByEmitsTheWholeElementWithTheMaximum) {
  auto env = simulatedEnv();
  auto out = bySensor(env, {{"a", 1, "n1"}, {"a", 3, "n2"}, {"a", 2, "n3"}, {"a", 5, "n4"}})
                 .maxBy(&Reading::value)
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(valueAndNote(out->values()), ElementsAre("1/n1", "3/n2", "3/n2", "5/n4"));
}

std::vector<Reading> ties() { return {{"a", 3, "n1"}, {"a", 3, "n2"}, {"a", 2, "n3"}, {"a", 2, "n4"}, {"a", 5, "n5"}}; }

TEST(KeyedAggregationTest, MinByOnTiesKeepsTheFirstByDefault) {
  auto env = simulatedEnv();
  auto out = bySensor(env, ties()).minBy(&Reading::value).collectToMemory();
  env.execute();

  EXPECT_THAT(valueAndNote(out->values()), ElementsAre("3/n1", "3/n1", "2/n3", "2/n3", "2/n3"));
}

TEST(KeyedAggregationTest, MinByOnTiesTakesTheLatestWhenFirstIsFalse) {
  auto env = simulatedEnv();
  auto out = bySensor(env, ties()).minBy(&Reading::value, false).collectToMemory();
  env.execute();

  EXPECT_THAT(valueAndNote(out->values()), ElementsAre("3/n1", "3/n2", "2/n3", "2/n4", "2/n4"));
}

TEST(KeyedAggregationTest, MaxByOnTiesFirstOrLatest) {
  const std::vector<Reading> input = {{"a", 3, "n1"}, {"a", 3, "n2"}, {"a", 4, "n3"}, {"a", 4, "n4"}, {"a", 1, "n5"}};
  auto env = simulatedEnv();
  auto first = bySensor(env, input).maxBy(&Reading::value, true).collectToMemory();
  auto latest = bySensor(env, input).maxBy(&Reading::value, false).collectToMemory();
  env.execute();

  EXPECT_THAT(valueAndNote(first->values()), ElementsAre("3/n1", "3/n1", "4/n3", "4/n3", "4/n3"));
  EXPECT_THAT(valueAndNote(latest->values()), ElementsAre("3/n1", "3/n2", "4/n3", "4/n4", "4/n4"));
}

TEST(KeyedAggregationTest, MinAndMaxIgnoreTiesOnOtherFields) {
  auto env = simulatedEnv();
  auto mins = bySensor(env, ties()).min(&Reading::value).collectToMemory();
  auto maxs = bySensor(env, ties()).max(&Reading::value).collectToMemory();
  env.execute();

  EXPECT_THAT(valueAndNote(mins->values()), ElementsAre("3/n1", "3/n1", "2/n1", "2/n1", "2/n1"));
  EXPECT_THAT(valueAndNote(maxs->values()), ElementsAre("3/n1", "3/n1", "3/n1", "3/n1", "5/n1"));
}

TEST(KeyedAggregationTest, KeysAggregateIndependently) {
  auto env = simulatedEnv();
  auto out = bySensor(env, {{"a", 4, "a1"}, {"b", 7, "b1"}, {"a", 2, "a2"}, {"c", 1, "c1"}, {"b", 9, "b2"},
                            {"a", 3, "a3"}, {"c", 0, "c2"}})
                 .minBy(&Reading::value)
                 .collectToMemory();
  env.execute();

  std::vector<std::string> seen;
  for (const auto& r : out->values()) seen.push_back(r.sensor + ":" + std::to_string(r.value) + "/" + r.note);
  EXPECT_THAT(seen, ElementsAre("a:4/a1", "b:7/b1", "a:2/a2", "c:1/c1", "b:7/b1", "a:2/a2", "c:0/c2"));
}

TEST(KeyedAggregationTest, KeyByMemberPointerAndStringFieldMax) {
  auto env = simulatedEnv();
  auto out = env.fromCollection(std::vector<Reading>{{"s", 1, "kiwi"}, {"s", 2, "apple"}, {"s", 3, "pear"}})
                 .keyBy(&Reading::sensor)
                 .max(&Reading::note)
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(valueAndNote(out->values()), ElementsAre("1/kiwi", "1/kiwi", "1/pear"));
}

TEST(KeyedAggregationTest, OutputsKeepTheInputTimestamps) {
  auto env = simulatedEnv();
  using Step = ScriptedSource<Reading>::Step;
  ScriptedSource<Reading> source = ScriptedSource<Reading>::single(
      {Step{0, {"a", 1, "x"}, 100}, Step{10, {"a", 2, "y"}, 50}, Step{20, {"a", 3, "z"}, std::nullopt}});
  auto out = env.addSource(source, "readings")
                 .setParallelism(1)
                 .keyBy([](const Reading& r) { return r.sensor; })
                 .sum(&Reading::value)
                 .collectToMemory();
  env.execute();

  std::vector<std::string> seen;
  for (const auto& r : out->records()) {
    seen.push_back(std::to_string(r.value.value) + "@" + (r.has_timestamp ? std::to_string(r.timestamp) : "none"));
  }
  EXPECT_THAT(seen, ElementsAre("1@100", "3@50", "6@none"));
}

// ---- by tuple position ----

using Row = std::tuple<std::string, int, long, std::string>;

KeyedStream<std::string, Row> rows(StreamExecutionEnvironment& env) {
  return env
      .fromCollection(std::vector<Row>{{"k", 1, 40L, "r1"},
                                       {"j", 5, 5L, "j1"},
                                       {"k", 2, 10L, "r2"},
                                       {"k", 3, 10L, "r3"},
                                       {"k", 4, 70L, "r4"}})
      .keyBy([](const Row& r) { return std::get<0>(r); });
}

TEST(KeyedAggregationTest, SumByTuplePosition) {
  auto env = simulatedEnv();
  auto ints = rows(env).sum<1>().collectToMemory();
  auto longs = rows(env).sum<2>().collectToMemory();
  env.execute();

  EXPECT_THAT(ints->values(), ElementsAre(Row{"k", 1, 40L, "r1"}, Row{"j", 5, 5L, "j1"}, Row{"k", 3, 40L, "r1"},
                                          Row{"k", 6, 40L, "r1"}, Row{"k", 10, 40L, "r1"}));
  EXPECT_THAT(longs->values(), ElementsAre(Row{"k", 1, 40L, "r1"}, Row{"j", 5, 5L, "j1"}, Row{"k", 1, 50L, "r1"},
                                           Row{"k", 1, 60L, "r1"}, Row{"k", 1, 130L, "r1"}));
}

TEST(KeyedAggregationTest, MinAndMaxByTuplePosition) {
  auto env = simulatedEnv();
  auto mins = rows(env).min<2>().collectToMemory();
  auto maxs = rows(env).max<2>().collectToMemory();
  env.execute();

  EXPECT_THAT(mins->values(), ElementsAre(Row{"k", 1, 40L, "r1"}, Row{"j", 5, 5L, "j1"}, Row{"k", 1, 10L, "r1"},
                                          Row{"k", 1, 10L, "r1"}, Row{"k", 1, 10L, "r1"}));
  EXPECT_THAT(maxs->values(), ElementsAre(Row{"k", 1, 40L, "r1"}, Row{"j", 5, 5L, "j1"}, Row{"k", 1, 40L, "r1"},
                                          Row{"k", 1, 40L, "r1"}, Row{"k", 1, 70L, "r1"}));
}

TEST(KeyedAggregationTest, MinByAndMaxByTuplePositionWithTies) {
  auto env = simulatedEnv();
  auto min_first = rows(env).minBy<2>().collectToMemory();
  auto min_latest = rows(env).minBy<2>(false).collectToMemory();
  auto max_latest = rows(env).maxBy<2>(false).collectToMemory();
  env.execute();

  EXPECT_THAT(min_first->values(), ElementsAre(Row{"k", 1, 40L, "r1"}, Row{"j", 5, 5L, "j1"}, Row{"k", 2, 10L, "r2"},
                                               Row{"k", 2, 10L, "r2"}, Row{"k", 2, 10L, "r2"}));
  EXPECT_THAT(min_latest->values(), ElementsAre(Row{"k", 1, 40L, "r1"}, Row{"j", 5, 5L, "j1"}, Row{"k", 2, 10L, "r2"},
                                                Row{"k", 3, 10L, "r3"}, Row{"k", 3, 10L, "r3"}));
  EXPECT_THAT(max_latest->values(), ElementsAre(Row{"k", 1, 40L, "r1"}, Row{"j", 5, 5L, "j1"}, Row{"k", 1, 40L, "r1"},
                                                Row{"k", 1, 40L, "r1"}, Row{"k", 4, 70L, "r4"}));
}

TEST(KeyedAggregationTest, WordCountWithPairSum) {
  using WordCount = std::pair<std::string, int>;
  auto env = simulatedEnv();
  auto out = env.fromElements<WordCount>({{"to", 1}, {"be", 1}, {"or", 1}, {"not", 1}, {"to", 1}, {"be", 1}})
                 .keyBy([](const WordCount& w) { return w.first; })
                 .sum<1>()
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(out->values(), ElementsAre(WordCount{"to", 1}, WordCount{"be", 1}, WordCount{"or", 1},
                                         WordCount{"not", 1}, WordCount{"to", 2}, WordCount{"be", 2}));
}

TEST(KeyedAggregationTest, MaxByPairPositionFirstOnTies) {
  using Score = std::pair<std::string, int>;
  auto env = simulatedEnv();
  auto out = env.fromElements<Score>({{"ann", 3}, {"bob", 3}, {"cid", 2}, {"dan", 4}})
                 .keyBy([](const Score&) { return 0; })
                 .maxBy<1>()
                 .collectToMemory();
  env.execute();

  EXPECT_THAT(out->values(), ElementsAre(Score{"ann", 3}, Score{"ann", 3}, Score{"ann", 3}, Score{"dan", 4}));
}

TEST(KeyedAggregationTest, ParallelismTwoGivesTheSameSequencePerKey) {
  std::vector<Reading> input;
  const std::vector<std::string> sensors = {"s0", "s1", "s2", "s3", "s4", "s5"};
  for (int i = 0; i < 60; ++i) {
    input.push_back({sensors[static_cast<std::size_t>(i) % sensors.size()], (i * 37) % 11, "n" + std::to_string(i)});
  }
  auto per_key = [&input](int parallelism) {
    auto env = simulatedEnv(parallelism);
    auto sums = bySensor(env, input).sum(&Reading::value).collectToMemory();
    auto min_bys = bySensor(env, input).minBy(&Reading::value, false).collectToMemory();
    env.execute();
    std::map<std::string, std::vector<std::string>> grouped;
    for (const auto& r : sums->values()) grouped["sum " + r.sensor].push_back(std::to_string(r.value) + "/" + r.note);
    for (const auto& r : min_bys->values()) {
      grouped["minBy " + r.sensor].push_back(std::to_string(r.value) + "/" + r.note);
    }
    return grouped;
  };
  const auto serial = per_key(1);
  EXPECT_EQ(serial.size(), 12u);
  EXPECT_EQ(serial, per_key(2));
}

}  // namespace
}  // namespace tidemark
