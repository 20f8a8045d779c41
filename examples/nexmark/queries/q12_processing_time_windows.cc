#include "q12_processing_time_windows.h"

#include <algorithm>
#include <span>

namespace tidemark::nexmark {

namespace {

/// What travels from the bids to the windows.
struct BidderBid {
  std::int64_t bidder = 0;
  std::int64_t number = 0;
};

struct BidCount {
  std::int64_t bids = 0;
  std::int64_t last_number = 0;
};

/// Counts a window's bids and remembers the last one created (the highest
/// number, whatever order the parallel sources' bids arrive in).
class CountBids final : public AggregateFunction<BidderBid, BidCount, BidCount> {
 public:
  BidCount createAccumulator() override { return {}; }
  BidCount add(const BidderBid& bid, BidCount count) override {
    return {count.bids + 1, std::max(count.last_number, bid.number)};
  }
  BidCount getResult(const BidCount& count) override { return count; }
  BidCount merge(BidCount a, BidCount b) override {
    return {a.bids + b.bids, std::max(a.last_number, b.last_number)};
  }
};

/// Adds the bidder and the window's bounds to its count.
class DescribeWindow final : public ProcessWindowFunction<BidCount, BidderCount, std::int64_t, TimeWindow> {
 public:
  void process(const std::int64_t& bidder, Context& ctx, std::span<const BidCount> counts,
               Collector<BidderCount>& out) override {
    out.collect(BidderCount{bidder, counts[0].bids, ctx.window().getStart(), ctx.window().getEnd(),
                            counts[0].last_number});
  }
};

}  // namespace

std::ostream& operator<<(std::ostream& os, const BidderCount& result) {
  return os << "BidderCount{bidder=" << result.bidder << ", bids=" << result.bids
            << ", windowStart=" << result.window_start << ", windowEnd=" << result.window_end
            << ", lastNumber=" << result.last_number << '}';
}

DataStream<BidderCount> q12ProcessingTimeWindows(const DataStream<Event>& events) {
  auto bids = events
                  .flatMap<BidderBid>([](const Event& event, Collector<BidderBid>& out) {
                    if (const Bid* bid = event.bid()) out.collect(BidderBid{bid->bidder, event.number});
                  })
                  .name("q12: bidders");
  return bids.keyBy([](const BidderBid& bid) { return bid.bidder; })
      .window(TumblingProcessingTimeWindows::of(kProcessingTimeWindow))
      .aggregate(CountBids{}, DescribeWindow{})
      .name("q12: bids per processing-time window");
}

}  // namespace tidemark::nexmark
