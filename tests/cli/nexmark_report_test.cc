// The three ways the `tidemark nexmark` command prints a run, checked on a
// report made by hand.
#include "nexmark_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tidemark::cli {
namespace {

using ::testing::HasSubstr;

RunReport reportWithOperators() {
  RunReport report{"q9", "winning bids", "tidemark", 2, 1000, 0, 0.5};
  report.results = 7;
  report.operators = {
      OperatorMetrics{"source", 2, 0, {}},
      OperatorMetrics{"say \"hi\" \\ to\tall", 1, 980, {{"records combined", 12}, {"numLateRecordsDropped", 0}}},
  };
  return report;
}

TEST(NexmarkReportTest, JsonLineListsTheOperatorsWithTheirNamesEscaped) {
  EXPECT_THAT(formatJson(reportWithOperators()),
              HasSubstr(",\"peak_rss_bytes\":0,\"operators\":["
                        "{\"name\":\"source\",\"parallelism\":2,\"records_in\":0,\"counters\":{}},"
                        "{\"name\":\"say \\\"hi\\\" \\\\ to\\u0009all\",\"parallelism\":1,\"records_in\":980,"
                        "\"counters\":{\"records combined\":12,\"numLateRecordsDropped\":0}}]}"));
}

TEST(NexmarkReportTest, WithoutOperatorsTheJsonLineEndsAfterPeakMemory) {
  RunReport report = reportWithOperators();
  report.operators.clear();
  const std::string json = formatJson(report);
  EXPECT_THAT(json, HasSubstr(",\"peak_rss_bytes\":0}"));
  EXPECT_THAT(json, ::testing::Not(HasSubstr("operators")));
}

TEST(NexmarkReportTest, SummaryAndTableRowListOneOperatorPerLine) {
  const RunReport report = reportWithOperators();
  const std::string lines =
      "    source (parallelism 2): 0 records in\n"
      "    say \"hi\" \\ to\tall (parallelism 1): 980 records in, records combined 12, numLateRecordsDropped 0\n";
  const std::string heading = "  operators (records in and counters, summed over subtasks):\n";
  EXPECT_THAT(formatSummary(report), HasSubstr(heading + lines));
  EXPECT_THAT(formatTableRow(report), ::testing::EndsWith(lines));
}

}  // namespace
}  // namespace tidemark::cli
