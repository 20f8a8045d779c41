#include "nexmark_command.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "example_main.h"
#include "nexmark/nexmark_source.h"
#include "nexmark/query.h"
#include "nexmark/reference/reference_registry.h"
#include "nexmark_report.h"
#include "peak_memory.h"
#include "progress_display.h"

namespace tidemark::cli {
namespace {

using nexmark::Query;

struct NexmarkOptions {
  std::string query;
  bool all = false;
  std::int64_t events = 10'000'000;
  int parallelism = 1;
  std::int64_t rate = 0;
  std::int64_t event_rate = 10'000'000;
  std::uint64_t seed = 0;
  Duration out_of_orderness = 0;
  std::size_t sample = 5;
  bool json = false;
  bool reference = false;
  bool generator_only = false;
  bool metrics = false;
  Duration checkpoint_interval = 0;  // 0: no checkpoints
  std::string checkpoint_dir;        // empty: checkpoints in memory
  int retained_checkpoints = 1;      // in checkpoint_dir: how many a restore can fall back over
  std::string restore;               // "latest" (in checkpoint_dir) or a path; empty: a fresh start
  std::string output;                // empty: results are only counted
};

/// Parallel source subtasks may drift this far apart in event time before
/// the one ahead waits. State downstream grows with the drift: the bids that
/// overtake their auction wait in q4, q6 and q9 until it comes. At 10 ms
/// rather than 50, those queries ran 3 to 8 % faster at parallelism 2 and q4
/// and q9 peaked a quarter smaller; no other query's speed changed.
constexpr Duration kMaxSubtaskDrift = 10;

std::string queryNames() {
  std::string names;
  for (const Query& q : nexmark::allQueries()) names += (names.empty() ? "" : ", ") + q.name;
  return names;
}

std::string referenceNames() {
  std::string names;
  for (const auto& p : nexmark::allReferencePrograms()) names += (names.empty() ? "" : ", ") + p.query;
  return names;
}

[[noreturn]] void usageError(const std::string& message) {
  fmt::print(stderr, "tidemark nexmark: {}\n", message);
  throw CLI::RuntimeError(2);
}

nexmark::GeneratorConfig generatorConfig(const NexmarkOptions& options) {
  nexmark::GeneratorConfig config;
  config.seed = options.seed;
  // A rate-limited run makes event time follow the wall clock, as the
  // benchmark's generator does: --rate sets both.
  config.events_per_second = options.rate > 0 ? options.rate : options.event_rate;
  config.max_out_of_orderness = options.out_of_orderness;
  return config;
}

LatencySummary summarize(const nexmark::LatencyHistogram& latencies) {
  return LatencySummary{latencies.percentile(50), latencies.percentile(99), latencies.max(), latencies.count()};
}

/// Checkpoints, the restore and where they are kept. Checkpoints in a
/// directory outlive a cancelled run (Ctrl-C), so that it can be resumed with
/// --restore latest; a run that finishes removes them, as Flink does.
void configureFaultTolerance(StreamExecutionEnvironment& env, const NexmarkOptions& options) {
  if (options.checkpoint_interval > 0) {
    env.enableCheckpointing(options.checkpoint_interval);
    if (!options.checkpoint_dir.empty()) {
      env.getCheckpointConfig()
          .setCheckpointStorage(options.checkpoint_dir)
          .setMaxRetainedCheckpoints(options.retained_checkpoints)
          .setExternalizedCheckpointRetention(ExternalizedCheckpointRetention::RETAIN_ON_CANCELLATION);
    }
  }
  if (!options.restore.empty()) env.setRestorePath(options.restore == "latest" ? options.checkpoint_dir : options.restore);
}

RunReport runEngine(const Query& query, const NexmarkOptions& options) {
  const nexmark::GeneratorConfig generator = generatorConfig(options);
  auto env = StreamExecutionEnvironment::createLocalEnvironment(options.parallelism);
  configureFaultTolerance(env, options);
  auto clock = std::make_shared<nexmark::RunClock>();
  auto progress = std::make_shared<nexmark::SourceProgress>(options.parallelism);
  nexmark::SourceOptions source;
  source.generator = generator;
  source.events = options.events;
  source.rate = options.rate;
  source.clock = clock;
  source.progress = progress;
  if (options.parallelism > 1) {
    source.alignment = std::make_shared<EventTimeAlignment>(options.parallelism, kMaxSubtaskDrift);
  }
  std::shared_ptr<const nexmark::LatencySchedule> schedule;
  // A restored run's source goes on from events the run before it scheduled:
  // their creation times are gone, so its latency is not measured.
  if (options.rate > 0 && options.restore.empty()) {
    schedule = std::make_shared<nexmark::LatencySchedule>(generator, options.rate, options.parallelism,
                                                          options.events, clock);
  }
  auto recorder = std::make_shared<nexmark::ResultRecorder>(options.sample, schedule);
  query.attach(nexmark::addNexmarkSource(env, source), nexmark::QuerySinks{recorder, options.output});

  ProgressDisplay display(query.name, options.events, generator, progress);
  resetPeakResidentBytes();
  display.start();
  const auto start = std::chrono::steady_clock::now();
  std::vector<OperatorMetrics> operators;
  std::optional<CheckpointStatistics> checkpoints;
  try {
    const JobExecutionResult result = env.execute(fmt::format("nexmark {}", query.name));
    if (options.metrics) operators = result.getOperatorMetrics();
    if (options.checkpoint_interval > 0 || !options.restore.empty()) checkpoints = result.getCheckpointStatistics();
  } catch (...) {
    display.stop();
    throw;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  display.stop();

  RunReport report{query.name, query.title, "tidemark", options.parallelism, options.events, options.rate, seconds};
  report.seed = options.seed;
  report.results = recorder->results();
  if (schedule != nullptr) report.latency = summarize(recorder->latencies());
  report.peak_rss_bytes = peakResidentBytes();
  report.sample = recorder->sample();
  report.operators = std::move(operators);
  report.checkpoints = std::move(checkpoints);
  return report;
}

RunReport runReference(const Query& query, const nexmark::ReferenceProgram& program, const NexmarkOptions& options) {
  const nexmark::EventGenerator generator(generatorConfig(options));
  nexmark::ResultRecorder recorder(options.sample, nullptr);
  resetPeakResidentBytes();
  const auto start = std::chrono::steady_clock::now();
  program.run(generator, options.events, recorder);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RunReport report{query.name, query.title, "reference", 1, options.events, 0, seconds};
  report.seed = options.seed;
  report.results = recorder.results();
  report.peak_rss_bytes = peakResidentBytes();
  report.sample = recorder.sample();
  return report;
}

/// The generator alone on one thread: every event made and looked at, no
/// engine, to show that the source is not what limits a query.
RunReport runGeneratorOnly(const NexmarkOptions& options) {
  const nexmark::EventGenerator generator(generatorConfig(options));
  resetPeakResidentBytes();
  const auto start = std::chrono::steady_clock::now();
  std::int64_t bids = 0;
  Timestamp nominal = kMinWatermark;
  std::int64_t next_millisecond = 0;
  for (std::int64_t n = 0; n < options.events; ++n) {
    if (n >= next_millisecond) {  // as the source tracks it: one division per millisecond
      nominal = generator.nominalTime(n);
      next_millisecond = generator.firstEventAtOrAfter(nominal + 1);
    }
    const nexmark::Event event = generator.generate(n, nominal);
    bids += event.bid() != nullptr;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RunReport report{"generator", "events made, nothing else", "generator", 1, options.events, 0, seconds};
  report.seed = options.seed;
  report.results = bids;
  report.peak_rss_bytes = peakResidentBytes();
  return report;
}

RunReport runOne(const Query& query, const NexmarkOptions& options) {
  try {
    if (options.reference) return runReference(query, *nexmark::findReferenceProgram(query.name), options);
    return runEngine(query, options);
  } catch (const JobCancellationException& e) {
    fmt::print(stderr, "tidemark nexmark: {}: {}\n", query.name, e.what());
    throw CLI::RuntimeError(e.signal() > 0 ? 128 + e.signal() : 1);
  } catch (const std::exception& e) {
    fmt::print(stderr, "tidemark nexmark: {} failed: {}\n", query.name, e.what());
    throw CLI::RuntimeError(1);
  }
}

void checkFaultToleranceOptions(const NexmarkOptions& options) {
  const bool any = options.checkpoint_interval > 0 || !options.checkpoint_dir.empty() || !options.restore.empty() ||
                   !options.output.empty();
  if (any && options.reference) {
    usageError("--reference runs no job: it takes no --checkpoint-interval, --checkpoint-dir, --restore or --output");
  }
  if (options.retained_checkpoints != 1 && options.checkpoint_dir.empty()) {
    usageError("--retained-checkpoints counts the checkpoints kept in --checkpoint-dir DIR: name the directory");
  }
  if (!options.checkpoint_dir.empty() && options.checkpoint_interval == 0) {
    usageError("--checkpoint-dir keeps checkpoints: it needs --checkpoint-interval MS");
  }
  if (options.restore == "latest" && options.checkpoint_dir.empty()) {
    usageError("--restore latest restores the newest checkpoint in --checkpoint-dir DIR: name the directory");
  }
  if (options.all && (!options.checkpoint_dir.empty() || !options.restore.empty() || !options.output.empty())) {
    usageError("--checkpoint-dir, --restore and --output belong to one job: name one query with --query");
  }
}

/// The queries to run, after checking the combination of options.
std::vector<const Query*> selectQueries(const NexmarkOptions& options) {
  if (options.all && !options.query.empty()) usageError("--query and --all cannot be combined: name one query, or run all");
  if (!options.all && options.query.empty()) usageError("name one query with --query QUERY, or run all with --all");
  if (options.reference && options.rate > 0) {
    usageError("--reference runs as fast as possible; it takes no --rate");
  }
  if (options.reference && options.parallelism != 1) usageError("--reference runs at --parallelism 1 only");
  if (options.reference && options.metrics) {
    usageError("--metrics reports the engine's operators; a --reference program has none");
  }
  checkFaultToleranceOptions(options);
  std::vector<const Query*> queries;
  if (options.all) {
    for (const Query& q : nexmark::allQueries()) {
      if (!options.reference || nexmark::findReferenceProgram(q.name) != nullptr) queries.push_back(&q);
    }
    return queries;
  }
  const Query* query = nexmark::findQuery(options.query);
  if (query == nullptr) usageError(fmt::format("--query: unknown query '{}'; allowed: {}", options.query, queryNames()));
  if (options.reference && nexmark::findReferenceProgram(query->name) == nullptr) {
    usageError(fmt::format("--reference: {} has no hand-written reference program; allowed: {}", query->name,
                           referenceNames()));
  }
  queries.push_back(query);
  return queries;
}

void printReport(const RunReport& report, const NexmarkOptions& options, bool table) {
  if (options.json) {
    fmt::print("{}\n", formatJson(report));
  } else if (table) {
    fmt::print("{}", formatTableRow(report));
  } else {
    fmt::print("{}", formatSummary(report));
  }
  std::fflush(stdout);
}

void runNexmark(const NexmarkOptions& options) {
  if (options.generator_only) {
    if (!options.query.empty() || options.all || options.reference || options.rate > 0 || options.parallelism != 1 ||
        options.metrics || options.checkpoint_interval > 0 || !options.checkpoint_dir.empty() ||
        !options.restore.empty() || !options.output.empty()) {
      usageError(
          "--generator-only runs the generator alone: no --query, --all, --reference, --rate, --parallelism, "
          "--metrics, --checkpoint-interval, --checkpoint-dir, --restore or --output");
    }
    printReport(runGeneratorOnly(options), options, false);
    return;
  }
  const std::vector<const Query*> queries = selectQueries(options);
  const bool table = queries.size() > 1 && !options.json;
  if (table) fmt::print("{}", formatTableHeader());
  for (const Query* query : queries) printReport(runOne(*query, options), options, table);
}

std::string queryList() {
  std::string list = "\nQueries:\n";
  for (const Query& q : nexmark::allQueries()) list += fmt::format("  {:<5}{:<32}{}\n", q.name, q.title, q.description);
  list += fmt::format("\nHand-written reference programs (--reference): {}\n", referenceNames());
  return list;
}

}  // namespace

void addNexmarkCommand(CLI::App& app) {
  auto options = std::make_shared<NexmarkOptions>();
  CLI::App* command = app.add_subcommand("nexmark", "run Nexmark benchmark queries on the built-in event generator");
  command->add_option("--query,-q", options->query, "the query to run (see the list below)");
  command->add_flag("--all", options->all, "run every query and print one table (or one JSON line each)");
  command->add_option("--events,-n", options->events, "events to generate, over all source subtasks")
      ->check(examples::strictDecimal<std::int64_t>(1, 1'000'000'000'000))
      ->capture_default_str();
  command->add_option("--parallelism,-p", options->parallelism, "parallelism of every operator")
      ->check(examples::strictDecimal(1, 256))
      ->capture_default_str();
  command->add_option("--rate", options->rate,
                      "hold the source to this many events per second (wall clock) and measure latency; "
                      "event time then follows the wall clock. 0: as fast as possible")
      ->check(examples::strictDecimal<std::int64_t>(0, 1'000'000'000))
      ->capture_default_str();
  command->add_option("--event-rate", options->event_rate,
                      "events per second of event time when not rate-limited (sets how many events a window holds)")
      ->check(examples::strictDecimal<std::int64_t>(1, 1'000'000'000))
      ->capture_default_str();
  command->add_option("--out-of-orderness", options->out_of_orderness,
                      "events are up to this many ms out of order; the watermark trails by as much")
      ->check(examples::strictDecimal<Duration>(0, 3'600'000))
      ->capture_default_str();
  command->add_option("--seed", options->seed, "generator seed")
      ->check(examples::strictDecimal<std::uint64_t>())
      ->capture_default_str();
  command->add_option("--sample", options->sample, "results to print after a single query's summary")
      ->check(examples::strictDecimal<std::size_t>(0, 1000))
      ->capture_default_str();
  command->add_flag("--json", options->json,
                    "print one JSON line per query: query, parallelism, events, seconds, events_per_s, "
                    "p50_latency_us, p99_latency_us (null unless --rate), peak_rss_bytes, ...");
  command->add_flag("--reference", options->reference,
                    "run the hand-written reference program (plain C++, no engine) instead of the query");
  command->add_flag("--metrics", options->metrics,
                    "also report what each operator received (records in, summed over its subtasks) and its "
                    "counters, such as records combined before a shuffle");
  command->add_flag("--generator-only", options->generator_only,
                    "run the event generator alone on one thread (no engine) and report its rate");
  command->add_option("--checkpoint-interval", options->checkpoint_interval,
                      "take a checkpoint every MS ms of the wall clock (exactly once); 0: none. A failed job then "
                      "restarts from its latest checkpoint")
      ->check(examples::strictDecimal<Duration>(0, 86'400'000))
      ->capture_default_str();
  command->add_option("--checkpoint-dir", options->checkpoint_dir,
                      "keep the checkpoints in this directory (chk-N/ each), where a later run can --restore them; "
                      "they outlive a killed or cancelled run, and a run that finishes removes them");
  command->add_option("--retained-checkpoints", options->retained_checkpoints,
                      "completed checkpoints kept in --checkpoint-dir: a restore of 'latest' passes over a damaged "
                      "one to the next older")
      ->check(examples::strictDecimal(1, 1000))
      ->capture_default_str();
  command->add_option("--restore", options->restore,
                      "start from a checkpoint: 'latest' (the newest intact one in --checkpoint-dir) or a path (a "
                      "chk-N directory, or a directory of them); the job must be the same query, at any "
                      "parallelism (its state, the source's positions and the output's parts are redistributed)");
  command->add_option("--output", options->output,
                      "also write every result, one line each, to part files in this directory through the "
                      "exactly-once file sink: with checkpoints a part is committed when the checkpoint after it "
                      "completes, without them at the end of the input");
  command->footer(queryList());
  command->callback([options] { runNexmark(*options); });
}

}  // namespace tidemark::cli
