// S2 in real time: the example reads two loopback TCP servers started here.
// Timing decides which watermark each record sees, so lines are not compared
// one by one; but every record must arrive, and the watermarks printed must
// never go backwards nor pass what the inputs allow (the minimum over the two
// streams of their largest timestamp, minus 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "support/line_server.h"
#include "support/run_program.h"

namespace tidemark {
namespace {

using testing_support::examplePath;
using testing_support::LineServer;
using testing_support::runProgram;

TEST(S2RealTimeTest, EveryRecordArrivesWithPlausibleWatermarks) {
  LineServer stream1({"Alice,./home,1000", "Bob,./cart,2000", "Alice,./prod?id=1,3000", "Alice,./prod?id=3,4000"});
  LineServer stream2({"Alice,./home,1000", "Bob,./cart,2000", "Bob,./prod?id=2,3000"});
  const auto result = runProgram(examplePath("s2_union_watermarks"),
                                 {"--host", "127.0.0.1", "--port1", std::to_string(stream1.port()), "--port2",
                                  std::to_string(stream2.port())});
  ASSERT_EQ(result.exit_code, 0) << result.err;

  std::vector<std::string> records;
  std::vector<long long> watermarks;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) {
    const auto space = line.find(" record=");
    ASSERT_EQ(line.rfind("watermark=", 0), 0u) << line;
    ASSERT_NE(space, std::string::npos) << line;
    watermarks.push_back(std::stoll(line.substr(10, space - 10)));
    records.push_back(line.substr(space + 8));
  }
  std::sort(records.begin(), records.end());
  EXPECT_EQ(records, (std::vector<std::string>{"Alice,./home,1000", "Alice,./home,1000", "Alice,./prod?id=1,3000",
                                               "Alice,./prod?id=3,4000", "Bob,./cart,2000", "Bob,./cart,2000",
                                               "Bob,./prod?id=2,3000"}));
  EXPECT_TRUE(std::is_sorted(watermarks.begin(), watermarks.end()));
  for (long long w : watermarks) EXPECT_LE(w, 2999);
}

TEST(S2RealTimeTest, RefusedConnectionIsAClearError) {
  const int free_port = testing_support::unusedLoopbackPort();
  LineServer stream2({"Bob,./cart,2000"});
  const auto result = runProgram(examplePath("s2_union_watermarks"),
                                 {"--host", "127.0.0.1", "--port1", std::to_string(free_port), "--port2",
                                  std::to_string(stream2.port())});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("connection refused"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(std::to_string(free_port)), std::string::npos) << result.err;
}

}  // namespace
}  // namespace tidemark
