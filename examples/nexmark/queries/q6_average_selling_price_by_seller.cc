#include "q6_average_selling_price_by_seller.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>

#include "winning_bids.h"

namespace tidemark::nexmark {
namespace {

constexpr std::size_t kRecentAuctions = 10;

/// A seller's last kRecentAuctions winning prices, as a ring (fixed size,
/// so keeping it in a ValueState never allocates per closing).
struct RecentPrices {
  std::array<std::int64_t, kRecentAuctions> prices{};
  std::size_t closed = 0;  // closings so far; the next one goes to closed % size

  void add(std::int64_t price) { prices[closed++ % prices.size()] = price; }
  std::int64_t average() const {
    const std::size_t held = std::min(closed, prices.size());
    const std::int64_t sum = std::accumulate(prices.begin(), prices.begin() + static_cast<std::ptrdiff_t>(held),
                                             std::int64_t{0});
    return sum / static_cast<std::int64_t>(held);
  }
};

/// Per seller: the mean over its recent closings, taken in close order.
class AveragePricePerSeller final : public KeyedProcessFunction<std::int64_t, AuctionWinner, SellerPrice> {
 public:
  void open() override {
    closings_.open(getRuntimeContext());
    recent_ = &getRuntimeContext().getState(ValueStateDescriptor<RecentPrices>("recent winning prices", RecentPrices{}));
  }

  void processElement(const AuctionWinner& winner, Context& ctx, Collector<SellerPrice>&) override {
    closings_.add(winner, ctx.timerService());
  }

  void onTimer(Timestamp timestamp, OnTimerContext&, Collector<SellerPrice>& out) override {
    RecentPrices recent = *recent_->value();
    closings_.release(timestamp, [&](const AuctionWinner& winner) {
      recent.add(winner.bid.price);
      out.collect(SellerPrice{winner.auction.seller, recent.average(), winner.auction.id, winner.auction.expires});
    });
    recent_->update(recent);
  }

 private:
  CloseOrderBuffer closings_;
  ValueState<RecentPrices>* recent_ = nullptr;
};

}  // namespace

std::ostream& operator<<(std::ostream& os, const SellerPrice& price) {
  return os << "SellerPrice{seller=" << price.seller << ", average=" << price.average << ", auction=" << price.auction
            << ", expires=" << price.expires << '}';
}

DataStream<SellerPrice> q6AverageSellingPriceBySeller(const DataStream<Event>& events) {
  return winningBids(events)
      .keyBy([](const AuctionWinner& winner) { return winner.auction.seller; })
      .process(AveragePricePerSeller{})
      .name("q6: average winning price of each seller's last 10 auctions");
}

}  // namespace tidemark::nexmark
