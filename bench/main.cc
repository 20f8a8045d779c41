// tidemark-bench: runs one benchmark workload as a real tidemark job (real
// threads, wall clock) and prints one JSON line with its throughput, memory,
// allocations and a checksum of its results.
//
//   tidemark-bench --list
//   tidemark-bench map-keyby-reduce --records 20000000 --parallelism 2
//
// Exit status: 0 on success, 1 if the job failed, 2 on a usage error
// (including an unknown workload).
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "alloc_counter.h"
#include "workloads.h"

namespace {

using tidemark::bench::AllocationCounts;
using tidemark::bench::kWorkloads;

std::string workloadList(std::string_view separator) {
  std::string names;
  for (const auto& workload : kWorkloads) {
    if (!names.empty()) names += separator;
    names += workload.name;
  }
  return names;
}

std::uint64_t peakRssBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }

/// CPU time of every thread of the process: unlike wall time, it does not
/// grow when other processes compete for the cores.
double cpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double perRecord(std::uint64_t count, double records) { return records > 0 ? static_cast<double>(count) / records : 0; }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tidemark-bench: run one benchmark workload as a real tidemark job and print one JSON line"};
  std::string workload_name;
  bool list = false;
  std::int64_t records = 20'000'000;
  int parallelism = 1;
  std::int64_t records_per_milli = tidemark::bench::kDefaultRecordsPerMilli;
  std::string watermarks = "source";
  bool trap = false;

  app.add_option("workload", workload_name, "the workload to run (see --list)");
  app.add_flag("--list", list, "print the workload names, one per line, and exit");
  app.add_option("--records,-n", records, "records the generator emits, over all parallel subtasks")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--parallelism,-p", parallelism, "parallelism of every operator")
      ->check(CLI::Range(1, tidemark::kDefaultMaxParallelism))
      ->capture_default_str();
  app.add_option("--records-per-ms", records_per_milli, "generator records per millisecond of event time")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--watermarks", watermarks,
                 "keyed-timers: 'source' (the generator emits one per ms of event time) or 'strategy' "
                 "(forMonotonousTimestamps, periodic)")
      ->check(CLI::IsMember({"source", "strategy"}))
      ->capture_default_str();
  app.add_flag("--trap-steady-allocations", trap,
               "call tidemark_bench_on_allocation() for every steady-state allocation (break on it in gdb)");
  std::string footer = "\nWorkloads:\n";
  for (const auto& workload : kWorkloads) footer += fmt::format("  {:<21} {}\n", workload.name, workload.description);
  app.footer(footer);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  if (list) {
    for (const auto& workload : kWorkloads) fmt::print("{}\n", workload.name);
    return 0;
  }
  if (workload_name.empty()) {
    fmt::print(stderr, "tidemark-bench: name a workload: {} (see --help)\n", workloadList(", "));
    return 2;
  }
  const tidemark::bench::Workload* workload = tidemark::bench::findWorkload(workload_name);
  if (workload == nullptr) {
    fmt::print(stderr, "tidemark-bench: unknown workload '{}'; allowed: {}\n", workload_name, workloadList(", "));
    return 2;
  }

  double cpu_start = 0;
  double cpu_end = 0;
  AllocationCounts job_start;
  AllocationCounts job_end;
  AllocationCounts steady_start;
  AllocationCounts steady_end;
  auto hooks = std::make_shared<tidemark::bench::SteadyStateHooks>();
  hooks->begin = [&steady_start, trap] {
    steady_start = tidemark::bench::allocationCounts();
    if (trap) tidemark::bench::setAllocationTrap(true);
  };
  hooks->end = [&steady_end] {
    tidemark::bench::setAllocationTrap(false);
    steady_end = tidemark::bench::allocationCounts();
  };

  tidemark::bench::WorkloadOptions options;
  options.records = records;
  options.parallelism = parallelism;
  options.records_per_milli = records_per_milli;
  options.watermarks =
      watermarks == "strategy" ? tidemark::bench::WatermarkMode::kStrategy : tidemark::bench::WatermarkMode::kSource;
  options.steady_hooks = hooks;
  options.before_execute = [&job_start, &cpu_start] {
    cpu_start = cpuSeconds();
    job_start = tidemark::bench::allocationCounts();
  };
  options.after_execute = [&job_end, &cpu_end] {
    job_end = tidemark::bench::allocationCounts();
    cpu_end = cpuSeconds();
  };

  tidemark::bench::WorkloadResult result;
  try {
    result = workload->run(options);
  } catch (const std::exception& e) {
    fmt::print(stderr, "tidemark-bench: {} failed: {}\n", workload->name, e.what());
    return 1;
  }

  const auto n = static_cast<double>(records);
  // The steady window is measured on source subtask 0 from 1/4 to all of its
  // share; the other subtasks run alongside, so about 3/4 of all records pass
  // in it.
  const double steady_records = n - static_cast<double>(records / 4);
  const std::uint64_t job_allocations = job_end.allocations - job_start.allocations;
  std::string json = fmt::format(
      "{{\"workload\":\"{}\",\"parallelism\":{},\"records\":{},\"seconds\":{:.6f},\"records_per_s\":{:.0f},"
      "\"cpu_seconds\":{:.3f},\"peak_rss_bytes\":{},\"checksum\":\"{:016x}\",\"results\":{},\"output_records\":{},"
      "\"allocations_per_record\":{:.3g},\"allocations\":{},\"steady_allocations_per_record\":{:.3g}",
      workload->name, parallelism, records, result.seconds, result.seconds > 0 ? n / result.seconds : 0.0,
      cpu_end - cpu_start, peakRssBytes(), result.checksum, result.results, result.output_records,
      perRecord(job_allocations, n), job_allocations,
      perRecord(steady_end.allocations - steady_start.allocations, steady_records));
  if (workload->name == "keyed-timers") json += fmt::format(",\"watermarks\":\"{}\"", watermarks);
  if (result.window_state_entries_at_peak > 0) {
    // The slicing window operators' own accounting (tables and entries by
    // capacity), at the moment they held the most.
    json += fmt::format(",\"window_state_bytes_peak\":{},\"window_state_entries_at_peak\":{},"
                        "\"window_state_bytes_per_key\":{:.1f}",
                        result.window_state_bytes_peak, result.window_state_entries_at_peak,
                        static_cast<double>(result.window_state_bytes_peak) /
                            static_cast<double>(result.window_state_entries_at_peak));
  }
  if (workload->name.starts_with("cep-")) {
    // The CEP operators' own accounting, summed over subtasks.
    json += fmt::format(",\"matches\":{},\"peak_partial_matches\":{},\"peak_buffered_events\":{}", result.results,
                        result.peak_partial_matches, result.peak_buffered_events);
  }
  json += "}\n";
  std::fwrite(json.data(), 1, json.size(), stdout);
  return 0;
}
