#include "tidemark/core/log.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace tidemark {
namespace {

TEST(LogTest, AHandlerGetsEveryLineWithItsLevelUntilItIsReplaced) {
  std::vector<std::string> lines;
  LogHandler previous = setLogHandler([&](LogLevel level, std::string_view message) {
    lines.push_back(std::string(logLevelName(level)) + " " + std::string(message));
  });
  logMessage(LogLevel::WARNING, "restoring from /tmp/x: skipped chk-3");
  logMessage(LogLevel::INFO, "restored");
  const LogHandler mine = setLogHandler(std::move(previous));
  EXPECT_TRUE(static_cast<bool>(mine));
  EXPECT_EQ(lines, (std::vector<std::string>{"WARNING restoring from /tmp/x: skipped chk-3", "INFO restored"}));
}

TEST(LogTest, WithoutAHandlerLinesGoToStandardErrorNamingTidemarkAndTheLevel) {
  const LogHandler previous = setLogHandler({});
  testing::internal::CaptureStderr();
  logMessage(LogLevel::WARNING, "a checkpoint is not intact");
  const std::string written = testing::internal::GetCapturedStderr();
  setLogHandler(previous);
  EXPECT_EQ(written, "tidemark WARNING: a checkpoint is not intact\n");
}

}  // namespace
}  // namespace tidemark
