// Malformed input in S2's parser: without a dead-letter output the job fails
// naming the parse operator and the line; with one, the job keeps running and
// the line is printed with its reason.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <unistd.h>

#include "support/run_program.h"

namespace tidemark {
namespace {

using testing_support::examplePath;
using testing_support::runProgram;

class S2BadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One file per test and process: ctest runs tests in parallel processes.
    script_ = ::testing::TempDir() + "s2-bad-input-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" + std::to_string(::getpid()) +
              ".txt";
    std::ofstream out(script_);
    out << "1000,Alice,./home,1000\n"
           "2000,this line is not an event\n"
           "3000,Bob,./cart,not-a-number\n"
           "4000,Alice,./prod?id=1,3000\n";
  }
  void TearDown() override { std::remove(script_.c_str()); }
  std::string script_;
};

TEST_F(S2BadInputTest, MalformedLineFailsTheJobNamingOperatorAndLine) {
  const auto result = runProgram(examplePath("s2_union_watermarks"), {"--simulated", "--script1", script_});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("operator 'parse' (subtask 1/1)"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("this line is not an event"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("expected 3 comma-separated fields"), std::string::npos) << result.err;
  // What was processed before the bad line was printed; nothing after it.
  EXPECT_EQ(result.out, "watermark=-9223372036854775808 record=Alice,./home,1000\n");
}

TEST_F(S2BadInputTest, DeadLetterOutputKeepsTheJobRunning) {
  const auto result =
      runProgram(examplePath("s2_union_watermarks"), {"--simulated", "--script1", script_, "--dead-letter"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "watermark=-9223372036854775808 record=Alice,./home,1000\n"
            "dead-letter> line=\"this line is not an event\" reason=expected 3 comma-separated fields "
            "(user,url,timestamp)\n"
            "watermark=-9223372036854775808 record=Alice,./home,1000\n"
            "dead-letter> line=\"Bob,./cart,not-a-number\" reason=timestamp 'not-a-number' is not an integer\n"
            "watermark=999 record=Bob,./cart,2000\n"
            "watermark=999 record=Alice,./prod?id=1,3000\n"
            "watermark=1999 record=Bob,./prod?id=2,3000\n");
}

TEST(S2Arguments, MissingScriptFileIsReported) {
  const auto result = runProgram(examplePath("s2_union_watermarks"), {"--simulated", "--script1", "/nonexistent"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("cannot read script '/nonexistent': No such file or directory"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace tidemark
