#include "q7_highest_bid.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "highest_bid_combiner.h"

namespace tidemark::nexmark {
namespace {

/// Bids are spread over this many buckets, each aggregated on its own, so
/// that the first phase runs in parallel.
constexpr std::int64_t kBuckets = 64;

/// The highest price seen and every bid at that price (none yet: no bids).
struct HighestBids {
  std::int64_t price = 0;
  std::vector<Bid> bids;
  auto fields() { return std::tie(price, bids); }
};

/// Keeps the highest bids of a bucket or of a whole window. The accumulator
/// is moved in and out and its vector only cleared, so a bid costs a
/// comparison and, when it is a new highest, no allocation once the vector
/// has some capacity.
class KeepHighestBids final : public AggregateFunction<Bid, HighestBids, HighestBids> {
 public:
  HighestBids createAccumulator() override { return {}; }

  HighestBids add(const Bid& bid, HighestBids highest) override {
    if (highest.bids.empty() || bid.price > highest.price) {
      highest.price = bid.price;
      highest.bids.clear();
      highest.bids.push_back(bid);
    } else if (bid.price == highest.price) {
      highest.bids.push_back(bid);
    }
    return highest;
  }

  HighestBids getResult(const HighestBids& highest) override { return highest; }

  HighestBids merge(HighestBids a, HighestBids b) override { return combineHighest(std::move(a), b); }

  static HighestBids combineHighest(HighestBids a, const HighestBids& b) {
    if (b.bids.empty()) return a;
    if (a.bids.empty() || b.price > a.price) return b;
    if (b.price == a.price) a.bids.insert(a.bids.end(), b.bids.begin(), b.bids.end());
    return a;
  }
};

/// The second phase's aggregation: the buckets' highest bids of one window.
class CombineBuckets final : public AggregateFunction<HighestBids, HighestBids, HighestBids> {
 public:
  HighestBids createAccumulator() override { return {}; }
  HighestBids add(const HighestBids& bucket, HighestBids highest) override {
    return KeepHighestBids::combineHighest(std::move(highest), bucket);
  }
  HighestBids getResult(const HighestBids& highest) override { return highest; }
  HighestBids merge(HighestBids a, HighestBids b) override { return KeepHighestBids::combineHighest(std::move(a), b); }
};

/// One result per highest bid, in an order that does not depend on which
/// bucket or subtask a bid went through.
class EmitHighestBids final : public ProcessAllWindowFunction<HighestBids, HighestBid, TimeWindow> {
 public:
  void process(Context& ctx, std::span<const HighestBids> combined, Collector<HighestBid>& out) override {
    for (const HighestBids& highest : combined) {
      ties_.assign(highest.bids.begin(), highest.bids.end());
      std::sort(ties_.begin(), ties_.end(), highestBidEmittedBefore);
      for (const Bid& bid : ties_) out.collect(HighestBid{bid, ctx.window().getEnd()});
    }
  }

 private:
  std::vector<Bid> ties_;
};

}  // namespace

std::ostream& operator<<(std::ostream& os, const HighestBid& highest) {
  const Bid& bid = highest.bid;
  return os << "HighestBid{auction=" << bid.auction << ", bidder=" << bid.bidder << ", price=" << bid.price
            << ", channel=" << bid.channel << ", dateTime=" << bid.date_time << ", windowEnd=" << highest.window_end
            << '}';
}

DataStream<HighestBid> q7HighestBid(const DataStream<Event>& events) {
  const auto window = TumblingEventTimeWindows::of(kHighestBidWindowSize);
  return events
      .flatMap<Bid>([](const Event& event, Collector<Bid>& out) {
        if (const Bid* bid = event.bid()) out.collect(*bid);
      })
      .name("q7: bids")
      // Only bids that can still be their window's highest cross the shuffle.
      .transform<Bid>("q7: highest bids since the last watermark",
                      [] { return std::make_unique<HighestBidCombiner>(kHighestBidWindowSize); })
      // By price: buckets get about the same share of the bids (an auction
      // or bidder key would not: half of the bids go to one hot auction),
      // and bids tied at a price meet in one bucket.
      .keyBy([](const Bid& bid) { return bid.price % kBuckets; })
      .window(window)
      .aggregate(KeepHighestBids{})
      .name("q7: highest bids per bucket")
      .windowAll(window)
      .aggregate(CombineBuckets{}, EmitHighestBids{})
      .name("q7: highest bids");
}

}  // namespace tidemark::nexmark
