// The combiner in front of q7's windows: which bids it lets through, and
// that everything it holds leaves before the watermark, idle status or end
// of input that follows.
#include "nexmark/queries/highest_bid_combiner.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "tidemark/testing/one_input_harness.h"

namespace tidemark::nexmark {
namespace {

using Harness = OneInputStreamOperatorTestHarness<Bid, Bid>;

constexpr Duration kWindow = 10'000;

/// What the combiner emitted, one short line per bid or watermark.
std::vector<std::string> emitted(const Harness& harness) {
  std::vector<std::string> lines;
  for (const auto& item : harness.getOutput()) {
    if (const auto* record = std::get_if<StreamRecord<Bid>>(&item)) {
      lines.push_back(fmt::format("bidder={} price={} @ {}", record->value.bidder, record->value.price,
                                  record->timestamp));
    } else {
      lines.push_back(fmt::format("watermark {}", std::get<WatermarkEvent>(item).timestamp));
    }
  }
  return lines;
}

class HighestBidCombinerTest : public ::testing::Test {
 protected:
  HighestBidCombinerTest() : harness_(std::make_unique<HighestBidCombiner>(kWindow)) { harness_.open(); }

  void add(std::int64_t bidder, std::int64_t price, Timestamp at) {
    Bid bid;
    bid.auction = 1000;
    bid.bidder = bidder;
    bid.price = price;
    bid.date_time = at;
    harness_.processElement(bid, at);
  }

  Harness harness_;
};

TEST_F(HighestBidCombinerTest, HoldsEachWindowsHighestBidsAndAllTheirTiesUntilTheWatermark) {
  add(1, 50, 100);
  add(2, 90, 200);
  add(3, 70, 300);
  add(4, 90, 400);     // tied with bidder 2: both are highest
  add(5, 20, 10'100);  // the next window: its own highest
  EXPECT_TRUE(harness_.getOutput().empty());

  harness_.processWatermark(500);
  EXPECT_EQ(emitted(harness_), (std::vector<std::string>{
                                   "bidder=2 price=90 @ 200",
                                   "bidder=4 price=90 @ 400",
                                   "bidder=5 price=20 @ 10100",
                                   "watermark 500",
                               }));
}

TEST_F(HighestBidCombinerTest, AfterAWatermarkLetsThroughOnlyBidsAtOrAboveWhatItEmitted) {
  add(1, 90, 100);
  harness_.processWatermark(100);
  add(2, 80, 200);  // below the 90 already emitted: can never be highest
  add(3, 90, 300);  // a tie with it: q7 reports ties
  harness_.processWatermark(300);
  add(4, 95, 400);  // a new highest
  harness_.processWatermark(400);
  EXPECT_EQ(emitted(harness_), (std::vector<std::string>{
                                   "bidder=1 price=90 @ 100",
                                   "watermark 100",
                                   "bidder=3 price=90 @ 300",
                                   "watermark 300",
                                   "bidder=4 price=95 @ 400",
                                   "watermark 400",
                               }));
}

TEST_F(HighestBidCombinerTest, ForgetsAWindowOnceTheWatermarkPassesItsEnd) {
  add(1, 90, 100);
  harness_.processWatermark(kWindow - 1);  // the window [0, 10000) fires downstream
  // Only a late bid could fall into it now; it starts afresh rather than
  // being compared with the window's old highest.
  add(2, 10, 200);
  harness_.endInput();
  EXPECT_EQ(emitted(harness_), (std::vector<std::string>{
                                   "bidder=1 price=90 @ 100",
                                   "watermark 9999",
                                   "bidder=2 price=10 @ 200",
                               }));
}

TEST_F(HighestBidCombinerTest, EmitsWhatItHoldsBeforeGoingIdle) {
  add(1, 90, 100);
  harness_.processWatermarkStatus(WatermarkStatus::IDLE);
  EXPECT_EQ(emitted(harness_), (std::vector<std::string>{"bidder=1 price=90 @ 100"}));
  EXPECT_EQ(harness_.getOutput().watermarkStatuses(), (std::vector<WatermarkStatus>{WatermarkStatus::IDLE}));
}

}  // namespace
}  // namespace tidemark::nexmark
