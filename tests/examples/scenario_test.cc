// The seed scenarios: each example program, run in simulated time, prints
// exactly the lines the scenario specifies (tests/data/scenarios/*.out).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/run_program.h"
#include "support/scratch_directory.h"

namespace tidemark {
namespace {

using testing_support::examplePath;
using testing_support::readFile;
using testing_support::runProgram;
using testing_support::testDataPath;

struct Scenario {
  std::string name;
  std::string program;
  std::vector<std::string> args;
};

class ScenarioTest : public ::testing::TestWithParam<Scenario> {};

TEST_P(ScenarioTest, PrintsExactlyTheExpectedLines) {
  const Scenario& s = GetParam();
  const auto result = runProgram(examplePath(s.program), s.args);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, readFile(testDataPath("scenarios/" + s.name + ".out")));
}

TEST_P(ScenarioTest, IsByteIdenticalRunAfterRun) {
  const Scenario& s = GetParam();
  const auto first = runProgram(examplePath(s.program), s.args);
  const auto second = runProgram(examplePath(s.program), s.args);
  EXPECT_EQ(first.out, second.out);
}

INSTANTIATE_TEST_SUITE_P(
    Seed, ScenarioTest,
    ::testing::Values(Scenario{"s1a", "s1_event_time_timers", {"--simulated", "--variant", "a"}},
                      Scenario{"s1b", "s1_event_time_timers", {"--simulated", "--variant", "b"}},
                      Scenario{"s2", "s2_union_watermarks", {"--simulated"}},
                      Scenario{"s2b", "s2_union_watermarks", {"--simulated", "--variant", "b"}},
                      Scenario{"s3", "s3_late_data", {"--simulated"}},
                      Scenario{"s4a", "s4_cep_login_failures", {"--simulated", "--variant", "a"}},
                      Scenario{"s4b", "s4_cep_login_failures", {"--simulated", "--variant", "b"}},
                      Scenario{"s5", "s5_global_window_trigger", {"--simulated"}}),
    [](const ::testing::TestParamInfo<Scenario>& param_info) { return param_info.param.name; });

TEST(ScenarioArguments, BadVariantIsRejectedWithTheAllowedValues) {
  const auto result = runProgram(examplePath("s1_event_time_timers"), {"--simulated", "--variant", "c"});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.err.find("--variant"), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST(ScenarioArguments, S5FindsItsOrdersFromTheRepositoryRoot) {
  // The test runs in the build tree; the program looks for
  // tests/data/s5-orders.csv from the working directory and from its own
  // location upwards, which finds the repository's copy either way.
  const auto result = runProgram(examplePath("s5_global_window_trigger"), {"--simulated"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, readFile(testDataPath("scenarios/s5.out")));
}

TEST(ScenarioArguments, S5MissingOrdersFileIsAClearError) {
  const auto result = runProgram(examplePath("s5_global_window_trigger"), {"--simulated", "--orders", "/nonexistent.csv"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("cannot read orders file '/nonexistent.csv': No such file or directory"), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST(ScenarioArguments, ADirectoryIsNotAnInputFile) {
  const std::string dir = testDataPath("scenarios");
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs{
      {"s3_late_data", {"--script", dir}},
      {"s4_cep_login_failures", {"--script", dir}},
      {"s2_union_watermarks", {"--simulated", "--script2", dir}},
  };
  for (const auto& [program, args] : runs) {
    const auto result = runProgram(examplePath(program), args);
    EXPECT_EQ(result.exit_code, 1) << program;
    EXPECT_EQ(result.err, "cannot read script '" + dir + "': it is a directory\n") << program;
    EXPECT_EQ(result.out, "") << program;
  }
  const auto s5 = runProgram(examplePath("s5_global_window_trigger"), {"--simulated", "--orders", dir});
  EXPECT_EQ(s5.exit_code, 1);
  EXPECT_EQ(s5.err, "cannot read orders file '" + dir + "': it is a directory\n");
}

TEST(ScenarioArguments, UsageErrorsExitWith2AndSayWhatIsWrong) {
  struct Case {
    std::string program;
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases{
      {"s3_late_data", {"--simulated", "--port", "7777"}, "--simulated excludes --port"},
      {"s4_cep_login_failures", {"--simulated", "--host", "example.org"}, "--simulated excludes --host"},
      {"s2_union_watermarks", {"--simulated", "--port2", "8888"}, "--simulated excludes --port2"},
      {"s3_late_data", {"--port", "abc"}, "--port: 'abc' is not a number (decimal digits only)"},
      {"s3_late_data", {"--port", "0x10"}, "--port: '0x10' is not a number (decimal digits only)"},
      {"s3_late_data", {"--port", "70000"}, "--port: 70000 is not in [1, 65535]"},
      {"s1_event_time_timers", {"--variant", "c"}, "--variant: c not in {a,b}"},
      {"s1_event_time_timers", {"--no-such-flag"}, "The following argument was not expected: --no-such-flag"},
  };
  for (const auto& c : cases) {
    const auto result = runProgram(examplePath(c.program), c.args);
    EXPECT_EQ(result.exit_code, 2) << c.program << " " << c.args.back() << ": " << result.err;
    EXPECT_NE(result.err.find(c.message), std::string::npos) << c.program << ": " << result.err;
  }
}

TEST(ScenarioArguments, HelpExitsWith0) {
  const auto result = runProgram(examplePath("s3_late_data"), {"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("--simulated"), std::string::npos) << result.out;
}

TEST(ScenarioArguments, S3MalformedLineNamesTheParseOperatorAndTheLine) {
  const testing_support::ScratchDirectory scratch("scenario-arguments");
  const std::string script = scratch.writeFile("s3-bad-script.txt", "1000,Alice,./home,1000\n2000,Alice,./home,x\n");
  const auto result = runProgram(examplePath("s3_late_data"), {"--simulated", "--script", script});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("'parse'"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("Alice,./home,x"), std::string::npos) << result.err;
}

TEST(ScenarioArguments, S4VariantDefaultsToA) {
  const auto result = runProgram(examplePath("s4_cep_login_failures"), {"--simulated"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, readFile(testDataPath("scenarios/s4a.out")));
}

TEST(ScenarioArguments, S4BadVariantIsRejectedWithTheAllowedValues) {
  const auto result = runProgram(examplePath("s4_cep_login_failures"), {"--simulated", "--variant", "c"});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.err.find("--variant"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("{a,b}"), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST(ScenarioArguments, S4LineWithoutTimestampNamesTheParseOperatorAndTheLine) {
  const testing_support::ScratchDirectory scratch("scenario-arguments");
  const std::string script = scratch.writeFile("s4-short-line.txt",
                                               "1000,user_1,192.168.0.1,fail,2000\n"
                                               "2000,user_1,192.168.0.2,fail\n");
  const auto result = runProgram(examplePath("s4_cep_login_failures"), {"--simulated", "--script", script});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("'parse'"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("user_1,192.168.0.2,fail"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("expected 4 comma-separated fields"), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST(ScenarioArguments, S4BadTimestampNamesTheParseOperatorAndTheLine) {
  const testing_support::ScratchDirectory scratch("scenario-arguments");
  const std::string script = scratch.writeFile("s4-bad-timestamp.txt",
                                               "1000,user_1,192.168.0.1,fail,2000\n"
                                               "2000,user_1,192.168.0.2,fail,3s\n");
  const auto result = runProgram(examplePath("s4_cep_login_failures"), {"--simulated", "--script", script});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("'parse'"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("user_1,192.168.0.2,fail,3s"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("timestamp '3s' is not an integer"), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST(ScenarioArguments, S4LateFailureArrivingBeforeTheWatermarkIsMatched) {
  // Variant b's late failure (4000), sent in the same instant as the 8000
  // line: no watermark has passed 4000 yet, so it is matched in timestamp
  // order and makes two overlapping runs of three failures.
  const testing_support::ScratchDirectory scratch("scenario-arguments");
  const std::string script = scratch.writeFile(
      "s4-not-late.txt",
      "1000,user_1,192.168.0.1,fail,2000\n2000,user_1,192.168.0.2,fail,3000\n3000,user_2,192.168.1.29,fail,4000\n"
      "4000,user_1,171.56.23.10,fail,5000\n5000,user_2,192.168.1.29,fail,7000\n6000,user_2,192.168.1.29,fail,8000\n"
      "6000,user_1,192.168.0.3,fail,4000\n7000,user_2,192.168.1.29,success,6000\n");
  const auto result = runProgram(examplePath("s4_cep_login_failures"), {"--simulated", "--script", script});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "alert> user_1 failed to log in 3 times in a row: 2000, 3000, 4000\n"
            "alert> user_1 failed to log in 3 times in a row: 3000, 4000, 5000\n");
}

}  // namespace
}  // namespace tidemark
