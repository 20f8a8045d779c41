// The parallelism-2 job (support/parallel_job.h) on real threads gives the
// same multiset of results as in simulated time.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/parallel_job.h"

namespace tidemark {
namespace {

using testing_support::buildParallelJob;
using testing_support::Result;

std::vector<std::string> sortedTexts(const std::vector<Result>& results) {
  std::vector<std::string> out;
  for (const auto& r : results) out.push_back(r.text);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ParallelJobConcurrencyTest, RealThreadsGiveTheSameMultisetAsSimulatedTime) {
  auto simulated_env = StreamExecutionEnvironment::createLocalEnvironment(2);
  simulated_env.enableSimulatedTime();
  auto simulated = buildParallelJob(simulated_env);
  simulated_env.execute("simulated");

  auto real_env = StreamExecutionEnvironment::createLocalEnvironment(2);
  auto real = buildParallelJob(real_env);
  real_env.execute("real threads");

  EXPECT_EQ(sortedTexts(real.counts->values()), sortedTexts(simulated.counts->values()));
  EXPECT_EQ(sortedTexts(real.alerts->values()), sortedTexts(simulated.alerts->values()));
  auto real_views = real.product_views->values();
  auto simulated_views = simulated.product_views->values();
  std::sort(real_views.begin(), real_views.end());
  std::sort(simulated_views.begin(), simulated_views.end());
  EXPECT_EQ(real_views, simulated_views);
  EXPECT_FALSE(real_views.empty());
}

}  // namespace
}  // namespace tidemark
