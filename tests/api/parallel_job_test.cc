// The parallelism-2 job (support/parallel_job.h) in simulated time: the exact
// results, and byte-identical results run after run.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/parallel_job.h"

namespace tidemark {
namespace {

using testing_support::buildParallelJob;
using testing_support::ParallelJobOutputs;
using testing_support::Result;

struct JobRun {
  std::vector<Result> counts;
  std::vector<Result> alerts;
  std::vector<std::string> product_views;
};

JobRun runSimulated() {
  auto env = StreamExecutionEnvironment::createLocalEnvironment(2);
  env.enableSimulatedTime();
  ParallelJobOutputs outputs = buildParallelJob(env);
  env.execute("parallel job");
  return JobRun{outputs.counts->values(), outputs.alerts->values(), outputs.product_views->values()};
}

std::vector<std::string> texts(const std::vector<Result>& results) {
  std::vector<std::string> out;
  for (const auto& r : results) out.push_back(r.text);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ParallelJobTest, ComputesTheExpectedResults) {
  const JobRun run = runSimulated();
  EXPECT_EQ(texts(run.alerts), (std::vector<std::string>{"ALERT Alice reached 4 clicks by 2800",
                                                        "ALERT Alice reached 4 clicks by 3100",
                                                        "ALERT Alice reached 4 clicks by 3500",
                                                        "ALERT Alice reached 5 clicks by 6200",
                                                        "ALERT Bob reached 5 clicks by 4300",
                                                        "ALERT Bob reached 5 clicks by 4400",
                                                        "ALERT Bob reached 5 clicks by 4900",
                                                        "ALERT Carol reached 3 clicks by 5000",
                                                        "ALERT Carol reached 3 clicks by 5500"}));
  auto views = run.product_views;
  std::sort(views.begin(), views.end());
  EXPECT_EQ(views, (std::vector<std::string>{"Alice viewed ./prod?id=2", "Bob viewed ./prod?id=1",
                                             "Bob viewed ./prod?id=3", "Carol viewed ./prod?id=1"}));
  EXPECT_EQ(run.counts.size(), 14u);
}

TEST(ParallelJobTest, IsIdenticalRunAfterRunIncludingWatermarks) {
  const JobRun first = runSimulated();
  const JobRun second = runSimulated();
  EXPECT_EQ(first.counts, second.counts);
  EXPECT_EQ(first.alerts, second.alerts);
  EXPECT_EQ(first.product_views, second.product_views);
}

}  // namespace
}  // namespace tidemark
