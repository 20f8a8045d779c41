// DataStream::transform: a user's own operator, written against
// OneInputStreamOperator, runs in a job like any built-in one — chained after
// the source at every parallelism, and seeing each watermark before the
// operators after it do.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using Script = ScriptedSource<std::int64_t>::Script;

/// Sums the elements between two watermarks and emits the sum just before
/// the second: what a pre-aggregation before a shuffle does.
class SumBetweenWatermarks final : public OneInputStreamOperator<std::int64_t, std::int64_t> {
 public:
  void processElement(StreamRecord<std::int64_t>& record) override {
    sum_ += record.value;
    last_timestamp_ = std::max(last_timestamp_, record.timestamp);
    holding_ = true;
  }
  void processWatermark(Timestamp watermark) override {
    flush();
    OneInputStreamOperator<std::int64_t, std::int64_t>::processWatermark(watermark);
  }
  void finish() override { flush(); }

 private:
  void flush() {
    if (!holding_) return;
    auto record = StreamRecord<std::int64_t>::withTimestamp(sum_, last_timestamp_);
    output().collect(record);
    sum_ = 0;
    holding_ = false;
  }

  std::int64_t sum_ = 0;
  Timestamp last_timestamp_ = kMinWatermark;
  bool holding_ = false;
};

TEST(TransformTest, RunsAUsersOperatorThatActsOnEveryWatermark) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(1);
  env.enableSimulatedTime();
  const Script script = {{1000, 1, 100}, {1000, 2, 150}, {2000, 4, 300}, {3000, 8, 400}, {3000, 16, 450}};
  auto seen = env.addSource(ScriptedSource<std::int64_t>::single(script))
                  .assignTimestampsAndWatermarks(
                      WatermarkStrategy<std::int64_t>::forMonotonousTimestamps().withTimestampAssigner(
                          [](const std::int64_t&, Timestamp timestamp) { return timestamp; }))
                  .transform<std::int64_t>("sum between watermarks",
                                           [] { return std::make_unique<SumBetweenWatermarks>(); })
                  .process<std::string>([](const std::int64_t& sum, ProcessContext& ctx, Collector<std::string>& out) {
                    out.collect(std::to_string(sum) + "@" + std::to_string(*ctx.timestamp()) + " seen at watermark " +
                                std::to_string(ctx.timerService().currentWatermark()));
                  })
                  .collectToMemory();
  env.execute("transform");
  // Periodic watermarks every 200 ms of processing time: one after each
  // instant of the script; the sums arrive before the watermark that
  // released them, and the last sum at the end of input.
  EXPECT_EQ(seen->values(), (std::vector<std::string>{
                                "3@150 seen at watermark -9223372036854775808",
                                "4@300 seen at watermark 149",
                                "24@450 seen at watermark 299",
                            }));
}

TEST(TransformTest, CreatesOneOperatorPerSubtask) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime();
  std::vector<std::int64_t> numbers(100);
  for (std::size_t i = 0; i < numbers.size(); ++i) numbers[i] = static_cast<std::int64_t>(i) + 1;
  auto sums = env.fromCollection(numbers)
                  .transform<std::int64_t>("sum", [] { return std::make_unique<SumBetweenWatermarks>(); })
                  .collectToMemory();
  env.execute("transform per subtask");
  std::vector<std::int64_t> values = sums->values();
  std::sort(values.begin(), values.end());
  // The collection is spread over both subtasks; each sums its own share
  // and emits once, at the end of input.
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0] + values[1], 5050);
}

}  // namespace
}  // namespace tidemark
