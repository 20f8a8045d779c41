// Keyed state through the runtime context in a running job: every state type,
// per key and per operator.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

struct Visit {
  std::string user;
  int amount = 0;
};

struct AverageAggregate : AggregateFunction<int, std::pair<int, int>, double> {
  std::pair<int, int> createAccumulator() override { return {0, 0}; }
  std::pair<int, int> add(const int& v, std::pair<int, int> acc) override { return {acc.first + v, acc.second + 1}; }
  double getResult(const std::pair<int, int>& acc) override { return acc.second == 0 ? 0.0 : 1.0 * acc.first / acc.second; }
  std::pair<int, int> merge(std::pair<int, int> a, std::pair<int, int> b) override {
    return {a.first + b.first, a.second + b.second};
  }
};

/// Reports, per element, what each kind of state holds for the element's key.
class EveryState : public KeyedProcessFunction<std::string, Visit, std::string> {
 public:
  void open() override {
    auto& rc = getRuntimeContext();
    count_ = &rc.getState(ValueStateDescriptor<int>("count", 0));
    history_ = &rc.getListState(ListStateDescriptor<int>("history"));
    by_amount_ = &rc.getMapState(MapStateDescriptor<int, int>("by-amount"));
    total_ = &rc.getReducingState(ReducingStateDescriptor<int>("total", [](const int& a, const int& b) { return a + b; }));
    average_ = &rc.getAggregatingState(
        AggregatingStateDescriptor<int, std::pair<int, int>, double>("average", std::make_shared<AverageAggregate>()));
  }

  void processElement(const Visit& v, Context& ctx, Collector<std::string>& out) override {
    count_->update(*count_->value() + 1);
    history_->add(v.amount);
    by_amount_->put(v.amount, by_amount_->get(v.amount).value_or(0) + 1);
    total_->add(v.amount);
    average_->add(v.amount);
    std::string history;
    for (int h : history_->get()) history += (history.empty() ? "" : ",") + std::to_string(h);
    out.collect(ctx.getCurrentKey() + " count=" + std::to_string(*count_->value()) + " history=" + history +
                " distinct=" + std::to_string(by_amount_->keys().size()) + " total=" + std::to_string(*total_->get()) +
                " average=" + std::to_string(*average_->get()));
  }

 private:
  ValueState<int>* count_ = nullptr;
  ListState<int>* history_ = nullptr;
  MapState<int, int>* by_amount_ = nullptr;
  ReducingState<int>* total_ = nullptr;
  AggregatingState<int, double>* average_ = nullptr;
};

TEST(KeyedStateTest, EveryStateTypeIsPerKey) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime();
  auto results = env.fromElements<Visit>({{"Mary", 10}, {"Bob", 5}, {"Mary", 20}, {"Mary", 10}, {"Bob", 7}})
                     .keyBy([](const Visit& v) { return v.user; })
                     .process(EveryState{})
                     .collectToMemory();
  env.execute("state");
  auto lines = results->values();
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "Bob count=1 history=5 distinct=1 total=5 average=5.000000",
                       "Bob count=2 history=5,7 distinct=2 total=12 average=6.000000",
                       "Mary count=1 history=10 distinct=1 total=10 average=10.000000",
                       "Mary count=2 history=10,20 distinct=2 total=30 average=15.000000",
                       "Mary count=3 history=10,20,10 distinct=2 total=40 average=13.333333",
                   }));
}

/// Counts per key in a state named "count".
class Counter : public KeyedProcessFunction<std::string, Visit, std::string> {
 public:
  explicit Counter(std::string label) : label_(std::move(label)) {}
  void open() override { count_ = &getRuntimeContext().getState(ValueStateDescriptor<int>("count", 0)); }
  void processElement(const Visit& v, Context&, Collector<std::string>& out) override {
    count_->update(*count_->value() + 1);
    out.collect(label_ + ":" + v.user + "=" + std::to_string(*count_->value()));
  }

 private:
  std::string label_;
  ValueState<int>* count_ = nullptr;
};

TEST(KeyedStateTest, TheSameStateNameInTwoOperatorsIsTwoStates) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  auto keyed = env.fromElements<Visit>({{"Mary", 1}, {"Mary", 2}}).keyBy([](const Visit& v) { return v.user; });
  auto first = keyed.process(Counter("first")).collectToMemory();
  auto second = keyed.process(Counter("second")).collectToMemory();
  env.execute("two operators");
  EXPECT_EQ(first->values(), (std::vector<std::string>{"first:Mary=1", "first:Mary=2"}));
  EXPECT_EQ(second->values(), (std::vector<std::string>{"second:Mary=1", "second:Mary=2"}));
}

}  // namespace
}  // namespace tidemark
