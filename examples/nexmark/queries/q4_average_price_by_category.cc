#include "q4_average_price_by_category.h"

#include "winning_bids.h"

namespace tidemark::nexmark {
namespace {

struct PriceTotals {
  std::int64_t sum = 0;
  std::int64_t count = 0;
};

/// Per category: the running mean over its closings, taken in close order.
class AveragePricePerCategory final : public KeyedProcessFunction<std::int64_t, AuctionWinner, CategoryPrice> {
 public:
  void open() override {
    closings_.open(getRuntimeContext());
    totals_ = &getRuntimeContext().getState(ValueStateDescriptor<PriceTotals>("winning price totals", PriceTotals{}));
  }

  void processElement(const AuctionWinner& winner, Context& ctx, Collector<CategoryPrice>&) override {
    closings_.add(winner, ctx.timerService());
  }

  void onTimer(Timestamp timestamp, OnTimerContext&, Collector<CategoryPrice>& out) override {
    PriceTotals totals = *totals_->value();
    closings_.release(timestamp, [&](const AuctionWinner& winner) {
      totals.sum += winner.bid.price;
      ++totals.count;
      out.collect(CategoryPrice{winner.auction.category, totals.sum / totals.count, winner.auction.id,
                                winner.auction.expires});
    });
    totals_->update(totals);
  }

 private:
  CloseOrderBuffer closings_;
  ValueState<PriceTotals>* totals_ = nullptr;
};

}  // namespace

std::ostream& operator<<(std::ostream& os, const CategoryPrice& price) {
  return os << "CategoryPrice{category=" << price.category << ", average=" << price.average
            << ", auction=" << price.auction << ", expires=" << price.expires << '}';
}

DataStream<CategoryPrice> q4AveragePriceByCategory(const DataStream<Event>& events) {
  return winningBids(events)
      .keyBy([](const AuctionWinner& winner) { return winner.auction.category; })
      .process(AveragePricePerCategory{})
      .name("q4: average winning price per category");
}

}  // namespace tidemark::nexmark
