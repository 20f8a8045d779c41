// map-keyby-reduce: generator -> map -> keyBy(key) -> reduce(sum) -> sink.
//
// The map chains to the source and the sink to the reduce, so with
// parallelism P the job runs 2P tasks and every record crosses one channel
// (the keyBy shuffle).
//
// The reduce emits a running sum per record. Which running sums appear
// depends on how the source subtasks interleave, so the sink does not fold
// them; it keeps the last sum per key (the key's total: a key lives on one
// reduce subtask, and the chained sink sees its sums in order) and the
// checksum covers those totals.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "workload_common.h"

namespace tidemark::bench {

class FinalSumSink final : public SinkFunction<Event> {
 public:
  explicit FinalSumSink(std::shared_ptr<Tally> tally) : tally_(std::move(tally)) {}

  // Sized here, not in the constructor: the function is copied per subtask.
  void open() override { last_sum_.assign(static_cast<std::size_t>(kNumKeys), 0); }

  void invoke(const Event& event, const Context&) override {
    last_sum_[static_cast<std::size_t>(event.key)] = event.value;
    ++records_;
  }

  void finish() override {
    std::uint64_t checksum = 0;
    std::int64_t keys = 0;
    // Every mapped value is positive, so 0 means the key never arrived here.
    for (std::int64_t key = 0; key < kNumKeys; ++key) {
      const std::int64_t sum = last_sum_[static_cast<std::size_t>(key)];
      if (sum == 0) continue;
      checksum += checksumTerm(key, sum);
      ++keys;
    }
    tally_->add(checksum, keys, records_);
  }

 private:
  std::shared_ptr<Tally> tally_;
  std::vector<std::int64_t> last_sum_;
  std::int64_t records_ = 0;
};

inline WorkloadResult runMapKeyByReduce(const WorkloadOptions& options) {
  auto tally = std::make_shared<Tally>();
  auto env = StreamExecutionEnvironment::createLocalEnvironment(options.parallelism);
  env.addSource(GeneratorSource(options.records, options.records_per_milli, false, options.steady_hooks),
                "generator")
      .map([](const Event& e) { return Event{e.key, mapValue(e.value)}; })
      .keyBy([](const Event& e) { return e.key; })
      .reduce([](const Event& acc, const Event& e) { return Event{acc.key, acc.value + e.value}; })
      .addSink(FinalSumSink(tally))
      .name("final sums");
  return executeJob(env, "map-keyby-reduce", options, *tally);
}

}  // namespace tidemark::bench
