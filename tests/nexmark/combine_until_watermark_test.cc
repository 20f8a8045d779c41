// CombineUntilWatermark on plain numbers: what it combines, what it passes
// through, and that everything it holds leaves before the watermark, idle
// status or end of input that follows. (What q4, q6 and q9 combine with it
// is tested in winning_bids_test.cc.)
#include "nexmark/queries/combine_until_watermark.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/testing/one_input_harness.h"

namespace tidemark::nexmark {
namespace {

using Harness = OneInputStreamOperatorTestHarness<std::int64_t, std::int64_t>;

/// Sums values with the same last digit and timestamp; negative values have
/// no key and pass through.
std::unique_ptr<OneInputStreamOperator<std::int64_t, std::int64_t>> sumByLastDigit() {
  return combineUntilWatermark<std::int64_t>(
      [](const std::int64_t& value, Timestamp timestamp) -> std::optional<std::pair<std::int64_t, Timestamp>> {
        if (value < 0) return std::nullopt;
        return std::pair{value % 10, timestamp};
      },
      [](std::int64_t& held, const std::int64_t& next) { held += next; });
}

class CombineUntilWatermarkTest : public ::testing::Test {
 protected:
  CombineUntilWatermarkTest() : harness_(sumByLastDigit()) { harness_.open(); }
  Harness harness_;
};

TEST_F(CombineUntilWatermarkTest, CombinesPerKeyUntilTheWatermarkAndPassesWhatHasNoKeyAtOnce) {
  harness_.processElement(1, 5);
  harness_.processElement(11, 5);  // key (1, 5) again
  harness_.processElement(21, 6);  // another timestamp: another key
  harness_.processElement(-7, 6);  // no key
  harness_.processElement(2, 5);
  harness_.processElement(31, 5);  // key (1, 5): 1 + 11 + 31
  EXPECT_EQ(harness_.getOutput().lines(), (std::vector<std::string>{"Record(-7 @ 6)"}));
  harness_.processWatermark(6);
  // Before the watermark, in the order the keys were first seen.
  EXPECT_EQ(harness_.getOutput().lines(), (std::vector<std::string>{"Record(-7 @ 6)", "Record(43 @ 5)",
                                                                    "Record(21 @ 6)", "Record(2 @ 5)",
                                                                    "Watermark(6)"}));
}

TEST_F(CombineUntilWatermarkTest, StartsAfreshAfterEachWatermark) {
  harness_.processElement(1, 10);
  harness_.processWatermark(9);
  harness_.processElement(11, 10);  // same key, but the first has left
  harness_.processWatermark(10);
  EXPECT_EQ(harness_.getOutput().lines(), (std::vector<std::string>{"Record(1 @ 10)", "Watermark(9)",
                                                                    "Record(11 @ 10)", "Watermark(10)"}));
}

TEST_F(CombineUntilWatermarkTest, EmitsWhatItHoldsBeforeGoingIdle) {
  harness_.processElement(1, 10);
  harness_.processWatermarkStatus(WatermarkStatus::IDLE);
  EXPECT_EQ(harness_.getOutput().lines(), (std::vector<std::string>{"Record(1 @ 10)"}));
  EXPECT_EQ(harness_.getOutput().watermarkStatuses(), (std::vector<WatermarkStatus>{WatermarkStatus::IDLE}));
}

TEST_F(CombineUntilWatermarkTest, EmitsWhatItHoldsAtTheEndOfInput) {
  harness_.processElement(1, 10);
  harness_.processElement(2, 10);
  harness_.processElement(11, 10);
  harness_.endInput();
  EXPECT_EQ(harness_.getOutput().lines(), (std::vector<std::string>{"Record(12 @ 10)", "Record(2 @ 10)"}));
}

}  // namespace
}  // namespace tidemark::nexmark
