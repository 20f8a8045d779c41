#include "tidemark/internal/state/heap_aggregating_state.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "internal/state/state_test_support.h"
#include "tidemark/functions/aggregate_function.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"

namespace tidemark::internal {
namespace {

using testing::kMaxParallelism;
using testing::TestWindow;

// Accumulator: (sum, count). Records every call so tests can check the protocol.
class Average : public AggregateFunction<long, std::pair<long, long>, double> {
 public:
  std::pair<long, long> createAccumulator() override {
    ++creates;
    return {0, 0};
  }
  std::pair<long, long> add(const long& value, std::pair<long, long> acc) override {
    ++adds;
    return {acc.first + value, acc.second + 1};
  }
  double getResult(const std::pair<long, long>& acc) override {
    ++results;
    return static_cast<double>(acc.first) / static_cast<double>(acc.second);
  }
  std::pair<long, long> merge(std::pair<long, long> a, std::pair<long, long> b) override {
    ++merges;
    return {a.first + b.first, a.second + b.second};
  }

  int creates = 0;
  int adds = 0;
  int results = 0;
  int merges = 0;
};

// Not commutative: shows the order accumulators are merged in.
class Trail : public AggregateFunction<std::string, std::string, std::string> {
 public:
  std::string createAccumulator() override { return "<"; }
  std::string add(const std::string& value, std::string acc) override { return acc + value; }
  std::string getResult(const std::string& acc) override { return acc + ">"; }
  std::string merge(std::string a, std::string b) override { return a + "|" + b; }
};

using AverageDescriptor = AggregatingStateDescriptor<long, std::pair<long, long>, double>;

class HeapAggregatingStateTest : public ::testing::Test {
 protected:
  HeapKeyedStateBackend<int> backend_{KeyGroupRange{0, kMaxParallelism - 1}, kMaxParallelism};
  std::shared_ptr<Average> average_ = std::make_shared<Average>();
};

TEST_F(HeapAggregatingStateTest, UsesCreateAccumulatorAddAndGetResult) {
  AggregatingState<long, double>& state = backend_.getAggregatingState(AverageDescriptor("avg", average_));
  backend_.setCurrentKey(1);
  state.add(10);
  EXPECT_EQ(average_->creates, 1);
  state.add(20);
  state.add(60);
  EXPECT_EQ(average_->creates, 1);  // one accumulator per key, created on the first add
  EXPECT_EQ(average_->adds, 3);
  EXPECT_EQ(state.get(), 30.0);
  EXPECT_EQ(average_->results, 1);
  EXPECT_EQ(average_->merges, 0);
}

TEST_F(HeapAggregatingStateTest, UnsetStateIsNulloptWithoutAskingTheFunction) {
  AggregatingState<long, double>& state = backend_.getAggregatingState(AverageDescriptor("avg", average_));
  backend_.setCurrentKey(1);
  EXPECT_EQ(state.get(), std::nullopt);
  EXPECT_EQ(average_->creates, 0);
  EXPECT_EQ(average_->results, 0);
  EXPECT_EQ(backend_.numStateEntries(), 0u);
}

TEST_F(HeapAggregatingStateTest, EachKeyHasItsOwnAccumulator) {
  AggregatingState<long, double>& state = backend_.getAggregatingState(AverageDescriptor("avg", average_));
  backend_.setCurrentKey(1);
  state.add(1);
  state.add(2);
  backend_.setCurrentKey(2);
  state.add(100);
  backend_.setCurrentKey(1);
  EXPECT_EQ(state.get(), 1.5);
  backend_.setCurrentKey(2);
  EXPECT_EQ(state.get(), 100.0);
  EXPECT_EQ(average_->creates, 2);
}

TEST_F(HeapAggregatingStateTest, ClearRemovesTheAccumulator) {
  AggregatingState<long, double>& state = backend_.getAggregatingState(AverageDescriptor("avg", average_));
  backend_.setCurrentKey(1);
  state.add(4);
  backend_.setCurrentKey(2);
  state.add(8);
  EXPECT_EQ(backend_.numStateEntries(), 2u);
  state.clear();
  EXPECT_EQ(state.get(), std::nullopt);
  state.add(6);
  EXPECT_EQ(state.get(), 6.0);  // a fresh accumulator, not (8 + 6) / 2
  EXPECT_EQ(average_->creates, 3);
  state.clear();
  backend_.setCurrentKey(1);
  state.clear();
  EXPECT_EQ(backend_.numStateEntries(), 0u);
}

TEST_F(HeapAggregatingStateTest, NamespacesAreSeparate) {
  auto& state = backend_.getPartitionedState<TestWindow>(AverageDescriptor("avg", average_));
  backend_.setCurrentKey(1);
  state.setCurrentNamespace(TestWindow{0, 10});
  state.add(2);
  state.setCurrentNamespace(TestWindow{10, 20});
  EXPECT_EQ(state.get(), std::nullopt);
  state.add(10);
  state.add(20);
  EXPECT_EQ(state.get(), 15.0);
  state.setCurrentNamespace(TestWindow{0, 10});
  EXPECT_EQ(state.get(), 2.0);
  EXPECT_EQ(backend_.numStateEntries(), 2u);
}

TEST_F(HeapAggregatingStateTest, AddReportingNewIsTrueOnlyForTheAddThatMakesTheEntry) {
  auto& state = backend_.getPartitionedState<TestWindow>(AverageDescriptor("avg", average_));
  backend_.setCurrentKey(1);
  state.setCurrentNamespace(TestWindow{0, 10});
  EXPECT_TRUE(state.addReportingNew(2));
  EXPECT_FALSE(state.addReportingNew(4));
  state.setCurrentNamespace(TestWindow{10, 20});
  EXPECT_TRUE(state.addReportingNew(10));
  backend_.setCurrentKey(2);
  state.setCurrentNamespace(TestWindow{0, 10});
  EXPECT_TRUE(state.addReportingNew(7));
  backend_.setCurrentKey(1);
  EXPECT_FALSE(state.addReportingNew(6));
  EXPECT_EQ(state.get(), 4.0);
  EXPECT_EQ(average_->creates, 3);
  state.clear();
  EXPECT_TRUE(state.addReportingNew(1));
  EXPECT_EQ(state.get(), 1.0);
}

TEST_F(HeapAggregatingStateTest, MergeNamespacesMergesTargetThenSourcesInOrder) {
  auto& state = backend_.getPartitionedState<TestWindow>(
      AggregatingStateDescriptor<std::string, std::string, std::string>("trail", std::make_shared<Trail>()));
  const TestWindow a{0, 10};
  const TestWindow b{5, 15};
  const TestWindow c{12, 20};
  backend_.setCurrentKey(1);
  state.setCurrentNamespace(a);
  state.add("a");
  state.setCurrentNamespace(b);
  state.add("b");
  state.add("B");
  state.setCurrentNamespace(c);
  state.add("c");
  state.mergeNamespaces(a, {c, b});
  state.setCurrentNamespace(a);
  EXPECT_EQ(state.get(), "<a|<c|<bB>");
  state.setCurrentNamespace(c);
  EXPECT_EQ(state.get(), std::nullopt);
  EXPECT_EQ(backend_.numStateEntries(), 1u);
}

TEST_F(HeapAggregatingStateTest, SameNameReturnsTheSameObjectAndOtherTypesThrow) {
  AggregatingState<long, double>& first = backend_.getAggregatingState(AverageDescriptor("avg", average_));
  AggregatingState<long, double>& second =
      backend_.getAggregatingState(AverageDescriptor("avg", std::make_shared<Average>()));
  EXPECT_EQ(&first, &second);
  EXPECT_THROW(backend_.getAggregatingState(AggregatingStateDescriptor<std::string, std::string, std::string>(
                   "avg", std::make_shared<Trail>())),
               std::logic_error);
  EXPECT_THROW(backend_.getReducingState(ReducingStateDescriptor<double>(
                   "avg", [](const double& x, const double& y) { return x + y; })),
               std::logic_error);
}

// Any type with the four operations aggregates; it need not derive from
// AggregateFunction (state holds it as an Aggregation).
struct Longest {
  std::size_t createAccumulator() const { return 0; }
  std::size_t add(const std::string& value, std::size_t longest) const { return std::max(longest, value.size()); }
  std::string getResult(std::size_t longest) const { return std::to_string(longest) + " chars"; }
  std::size_t merge(std::size_t a, std::size_t b) const { return std::max(a, b); }
};

TEST_F(HeapAggregatingStateTest, AggregatesWithAnyTypeThatHasTheFourOperations) {
  static_assert(AggregatesWith<Longest, std::string, std::size_t, std::string>);
  static_assert(!AggregatesWith<Trail, long, std::string, std::string>);
  auto& state = backend_.getAggregatingState(
      AggregatingStateDescriptor<std::string, std::size_t, std::string>("longest", std::make_shared<Longest>()));
  backend_.setCurrentKey(1);
  state.add("ab");
  state.add("abcd");
  state.add("a");
  EXPECT_EQ(state.get(), "4 chars");
  backend_.setCurrentKey(2);
  EXPECT_EQ(state.get(), std::nullopt);
}

TEST(AggregatingStateDescriptorTest, RejectsANullFunction) {
  EXPECT_THROW(AverageDescriptor("avg", nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace tidemark::internal
