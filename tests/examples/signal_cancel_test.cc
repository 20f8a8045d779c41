// A real-time job stopped by SIGINT or SIGTERM: what it printed so far reaches
// a pipe (print flushes each line), and the job cancels cleanly: sources
// stop, operators and sinks close, and the program says so and exits 128 + N.
// The test reads the program's stdout while it runs; it sends the signal only
// after the result line arrived, so nothing here waits on the clock.
#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "support/line_server.h"
#include "support/run_program.h"

namespace tidemark {
namespace {

using testing_support::examplePath;
using testing_support::LineServer;
using testing_support::RunningProgram;

/// S3 on a server that sends two events and then stays open, silent: the
/// first one's window fires once the second moves the watermark past it.
void expectCleanCancel(int signal_number, const std::string& signal_name) {
  LineServer server({"Alice,./home,1000", "Alice,./home,15000"}, LineServer::AfterSending::HOLD);
  RunningProgram s3(examplePath("s3_late_data"), {"--host", "127.0.0.1", "--port", std::to_string(server.port())});
  EXPECT_EQ(s3.readLine(), "result> UrlViewCount{url=./home, count=1, windowStart=0, windowEnd=10000}");
  s3.signal(signal_number);
  const auto result = s3.wait();
  EXPECT_EQ(result.exit_code, 128 + signal_number);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "job 'S3 late data' was cancelled by " + signal_name +
                            ": its sources stopped, and its operators and sinks were closed\n");
}

TEST(SignalCancelTest, SigintCancelsAfterEveryPrintedLineReachedThePipe) { expectCleanCancel(SIGINT, "SIGINT"); }

TEST(SignalCancelTest, SigtermCancelsAfterEveryPrintedLineReachedThePipe) { expectCleanCancel(SIGTERM, "SIGTERM"); }

}  // namespace
}  // namespace tidemark
