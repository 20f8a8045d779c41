// S4 in real time: the example reads a loopback TCP server started here.
// When periodic watermarks happen relative to the lines is up to the wall
// clock. What does not depend on it: none of the 7 scenario lines can be late
// (the watermark never exceeds the largest timestamp so far - 3001, and every
// line is above that), and the CEP operator matches each user's events in
// timestamp order once the input ends, so the output is exact. The extra
// failure at 4000 is late or not depending on whether a watermark (at most
// 4999) came before it; either way the output is one of two known texts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/line_server.h"
#include "support/run_program.h"

namespace tidemark {
namespace {

using testing_support::examplePath;
using testing_support::LineServer;
using testing_support::ProgramResult;
using testing_support::runProgram;

const std::vector<std::string> kLines{"user_1,192.168.0.1,fail,2000",  "user_1,192.168.0.2,fail,3000",
                                      "user_2,192.168.1.29,fail,4000", "user_1,171.56.23.10,fail,5000",
                                      "user_2,192.168.1.29,fail,7000", "user_2,192.168.1.29,fail,8000",
                                      "user_2,192.168.1.29,success,6000"};

const std::string kLateFailure = "user_1,192.168.0.3,fail,4000";

const std::string kUser1Alert = "alert> user_1 failed to log in 3 times in a row: 2000, 3000, 5000\n";

ProgramResult runAgainst(const std::vector<std::string>& lines) {
  LineServer server(lines);
  return runProgram(examplePath("s4_cep_login_failures"), {"--host", "127.0.0.1", "--port", std::to_string(server.port())});
}

TEST(S4RealTimeTest, User1AlertsOnceAndUser2Never) {
  const auto result = runAgainst(kLines);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, kUser1Alert);
}

TEST(S4RealTimeTest, FailureBehindTheTimestampsIsEitherLateOrMatchedInOrder) {
  std::vector<std::string> lines = kLines;
  lines.push_back(kLateFailure);
  const auto result = runAgainst(lines);
  ASSERT_EQ(result.exit_code, 0) << result.err;

  // Late: it goes to the side output at once; the alert only comes with the
  // end of input (the watermark stays below 5000 until then).
  const std::string late = "late> LoginEvent{user=user_1, ip=192.168.0.3, type=fail, timestamp=4000}\n" + kUser1Alert;
  // Not late: matched between 3000 and 5000, giving two overlapping runs.
  const std::string in_order = "alert> user_1 failed to log in 3 times in a row: 2000, 3000, 4000\n"
                               "alert> user_1 failed to log in 3 times in a row: 3000, 4000, 5000\n";
  EXPECT_TRUE(result.out == late || result.out == in_order) << result.out;
}

TEST(S4RealTimeTest, RefusedConnectionIsAClearError) {
  const int free_port = testing_support::unusedLoopbackPort();
  const auto result =
      runProgram(examplePath("s4_cep_login_failures"), {"--host", "127.0.0.1", "--port", std::to_string(free_port)});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("connection refused"), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
}

}  // namespace
}  // namespace tidemark
