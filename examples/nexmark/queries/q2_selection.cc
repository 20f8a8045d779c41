#include "q2_selection.h"

namespace tidemark::nexmark {

std::ostream& operator<<(std::ostream& os, const AuctionPrice& result) {
  return os << "AuctionPrice{auction=" << result.auction << ", price=" << result.price << ", number=" << result.number
            << '}';
}

DataStream<AuctionPrice> q2Selection(const DataStream<Event>& events) {
  return events
      .flatMap<AuctionPrice>([](const Event& event, Collector<AuctionPrice>& out) {
        const Bid* bid = event.bid();
        if (bid != nullptr && isSelectedAuction(bid->auction)) {
          out.collect(AuctionPrice{bid->auction, bid->price, event.number});
        }
      })
      .name("q2: bids on selected auctions");
}

}  // namespace tidemark::nexmark
