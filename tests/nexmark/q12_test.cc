#include "nexmark/queries/q12_processing_time_windows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "nexmark_test_support.h"

namespace tidemark::nexmark {
namespace {

using testing::generateEvents;
using testing::runQuery;
using testing::smallConfig;
using testing::sorted;

/// 40 s of processing time: three windows released, a fourth still open at
/// the end. (Each paced event is an instant of its own in simulated time,
/// which costs more than the events themselves.)
constexpr std::int64_t kEvents = 20'000;
/// Events per second of processing time: one every 2 ms, so none is
/// processed in a window's last millisecond (odd), where it would race the
/// window's firing, and processing time runs at half the speed of event time.
constexpr std::int64_t kRate = 500;

bool byWindowAndBidder(const BidderCount& a, const BidderCount& b) {
  return std::tie(a.window_start, a.bidder) < std::tie(b.window_start, b.bidder);
}

Timestamp processingTime(std::int64_t number) { return number * 1000 / kRate; }

struct Expected {
  std::vector<BidderCount> results;  // by window, then bidder
  std::int64_t bids = 0;
  std::int64_t bids_in_dropped_windows = 0;
  std::int64_t bids_in_last_millisecond = 0;  // processed when their window fires
};

/// Bid n counts for its bidder in the window of processing time
/// n * 1000 / kRate. A window is released when the clock reaches its last
/// millisecond, which happens only if the input has not ended by then.
Expected bruteForce(const std::vector<Event>& events) {
  const Timestamp end_of_input = processingTime(static_cast<std::int64_t>(events.size()) - 1);
  std::map<std::pair<Timestamp, std::int64_t>, BidderCount> windows;  // (start, bidder)
  Expected expected;
  for (const Event& event : events) {
    const Bid* bid = event.bid();
    if (bid == nullptr) continue;
    ++expected.bids;
    const Timestamp t = processingTime(event.number);
    const Timestamp start = t / 10'000 * 10'000;
    if (t == start + 10'000 - 1) ++expected.bids_in_last_millisecond;
    if (start + 10'000 - 1 >= end_of_input) {
      ++expected.bids_in_dropped_windows;
      continue;
    }
    BidderCount& window = windows[{start, bid->bidder}];
    window = BidderCount{bid->bidder, window.bids + 1, start, start + 10'000, event.number};
  }
  for (const auto& [key, window] : windows) expected.results.push_back(window);
  return expected;
}

TEST(Q12ProcessingTimeWindowsTest, CountsEachBiddersBidsPerTenSecondsOfProcessingTimeAtParallelismOneAndTwo) {
  const Expected expected = bruteForce(generateEvents(smallConfig(), kEvents));
  ASSERT_EQ(expected.bids_in_last_millisecond, 0);
  // Three windows released, the fourth still open when the input ends.
  std::map<Timestamp, int> bidders_per_window;
  for (const BidderCount& result : expected.results) ++bidders_per_window[result.window_start];
  ASSERT_EQ(bidders_per_window.size(), 3u);
  ASSERT_GT(expected.bids_in_dropped_windows, 1000);
  ASSERT_GE(expected.results.size(), 500u);

  EXPECT_EQ(sorted(runQuery(&q12ProcessingTimeWindows, smallConfig(), kEvents, 1, kRate), byWindowAndBidder),
            expected.results);
  EXPECT_EQ(sorted(runQuery(&q12ProcessingTimeWindows, smallConfig(), kEvents, 2, kRate), byWindowAndBidder),
            expected.results);
}

TEST(Q12ProcessingTimeWindowsTest, PrintsOneReadableLineAndMeasuresLatencyFromTheLastBidCounted) {
  std::ostringstream line;
  line << BidderCount{1001, 12, 0, 10'000, 4998};
  EXPECT_EQ(line.str(), "BidderCount{bidder=1001, bids=12, windowStart=0, windowEnd=10000, lastNumber=4998}");
  const LatencyOrigin origin = latencyOrigin(BidderCount{1001, 12, 0, 10'000, 4998});
  EXPECT_EQ(origin.kind, LatencyOrigin::Kind::kEvent);
  EXPECT_EQ(origin.value, 4998);
}

}  // namespace
}  // namespace tidemark::nexmark
