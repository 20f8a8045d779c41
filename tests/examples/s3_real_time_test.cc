// S3 in real time: the example reads a loopback TCP server started here.
// When periodic watermarks happen relative to the lines is up to the wall
// clock, so which firings and late events appear is not fixed. What is fixed:
// each window re-fires only with growing counts, and every one of the 12
// events is accounted for exactly once: in the last count of its window or
// on the late side output.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "support/line_server.h"
#include "support/run_program.h"

namespace tidemark {
namespace {

using testing_support::examplePath;
using testing_support::LineServer;
using testing_support::runProgram;

const std::vector<std::string> kLines{"Alice,./home,1000",  "Alice,./home,2000",        "Alice,./home,10000",
                                      "Alice,./home,9000",  "Alice,./cart,12000",       "Alice,./prod?id=100,15000",
                                      "Alice,./home,9000",  "Alice,./home,8000",        "Alice,./prod?id=200,70000",
                                      "Alice,./home,8000",  "Alice,./prod?id=300,72000", "Alice,./home,8000"};

TEST(S3RealTimeTest, EveryEventIsCountedOnceOrReportedLate) {
  LineServer server(kLines);
  const auto result = runProgram(examplePath("s3_late_data"), {"--host", "127.0.0.1", "--port", std::to_string(server.port())});
  ASSERT_EQ(result.exit_code, 0) << result.err;

  const std::regex result_line(R"(result> UrlViewCount\{url=(.+), count=(\d+), windowStart=(\d+), windowEnd=(\d+)\})");
  const std::regex late_line(R"(late> Event\{user=Alice, url=(.+), timestamp=(\d+)\})");
  std::map<std::tuple<std::string, long long, long long>, long long> last_count;
  long long late = 0;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, result_line)) {
      const auto window = std::make_tuple(m[1].str(), std::stoll(m[3].str()), std::stoll(m[4].str()));
      EXPECT_EQ(std::get<2>(window) - std::get<1>(window), 10000) << line;
      const long long count = std::stoll(m[2].str());
      EXPECT_GT(count, last_count[window]) << "a re-firing must include everything fired before: " << line;
      last_count[window] = count;
    } else if (std::regex_match(line, m, late_line)) {
      ++late;
    } else {
      ADD_FAILURE() << "unexpected line: " << line;
    }
  }
  long long counted = 0;
  for (const auto& [window, count] : last_count) counted += count;
  EXPECT_EQ(counted + late, 12) << result.out;
  EXPECT_EQ(last_count.count({"./prod?id=300", 70000, 80000}), 1u) << result.out;
}

TEST(S3RealTimeTest, RefusedConnectionIsAClearError) {
  const int free_port = testing_support::unusedLoopbackPort();
  const auto result = runProgram(examplePath("s3_late_data"), {"--host", "127.0.0.1", "--port", std::to_string(free_port)});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("connection refused"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace tidemark
