// The benchmark workloads as plain functions that build and run a tidemark
// job: shared by tidemark-bench and the checksum test. Nothing here depends on
// the allocation counter (alloc_counter.cc), which only the benchmark links.
//
// Example:
//   tidemark::bench::WorkloadOptions options;
//   options.records = 50'000;
//   options.parallelism = 2;
//   const auto* workload = tidemark::bench::findWorkload("map-keyby-reduce");
//   tidemark::bench::WorkloadResult result = workload->run(options);
#pragma once

#include <array>
#include <string_view>

#include "cep_workloads.h"
#include "keyed_timers.h"
#include "map_keyby_reduce.h"
#include "session_count.h"
#include "source_only.h"
#include "window_sums.h"
#include "workload_common.h"

namespace tidemark::bench {

struct Workload {
  std::string_view name;
  std::string_view description;
  WorkloadResult (*run)(const WorkloadOptions&);
};

inline constexpr std::array<Workload, 10> kWorkloads{{
    {"source-only", "the generator source straight into a counting sink", &runSourceOnly},
    {"map-keyby-reduce", "generator -> map -> keyBy -> reduce(sum) -> checksum sink", &runMapKeyByReduce},
    {"keyed-timers", "generator -> keyBy -> one event-time timer per record, ~1M pending", &runKeyedTimers},
    {"tumbling-sum", "generator -> keyBy -> tumbling 1 s event-time windows -> sum, 10,000 keys", &runTumblingSum},
    {"sliding-sum", "generator -> keyBy -> sliding 10 s / 1 s event-time windows -> sum, 10,000 keys",
     &runSlidingSum},
    {"session-count", "generator -> keyBy -> event-time sessions (gap 1 s) -> count", &runSessionCount},
    {"tumbling-sum-1m-keys", "as tumbling-sum with 1,000,000 keys", &runTumblingSumManyKeys},
    {"tumbling-aggregate-process",
     "as tumbling-sum, by aggregate(AggregateFunction, ProcessWindowFunction) as Flink jobs usually write it",
     &runTumblingAggregateProcess},
    {"cep-login", "generator -> keyBy(user) -> CEP: 3 failed logins in a row within 10 s, 100,000 users",
     &runCepLogin},
    {"cep-any", "generator -> keyBy -> CEP: A followedByAny B+ followedBy C within 1 s, 10,000 keys", &runCepAny},
}};

/// The workload called `name`, or nullptr.
inline const Workload* findWorkload(std::string_view name) {
  for (const Workload& workload : kWorkloads) {
    if (workload.name == name) return &workload;
  }
  return nullptr;
}

}  // namespace tidemark::bench
