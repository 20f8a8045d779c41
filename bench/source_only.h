// source-only: the generator straight into a counting sink. Source and sink
// chain into one task per subtask, so this is the generator's own speed plus
// one chained call per record: the ceiling for every other workload.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "workload_common.h"

namespace tidemark::bench {

class CountingSink final : public SinkFunction<Event> {
 public:
  explicit CountingSink(std::shared_ptr<Tally> tally) : tally_(std::move(tally)) {}

  void invoke(const Event& event, const Context&) override {
    ++records_;
    checksum_ += checksumTerm(event.key, event.value);
  }

  void finish() override { tally_->add(checksum_, records_, records_); }

 private:
  std::shared_ptr<Tally> tally_;
  std::uint64_t checksum_ = 0;
  std::int64_t records_ = 0;
};

inline WorkloadResult runSourceOnly(const WorkloadOptions& options) {
  auto tally = std::make_shared<Tally>();
  auto env = StreamExecutionEnvironment::createLocalEnvironment(options.parallelism);
  env.addSource(GeneratorSource(options.records, options.records_per_milli, false, options.steady_hooks),
                "generator")
      .addSink(CountingSink(tally))
      .name("count");
  return executeJob(env, "source-only", options, *tally);
}

}  // namespace tidemark::bench
