#include "winning_bids.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

#include "combine_until_watermark.h"

namespace tidemark::nexmark {

std::ostream& operator<<(std::ostream& os, const AuctionWinner& winner) {
  const Auction& a = winner.auction;
  const Bid& b = winner.bid;
  return os << "AuctionWinner{auction=" << a.id << ", seller=" << a.seller << ", category=" << a.category
            << ", expires=" << a.expires << ", price=" << b.price << ", bidder=" << b.bidder
            << ", bidTime=" << b.date_time << '}';
}

bool outbids(const Bid& challenger, const Bid& holder) {
  if (challenger.price != holder.price) return challenger.price > holder.price;
  if (challenger.date_time != holder.date_time) return challenger.date_time < holder.date_time;
  return std::tie(challenger.auction, challenger.bidder, challenger.channel, challenger.url, challenger.extra) <
         std::tie(holder.auction, holder.bidder, holder.channel, holder.url, holder.extra);
}

void WinningBidFunction::open() {
  auto& context = getRuntimeContext();
  open_ = &context.getState(ValueStateDescriptor<OpenAuction>("open auction and its best valid bid"));
  waiting_ = &context.getMapState(MapStateDescriptor<Timestamp, Bid>("bids waiting for their auction"));
}

void WinningBidFunction::processElement(const Event& event, Context& ctx, Collector<AuctionWinner>&) {
  if (const Auction* auction = event.auction()) {
    onAuction(*auction, ctx.timerService());
  } else {
    onBid(*event.bid(), ctx.timerService());
  }
}

void WinningBidFunction::onAuction(const Auction& auction, TimerService& timers) {
  std::optional<Bid> best;
  waiting_->forEachEntry([&](const Timestamp& date_time, const Bid& bid) {
    // Every pending drop timer is at the dateTime of a waiting bid (see
    // onBid), and the waiting bids are decided now.
    timers.deleteEventTimeTimer(date_time);
    if (isValidBidFor(bid, auction) && (!best || outbids(bid, *best))) best = bid;
    return true;
  });
  waiting_->clear();
  open_->update(OpenAuction{auction, best});
  timers.registerEventTimeTimer(auction.expires);
}

void WinningBidFunction::onBid(const Bid& bid, TimerService& timers) {
  if (std::optional<OpenAuction> open = open_->value()) {
    if (isValidBidFor(bid, open->auction) && (!open->best || outbids(bid, *open->best))) {
      open->best = bid;
      open_->update(*open);
    }
    return;
  }
  // The auction has not arrived (or has closed already, which the drop
  // timer settles just as well: such a bid is later than its expiry time).
  const std::optional<Bid> waiting = waiting_->get(bid.date_time);
  if (waiting && !outbids(bid, *waiting)) return;
  // One drop timer at or before the earliest waiting dateTime is enough:
  // dropWaitingUpTo() sets the next one. Bids mostly arrive in dateTime
  // order, so a key rarely needs a second timer.
  if (!waiting) {
    const std::optional<Timestamp> earliest = earliestWaiting();
    if (!earliest || bid.date_time < *earliest) timers.registerEventTimeTimer(bid.date_time);
  }
  waiting_->put(bid.date_time, bid);
}

void WinningBidFunction::onTimer(Timestamp timestamp, OnTimerContext& ctx, Collector<AuctionWinner>& out) {
  if (const std::optional<OpenAuction> open = open_->value(); open && open->auction.expires == timestamp) {
    close(*open, out);
  } else {
    dropWaitingUpTo(timestamp, ctx.timerService());
  }
}

void WinningBidFunction::dropWaitingUpTo(Timestamp timestamp, TimerService& timers) {
  // The watermark passed these bids' dateTime before their auction came:
  // any auction still to come starts later, so none of them can be valid.
  dropped_.clear();
  waiting_->forEachEntry([&](const Timestamp& date_time, const Bid&) {
    if (date_time > timestamp) return false;
    dropped_.push_back(date_time);
    return true;
  });
  for (const Timestamp date_time : dropped_) waiting_->remove(date_time);
  if (const std::optional<Timestamp> next = earliestWaiting()) timers.registerEventTimeTimer(*next);
}

std::optional<Timestamp> WinningBidFunction::earliestWaiting() const {
  std::optional<Timestamp> earliest;
  waiting_->forEachEntry([&](const Timestamp& date_time, const Bid&) {
    earliest = date_time;
    return false;
  });
  return earliest;
}

void WinningBidFunction::close(const OpenAuction& open, Collector<AuctionWinner>& out) {
  if (open.best) out.collect(AuctionWinner{open.auction, *open.best});
  open_->clear();
}

std::unique_ptr<OneInputStreamOperator<Event, Event>> bestBidPerAuctionAndTime() {
  return combineUntilWatermark<Event>(
      [](const Event& event, Timestamp) -> std::optional<std::pair<std::int64_t, Timestamp>> {
        const Bid* bid = event.bid();
        if (bid == nullptr) return std::nullopt;
        return std::pair{bid->auction, bid->date_time};
      },
      [](Event& held, const Event& next) {
        if (outbids(*next.bid(), *held.bid())) held = next;
      });
}

DataStream<AuctionWinner> winningBids(const DataStream<Event>& events) {
  return events.filter([](const Event& event) { return event.person() == nullptr; })
      .name("winning bids: auctions and bids")
      .transform<Event>("winning bids: best bid per auction and dateTime", &bestBidPerAuctionAndTime)
      .keyBy([](const Event& event) { return auctionIdOf(event); })
      .process(WinningBidFunction{})
      .name("winning bids: best valid bid per auction");
}

void CloseOrderBuffer::open(KeyedRuntimeContext<std::int64_t>& context) {
  buffered_ = &context.getListState(ListStateDescriptor<AuctionWinner>("closings in arrival order"));
}

void CloseOrderBuffer::add(const AuctionWinner& winner, TimerService& timers) {
  buffered_->add(winner);
  timers.registerEventTimeTimer(winner.auction.expires);
}

void CloseOrderBuffer::takeDue(Timestamp timestamp) {
  due_.clear();
  later_.clear();
  buffered_->forEach([&](const AuctionWinner& winner) {
    (winner.auction.expires <= timestamp ? due_ : later_).push_back(winner);
  });
  if (later_.empty()) {
    buffered_->clear();
  } else {
    buffered_->update(later_);
  }
  std::sort(due_.begin(), due_.end(), [](const AuctionWinner& a, const AuctionWinner& b) {
    return std::pair{a.auction.expires, a.auction.id} < std::pair{b.auction.expires, b.auction.id};
  });
}

}  // namespace tidemark::nexmark
