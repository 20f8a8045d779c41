#include "nexmark_report.h"

#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace tidemark::cli {
namespace {

std::string megabytes(std::uint64_t bytes) { return fmt::format("{:.1f} MB", static_cast<double>(bytes) / 1e6); }

std::string micros(std::int64_t nanos) { return fmt::format("{:.1f} us", static_cast<double>(nanos) / 1e3); }

std::string jsonMicros(const std::optional<LatencySummary>& latency, std::int64_t LatencySummary::*field) {
  return latency ? fmt::format("{:.3f}", static_cast<double>((*latency).*field) / 1e3) : "null";
}

std::string jsonString(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
    } else {
      out += c;
    }
  }
  return out + '"';
}

/// One line per operator, in the job's order, indented under a summary or row.
std::string formatOperators(const RunReport& r) {
  std::string out;
  for (const OperatorMetrics& op : r.operators) {
    out += fmt::format("    {} (parallelism {}): {} records in", op.name, op.parallelism, op.records_in);
    for (const auto& [name, value] : op.counters) out += fmt::format(", {} {}", name, value);
    out += '\n';
  }
  return out;
}

std::string jsonOperators(const RunReport& r) {
  if (r.operators.empty()) return "";
  std::string out = ",\"operators\":[";
  for (std::size_t i = 0; i < r.operators.size(); ++i) {
    const OperatorMetrics& op = r.operators[i];
    out += fmt::format("{}{{\"name\":{},\"parallelism\":{},\"records_in\":{},\"counters\":{{", i == 0 ? "" : ",",
                       jsonString(op.name), op.parallelism, op.records_in);
    for (std::size_t c = 0; c < op.counters.size(); ++c) {
      out += fmt::format("{}{}:{}", c == 0 ? "" : ",", jsonString(op.counters[c].first), op.counters[c].second);
    }
    out += "}}";
  }
  return out + ']';
}

std::string formatCheckpoints(const CheckpointStatistics& c) {
  std::string out = fmt::format("  checkpoints: {} completed, {} failed", c.number_of_completed_checkpoints,
                                c.number_of_failed_checkpoints);
  if (c.last_checkpoint_duration >= 0) {
    out += fmt::format("; the last took {} ms and holds {} bytes", c.last_checkpoint_duration, c.last_checkpoint_size);
  }
  out += fmt::format("; restarts: {}", c.num_restarts);
  if (!c.restored_checkpoint_path.empty()) out += fmt::format("; restored from {}", c.restored_checkpoint_path);
  return out + '\n';
}

std::string jsonCheckpoints(const RunReport& r) {
  if (!r.checkpoints) return "";
  const CheckpointStatistics& c = *r.checkpoints;
  return fmt::format(
      ",\"checkpoints_completed\":{},\"checkpoints_failed\":{},\"last_checkpoint_duration_ms\":{},"
      "\"checkpoint_bytes\":{},\"num_restarts\":{},\"restored_from\":{}",
      c.number_of_completed_checkpoints, c.number_of_failed_checkpoints,
      c.last_checkpoint_duration >= 0 ? fmt::format("{}", c.last_checkpoint_duration) : std::string("null"),
      c.last_checkpoint_size, c.num_restarts,
      c.restored_checkpoint_path.empty() ? std::string("null") : jsonString(c.restored_checkpoint_path));
}

}  // namespace

std::string formatSummary(const RunReport& r) {
  std::string out = fmt::format("{} {} ({}): {} events in {:.3f} s = {:.2f} M events/s at parallelism {}\n", r.query,
                                r.title, r.implementation, r.events, r.seconds, r.eventsPerSecond() / 1e6,
                                r.parallelism);
  out += fmt::format("  results: {}\n", r.results);
  if (r.latency) {
    out += fmt::format("  latency (emit - event creation, {} results, source held to {} events/s): p50 {}  p99 {}  max {}\n",
                       r.latency->samples, r.rate, micros(r.latency->p50_ns), micros(r.latency->p99_ns),
                       micros(r.latency->max_ns));
  } else if (r.rate > 0) {
    out += "  latency: not measured in a restored run (its events were scheduled by the run before it)\n";
  } else {
    out += "  latency: not measured (measured in rate-limited runs: add --rate EVENTS_PER_SECOND)\n";
  }
  out += fmt::format("  peak memory: {}\n", megabytes(r.peak_rss_bytes));
  if (r.checkpoints) out += formatCheckpoints(*r.checkpoints);
  if (!r.operators.empty()) out += "  operators (records in and counters, summed over subtasks):\n" + formatOperators(r);
  if (!r.sample.empty()) {
    out += fmt::format("  first {} results:\n", r.sample.size());
    for (const auto& line : r.sample) out += fmt::format("    {}\n", line);
  }
  return out;
}

std::string formatTableHeader() {
  return fmt::format("{:<6}{:<34}{:>4}{:>13}{:>12}{:>12}{:>12}{:>11}\n", "query", "", "P", "M events/s", "results",
                     "p50 latency", "p99 latency", "peak RSS");
}

std::string formatTableRow(const RunReport& r) {
  const std::string p50 = r.latency ? micros(r.latency->p50_ns) : "-";
  const std::string p99 = r.latency ? micros(r.latency->p99_ns) : "-";
  return fmt::format("{:<6}{:<34}{:>4}{:>13.2f}{:>12}{:>12}{:>12}{:>11}\n", r.query, r.title, r.parallelism,
                     r.eventsPerSecond() / 1e6, r.results, p50, p99, megabytes(r.peak_rss_bytes)) +
         formatOperators(r);
}

std::string formatJson(const RunReport& r) {
  return fmt::format(
      "{{\"query\":\"{}\",\"implementation\":\"{}\",\"parallelism\":{},\"events\":{},\"rate\":{},\"seed\":{},"
      "\"seconds\":{:.6f},"
      "\"events_per_s\":{:.1f},\"results\":{},\"p50_latency_us\":{},\"p99_latency_us\":{},\"max_latency_us\":{},"
      "\"peak_rss_bytes\":{}{}{}}}",
      r.query, r.implementation, r.parallelism, r.events, r.rate, r.seed, r.seconds, r.eventsPerSecond(), r.results,
      jsonMicros(r.latency, &LatencySummary::p50_ns), jsonMicros(r.latency, &LatencySummary::p99_ns),
      jsonMicros(r.latency, &LatencySummary::max_ns), r.peak_rss_bytes, jsonCheckpoints(r), jsonOperators(r));
}

}  // namespace tidemark::cli
