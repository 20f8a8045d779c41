// The `tidemark` command as a user runs it: arguments, errors, output formats.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "nexmark/query.h"
#include "support/run_program.h"
#include "support/scratch_directory.h"
#include "tidemark/core/log.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing_support::ProgramResult;
using testing_support::ScratchDirectory;

ProgramResult tidemark(const std::vector<std::string>& args) {
  return testing_support::runProgram(TIDEMARK_CLI_PATH, args);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(TidemarkCommandTest, AsksForASubcommand) {
  const ProgramResult r = tidemark({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("A subcommand is required"));
}

TEST(TidemarkCommandTest, HelpNamesEveryCommand) {
  const ProgramResult r = tidemark({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, AllOf(HasSubstr("nexmark"), HasSubstr("examples")));
}

TEST(TidemarkCommandTest, NexmarkHelpListsEveryQuery) {
  const ProgramResult r = tidemark({"nexmark", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const auto& query : nexmark::allQueries()) EXPECT_THAT(r.out, HasSubstr(query.name + " ")) << query.name;
  EXPECT_THAT(r.out, AllOf(HasSubstr("--events"), HasSubstr("--parallelism"), HasSubstr("--rate"), HasSubstr("--json")));
}

TEST(TidemarkCommandTest, NamesTheBadArgumentAndTheAllowedValues) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"nexmark", "--query", "q99"}, "--query: unknown query 'q99'; allowed: q0"},
      {{"nexmark"}, "name one query with --query QUERY, or run all with --all"},
      {{"nexmark", "--query", "q0", "--all"}, "--query and --all cannot be combined"},
      {{"nexmark", "--query", "q0", "--events", "0"}, "--events: 0 is not in [1, 1000000000000]"},
      {{"nexmark", "--query", "q0", "--events", "many"}, "--events: 'many' is not a number (decimal digits only)"},
      {{"nexmark", "--query", "q0", "--events", "abc"}, "--events: 'abc' is not a number (decimal digits only)"},
      {{"nexmark", "--query", "q0", "--events", "1e3"}, "--events: '1e3' is not a number (decimal digits only)"},
      {{"nexmark", "--query", "q0", "--events", "0x10"}, "--events: '0x10' is not a number (decimal digits only)"},
      {{"nexmark", "--query", "q0", "--events", "99999999999999999999"},
       "--events: 99999999999999999999 is not in [1, 1000000000000]"},
      {{"nexmark", "--query", "q0", "--seed", "-1"}, "--seed: -1 is not in [0, 18446744073709551615]"},
      {{"nexmark", "--query", "q0", "--seed", "18446744073709551616"},
       "--seed: 18446744073709551616 is not in [0, 18446744073709551615]"},
      {{"nexmark", "--query", "q0", "--sample", "1001"}, "--sample: 1001 is not in [0, 1000]"},
      {{"nexmark", "--query", "q0", "--parallelism", "0"}, "--parallelism"},
      {{"nexmark", "--query", "q0", "--rate", "-1"}, "--rate: -1 is not in [0, 1000000000]"},
      {{"nexmark", "--query", "q0", "--reference"}, "--reference: q0 has no hand-written reference program"},
      {{"nexmark", "--query", "q0", "--bogus"}, "--bogus"},
      {{"nexmark", "--generator-only", "--query", "q0"}, "--generator-only runs the generator alone"},
      {{"nexmark", "--generator-only", "--metrics"}, "--generator-only runs the generator alone"},
      {{"nexmark", "--query", "q1", "--reference", "--metrics"}, "--metrics reports the engine's operators"},
      {{"nexmark", "--query", "q5", "--checkpoint-dir", "/tmp/x"},
       "--checkpoint-dir keeps checkpoints: it needs --checkpoint-interval MS"},
      {{"nexmark", "--query", "q5", "--restore", "latest"},
       "--restore latest restores the newest checkpoint in --checkpoint-dir DIR: name the directory"},
      {{"nexmark", "--query", "q5", "--retained-checkpoints", "3"},
       "--retained-checkpoints counts the checkpoints kept in --checkpoint-dir DIR: name the directory"},
      {{"nexmark", "--query", "q5", "--retained-checkpoints", "0"}, "--retained-checkpoints: 0 is not in [1, 1000]"},
      {{"nexmark", "--query", "q5", "--checkpoint-interval", "-5"}, "--checkpoint-interval: -5 is not in [0, 86400000]"},
      {{"nexmark", "--all", "--output", "/tmp/x"},
       "--checkpoint-dir, --restore and --output belong to one job: name one query with --query"},
      {{"nexmark", "--query", "q1", "--reference", "--checkpoint-interval", "100"},
       "--reference runs no job: it takes no --checkpoint-interval, --checkpoint-dir, --restore or --output"},
      {{"nexmark", "--generator-only", "--output", "/tmp/x"}, "--generator-only runs the generator alone"},
      {{"frobnicate"}, "tidemark: unknown command 'frobnicate'; allowed: nexmark, examples"},
  };
  for (const Case& c : cases) {
    const ProgramResult r = tidemark(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args.back();
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.args.back();
    EXPECT_EQ(r.out, "") << c.args.back();
  }
}

TEST(TidemarkCommandTest, PrintsOneJsonLinePerRun) {
  const ProgramResult r =
      tidemark({"nexmark", "--query", "q0", "--events", "20000", "--parallelism", "2", "--seed", "7", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = lines(r.out);
  ASSERT_EQ(out.size(), 1u) << r.out;
  // 46 of every 50 events are bids, and q0 passes every bid through.
  EXPECT_THAT(out[0], AllOf(HasSubstr("{\"query\":\"q0\","), HasSubstr("\"parallelism\":2,"),
                            HasSubstr("\"events\":20000,"), HasSubstr("\"seed\":7,"), HasSubstr("\"results\":18400,"),
                            HasSubstr("\"p50_latency_us\":null,"), HasSubstr("\"p99_latency_us\":null,"),
                            HasSubstr("\"seconds\":"), HasSubstr("\"events_per_s\":"), HasSubstr("\"peak_rss_bytes\":")));
}

TEST(TidemarkCommandTest, ReportsWhatEachOperatorReceivedWithMetrics) {
  // q9 over 20,000 events: 400 people are filtered out before the combiner,
  // which folds bids of one auction and dateTime together; the winners reach
  // the sink.
  const std::vector<std::string> args = {"nexmark", "--query", "q9", "--events", "20000", "--parallelism", "2",
                                         "--metrics"};
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const ProgramResult json = tidemark(json_args);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  ASSERT_EQ(lines(json.out).size(), 1u) << json.out;
  EXPECT_THAT(json.out,
              AllOf(HasSubstr(",\"operators\":[{\"name\":\"Nexmark source\",\"parallelism\":2,\"records_in\":0,"),
                    HasSubstr("{\"name\":\"winning bids: auctions and bids\",\"parallelism\":2,\"records_in\":20000,"),
                    HasSubstr("{\"name\":\"winning bids: best bid per auction and dateTime\",\"parallelism\":2,"
                              "\"records_in\":19600,\"counters\":{\"records combined\":")));
  EXPECT_THAT(json.out, HasSubstr("}]}\n"));

  const ProgramResult summary = tidemark(args);
  ASSERT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_THAT(summary.out, AllOf(HasSubstr("  operators (records in and counters, summed over subtasks):\n"),
                                 HasSubstr("    winning bids: auctions and bids (parallelism 2): 20000 records in\n"),
                                 HasSubstr("    winning bids: best bid per auction and dateTime (parallelism 2): 19600 "
                                           "records in, records combined ")));

  const ProgramResult plain = tidemark({"nexmark", "--query", "q9", "--events", "20000", "--json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_THAT(plain.out, ::testing::Not(HasSubstr("operators")));
}

TEST(TidemarkCommandTest, MeasuresLatencyInARateLimitedRun) {
  const ProgramResult r = tidemark({"nexmark", "--query", "q0", "--events", "20000", "--rate", "200000", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("\"rate\":200000,"), HasSubstr("\"results\":18400,")));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("null")));
}

TEST(TidemarkCommandTest, RunsEveryQueryWithAll) {
  const ProgramResult r = tidemark({"nexmark", "--all", "--events", "5000", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = lines(r.out);
  ASSERT_EQ(out.size(), nexmark::allQueries().size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_THAT(out[i], HasSubstr("{\"query\":\"" + nexmark::allQueries()[i].name + "\"")) << out[i];
  }
}

TEST(TidemarkCommandTest, MeasuresTheGeneratorAlone) {
  const ProgramResult r = tidemark({"nexmark", "--generator-only", "--events", "10000", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("{\"query\":\"generator\","), HasSubstr("\"events\":10000,"),
                           HasSubstr("\"results\":9200,")));
}

TEST(TidemarkCommandTest, RunsAHandWrittenReferenceProgram) {
  const ProgramResult r = tidemark({"nexmark", "--query", "q1", "--events", "1000", "--reference", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("{\"query\":\"q1\",\"implementation\":\"reference\","),
                           HasSubstr("\"results\":920,")));
}

TEST(TidemarkCommandTest, SummarizesASingleRun) {
  const ProgramResult r = tidemark({"nexmark", "--query", "q0", "--events", "1000", "--sample", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("q0 pass-through (tidemark): 1000 events in "), HasSubstr("results: 920\n"),
                           HasSubstr("peak memory: "), HasSubstr("first 2 results:\n    #4 Bid{auction=1000")));
}

/// Every line of the committed part files under `directory` (hidden ones,
/// in progress, are not committed), sorted.
std::vector<std::string> committedLines(const std::filesystem::path& directory) {
  std::vector<std::string> all;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
    if (!entry.is_regular_file() || entry.path().filename().string().starts_with(".")) continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) all.push_back(line);
  }
  std::sort(all.begin(), all.end());
  return all;
}

bool holdsHiddenFiles(const std::filesystem::path& directory) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
    if (entry.path().filename().string().starts_with(".")) return true;
  }
  return false;
}

std::string field(const std::string& json, const std::string& name) {
  const std::string key = "\"" + name + "\":";
  const std::size_t at = json.find(key);
  if (at == std::string::npos) return "(missing)";
  const std::size_t start = at + key.size();
  return json.substr(start, json.find_first_of(",}", start) - start);
}

// The command's job, as runEngine builds it, on the same events (seed 0, the
// event rate of --event-rate 20000) paced on a simulated clock: it fails at
// 2.5 s of its 5 s and leaves its checkpoints in `checkpoints`.
void failMidwayInSimulatedTime(const std::string& query, const std::filesystem::path& checkpoints,
                               const std::filesystem::path& output) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime().enableCheckpointing(200);
  env.getCheckpointConfig().setCheckpointStorage(checkpoints.string());
  env.setRestartStrategy(RestartStrategies::noRestart());
  env.injectFailure(FailureInjection::atTime("results", 1, 2500));
  nexmark::SourceOptions source;
  source.generator.seed = 0;
  source.generator.events_per_second = 20'000;
  source.events = 100'000;
  source.rate = 20'000;
  source.pacing = nexmark::Pacing::kJobClock;
  auto recorder = std::make_shared<nexmark::ResultRecorder>(0, nullptr);
  nexmark::findQuery(query)->attach(nexmark::addNexmarkSource(env, source), {recorder, output.string()});
  LogHandler previous = setLogHandler([](LogLevel, std::string_view) {});
  EXPECT_THROW(env.execute("nexmark " + query), JobExecutionException);
  setLogHandler(std::move(previous));
}

class RestoreInANewProcessTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RestoreInANewProcessTest, GoesOnFromTheCheckpointAndCommitsExactlyTheOutputOfARunWithoutFailures) {
  const std::string& query = GetParam();
  const ScratchDirectory scratch("cli-restore");
  const std::vector<std::string> job = {"nexmark", "--query", query, "--parallelism", "2", "--events", "100000",
                                        "--event-rate", "20000", "--json"};
  std::vector<std::string> failure_free = job;
  failure_free.insert(failure_free.end(), {"--output", (scratch.path() / "reference").string()});
  const ProgramResult reference = tidemark(failure_free);
  ASSERT_EQ(reference.exit_code, 0) << reference.err;
  const std::vector<std::string> expected = committedLines(scratch.path() / "reference");
  ASSERT_EQ(std::to_string(expected.size()), field(reference.out, "results"));

  failMidwayInSimulatedTime(query, scratch.path() / "checkpoints", scratch.path() / "output");
  const std::vector<std::string> before = committedLines(scratch.path() / "output");
  ASSERT_LT(before.size(), expected.size());

  std::vector<std::string> restore = job;
  restore.insert(restore.end(), {"--output", (scratch.path() / "output").string(), "--checkpoint-interval", "50",
                                 "--checkpoint-dir", (scratch.path() / "checkpoints").string(), "--restore", "latest"});
  const ProgramResult restored = tidemark(restore);
  ASSERT_EQ(restored.exit_code, 0) << restored.err;
  EXPECT_EQ(committedLines(scratch.path() / "output"), expected);
  EXPECT_FALSE(holdsHiddenFiles(scratch.path() / "output"));
  // The count is checkpointed, so the restored run counts every result once.
  EXPECT_EQ(field(restored.out, "results"), field(reference.out, "results"));
  // chk-12 is the last checkpoint before 2.5 s (every 200 ms, the first at 200 ms).
  EXPECT_EQ(field(restored.out, "restored_from"), fmt::format("\"{}\"", (scratch.path() / "checkpoints" / "chk-12").string()));
  EXPECT_EQ(field(restored.out, "num_restarts"), "0");
  // A run that finishes removes its checkpoints.
  EXPECT_TRUE(std::filesystem::is_empty(scratch.path() / "checkpoints"));
}

INSTANTIATE_TEST_SUITE_P(Queries, RestoreInANewProcessTest, ::testing::Values("q2", "q5"),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

TEST(TidemarkCommandTest, ReportsCheckpointsInTheSummaryAndTheJsonLine) {
  const ScratchDirectory scratch("cli-checkpoints");
  const std::vector<std::string> args = {"nexmark", "--query", "q2", "--events", "50000", "--parallelism", "2",
                                         "--checkpoint-interval", "10", "--checkpoint-dir",
                                         (scratch.path() / "checkpoints").string(), "--output",
                                         (scratch.path() / "output").string()};
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const ProgramResult json = tidemark(json_args);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  // How many checkpoints complete, or fail because a subtask ended before
  // its barrier, depends on the wall clock: only the fields are asserted.
  EXPECT_THAT(json.out, AllOf(HasSubstr(",\"checkpoints_completed\":"), HasSubstr(",\"checkpoints_failed\":"),
                              HasSubstr(",\"last_checkpoint_duration_ms\":"), HasSubstr(",\"checkpoint_bytes\":"),
                              HasSubstr(",\"num_restarts\":0,\"restored_from\":null}")));
  EXPECT_EQ(std::to_string(committedLines(scratch.path() / "output").size()), field(json.out, "results"));

  const ProgramResult summary = tidemark(args);
  ASSERT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_THAT(summary.out, AllOf(HasSubstr("  checkpoints: "), HasSubstr(" completed, "), HasSubstr(" failed"),
                                 HasSubstr("; restarts: 0\n")));

  const ProgramResult plain = tidemark({"nexmark", "--query", "q2", "--events", "5000", "--json"});
  EXPECT_THAT(plain.out, ::testing::Not(HasSubstr("checkpoints")));
}

TEST(TidemarkCommandTest, NamesAPathToRestoreThatHoldsNoCheckpoint) {
  const ScratchDirectory scratch("cli-no-checkpoint");
  const std::string missing = (scratch.path() / "missing").string();
  const ProgramResult r = tidemark({"nexmark", "--query", "q2", "--events", "5000", "--restore", missing});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, fmt::format("tidemark nexmark: q2 failed: cannot restore from {0}: {0} is neither a checkpoint nor "
                               "a checkpoint directory\n",
                               missing));
}

TEST(TidemarkCommandTest, ListsTheScenarioExamplesWithRunnablePaths) {
  const ProgramResult r = tidemark({"examples"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* program : {"s1_event_time_timers", "s2_union_watermarks", "s3_late_data", "s4_cep_login_failures",
                              "s5_global_window_trigger"}) {
    EXPECT_THAT(r.out, HasSubstr(program));
    EXPECT_TRUE(std::filesystem::exists(testing_support::examplePath(program))) << program;
    EXPECT_THAT(r.out, HasSubstr(std::filesystem::path(testing_support::examplePath(program)).lexically_normal().string()));
  }
}

}  // namespace
}  // namespace tidemark
