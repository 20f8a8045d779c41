#include "q11_user_sessions.h"

#include <span>

namespace tidemark::nexmark {

namespace {

/// Counts a session's bids; sessions that grow together add their counts.
class CountBids final : public AggregateFunction<std::int64_t, std::int64_t, std::int64_t> {
 public:
  std::int64_t createAccumulator() override { return 0; }
  std::int64_t add(const std::int64_t&, std::int64_t count) override { return count + 1; }
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
  // Only the bidder travels on; the bid's time stays the record's timestamp.
  auto bidders = events
                     .flatMap<std::int64_t>([](const Event& event, Collector<std::int64_t>& out) {
                       if (const Bid* bid = event.bid()) out.collect(bid->bidder);
                     })
                     .name("q11: bidders");
  return bidders.keyBy([](std::int64_t bidder) { return bidder; })
      .window(EventTimeSessionWindows::withGap(kSessionGap))
      .aggregate(CountBids{}, DescribeSession{})
      .name("q11: bids per session");
}

}  // namespace tidemark::nexmark
