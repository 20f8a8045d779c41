#include "q11_user_sessions.h"

#include <optional>
#include <span>
#include <utility>

#include "combine_until_watermark.h"

namespace tidemark::nexmark {

namespace {

/// A bidder's bids at one instant (the record's timestamp).
struct BidderBids {
  std::int64_t bidder = 0;
  std::int64_t bids = 0;
};

/// Counts a session's bids; sessions that grow together add their counts.
class CountBids final : public AggregateFunction<BidderBids, std::int64_t, std::int64_t> {
 public:
  std::int64_t createAccumulator() override { return 0; }
  std::int64_t add(const BidderBids& counted, std::int64_t count) override { return count + counted.bids; }
  std::int64_t getResult(const std::int64_t& count) override { return count; }
  std::int64_t merge(std::int64_t a, std::int64_t b) override { return a + b; }
};

/// Adds the bidder and the session's bounds to its count.
class DescribeSession final : public ProcessWindowFunction<std::int64_t, BidderSession, std::int64_t, TimeWindow> {
 public:
  void process(const std::int64_t& bidder, Context& ctx, std::span<const std::int64_t> counts,
               Collector<BidderSession>& out) override {
    out.collect(BidderSession{bidder, counts[0], ctx.window().getStart(), ctx.window().getEnd()});
  }
};

}  // namespace

std::ostream& operator<<(std::ostream& os, const BidderSession& result) {
  return os << "BidderSession{bidder=" << result.bidder << ", bids=" << result.bids
            << ", windowStart=" << result.window_start << ", windowEnd=" << result.window_end << '}';
}

DataStream<BidderSession> q11UserSessions(const DataStream<Event>& events) {
  // Only the bidder and a count travel on; the bid's time stays the record's
  // timestamp.
  auto bidders = events
                     .flatMap<BidderBids>([](const Event& event, Collector<BidderBids>& out) {
                       if (const Bid* bid = event.bid()) out.collect(BidderBids{bid->bidder, 1});
                     })
                     .name("q11: one per bid")
                     // A bidder's bids of one instant always fall in the same
                     // session, so they are counted where they are made: at the
                     // default rate three in four of a millisecond's bids come
                     // from a hot bidder, and only one count per bidder and
                     // millisecond crosses the shuffle.
                     .transform<BidderBids>("q11: bids per bidder and instant", [] {
                       return combineUntilWatermark<BidderBids>(
                           [](const BidderBids& counted, Timestamp timestamp) {
                             return std::optional{std::pair{counted.bidder, timestamp}};
                           },
                           [](BidderBids& held, const BidderBids& next) { held.bids += next.bids; });
                     });
  return bidders.keyBy([](const BidderBids& counted) { return counted.bidder; })
      .window(EventTimeSessionWindows::withGap(kSessionGap))
      .aggregate(CountBids{}, DescribeSession{})
      .name("q11: bids per session");
}

}  // namespace tidemark::nexmark
