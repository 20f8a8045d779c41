// print(): Flink's line format — "prefix:k> value" with the 1-based subtask
// number only when the sink is parallel.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

std::vector<std::string> printedLines(int parallelism, const std::string& prefix) {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(parallelism);
  env.enableSimulatedTime();
  env.fromElements<int>({1, 2, 3, 4}).rebalance().map([](int x) { return x * 10; }).print(prefix);
  ::testing::internal::CaptureStdout();
  env.execute("print");
  std::istringstream out(::testing::internal::GetCapturedStdout());
  std::vector<std::string> lines;
  for (std::string line; std::getline(out, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(PrintSinkTest, NoPrefixAtParallelismOne) {
  EXPECT_EQ(printedLines(1, ""), (std::vector<std::string>{"10", "20", "30", "40"}));
}

TEST(PrintSinkTest, PrefixAtParallelismOne) {
  EXPECT_EQ(printedLines(1, "out"), (std::vector<std::string>{"out> 10", "out> 20", "out> 30", "out> 40"}));
}

TEST(PrintSinkTest, SubtaskNumberAtParallelismTwo) {
  // Rebalance from the single source sends 1 and 3 to subtask 1, 2 and 4 to subtask 2.
  EXPECT_EQ(printedLines(2, ""), (std::vector<std::string>{"1> 10", "1> 30", "2> 20", "2> 40"}));
}

TEST(PrintSinkTest, PrefixAndSubtaskNumberAtParallelismTwo) {
  EXPECT_EQ(printedLines(2, "out"), (std::vector<std::string>{"out:1> 10", "out:1> 30", "out:2> 20", "out:2> 40"}));
}

}  // namespace
}  // namespace tidemark
