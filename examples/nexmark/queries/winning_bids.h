// The winning bid of every auction, shared by q4, q6 and q9.
//
// A bid is valid for its auction when auction.dateTime <= bid.dateTime <=
// auction.expires (both ends included); the winner is the best valid bid by
// outbids(). An auction's result is released when the watermark reaches its
// expiry time, so it is final: no valid bid can arrive after that, because
// a valid bid is never later than `expires` and the source emits no late
// events. An auction without a valid bid has no winner and gives nothing.
//
// Bids may arrive before their auction (a bid can name an auction a few ids
// ahead, and event times run out of order). They wait, keyed by auction,
// until the auction arrives or the watermark reaches their dateTime: from
// then on any auction still to arrive has a later dateTime, so the bid can
// no longer be valid for it and is dropped.
//
// q4 and q6 continue per category or per seller, and each result there
// depends on the closings before it. CloseOrderBuffer hands those stages
// their closings in a fixed order whatever the parallelism, see below.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <utility>
#include <vector>

#include "nexmark/model.h"
#include "nexmark/query.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

/// An auction that has closed with the bid that won it.
struct AuctionWinner {
  Auction auction;
  Bid bid;

  friend bool operator==(const AuctionWinner&, const AuctionWinner&) = default;
};

std::ostream& operator<<(std::ostream& os, const AuctionWinner& winner);

/// Released by the timer at the auction's expiry time.
inline LatencyOrigin latencyOrigin(const AuctionWinner& winner) {
  return LatencyOrigin::watermark(winner.auction.expires);
}

/// Whether `bid` lies within the auction's lifetime [dateTime, expires].
inline bool isValidBidFor(const Bid& bid, const Auction& auction) {
  return auction.date_time <= bid.date_time && bid.date_time <= auction.expires;
}

/// Whether `challenger` beats `holder`: the higher price, then the earlier
/// bid, then the remaining fields, so that any two different bids are ordered
/// and the winner never depends on arrival order.
bool outbids(const Bid& challenger, const Bid& holder);

/// The key both auctions and bids are partitioned by (only those two kinds).
inline std::int64_t auctionIdOf(const Event& event) {
  const Bid* bid = event.bid();
  return bid != nullptr ? bid->auction : event.auction()->id;
}

/// Per auction id: keeps the auction and the best valid bid so far, and
/// emits the winner at `expires`. Input: auction and bid events only, keyed
/// by auctionIdOf.
class WinningBidFunction final : public KeyedProcessFunction<std::int64_t, Event, AuctionWinner> {
 public:
  void open() override;
  void processElement(const Event& event, Context& ctx, Collector<AuctionWinner>& out) override;
  void onTimer(Timestamp timestamp, OnTimerContext& ctx, Collector<AuctionWinner>& out) override;

 private:
  void onAuction(const Auction& auction, TimerService& timers);
  void onBid(const Bid& bid, TimerService& timers);
  /// An auction that has arrived and not closed, with its best valid bid
  /// so far: one state entry, so a bid reads one entry, not two.
  struct OpenAuction {
    Auction auction;
    std::optional<Bid> best;
  };

  void close(const OpenAuction& open, Collector<AuctionWinner>& out);
  void dropWaitingUpTo(Timestamp timestamp, TimerService& timers);
  std::optional<Timestamp> earliestWaiting() const;

  ValueState<OpenAuction>* open_ = nullptr;
  /// Bids waiting for their auction, by dateTime: bids of the same dateTime
  /// are valid for the same auctions, so only the best of them can win.
  MapState<Timestamp, Bid>* waiting_ = nullptr;
  /// The dateTimes one drop removes, collected during the visit (reused).
  std::vector<Timestamp> dropped_;
};

/// Whether a bid is valid depends only on its auction and dateTime, so of the
/// bids with the same (auction, dateTime) only the best by outbids() can ever
/// win: this operator keeps only that one, in each source subtask, until the
/// next watermark (see combine_until_watermark.h). Auctions pass at once.
std::unique_ptr<OneInputStreamOperator<Event, Event>> bestBidPerAuctionAndTime();

/// The winner of every auction that had a valid bid, each released when the
/// watermark reaches the auction's expiry time (record timestamp = expires).
DataStream<AuctionWinner> winningBids(const DataStream<Event>& events);

/// Part of a keyed process function over AuctionWinner (keyed by category,
/// seller, ...) that processes each key's closings in close order: by
/// expires, then auction id. Winners reach such a stage from several
/// subtasks in an order that depends on the parallelism; this buffer holds
/// them until the watermark reaches their expiry time, by which point every
/// winner of that time has arrived (each is emitted before the watermark
/// that released it), and then releases them sorted.
///
/// The closings are kept in arrival order and sorted when released, not
/// kept sorted: a release mostly takes every closing the key holds (they
/// arrive just before the watermark that releases them), so appending to a
/// list and sorting the few due at once is cheaper than a node of an
/// ordered map per closing.
class CloseOrderBuffer {
 public:
  /// Call from the function's open().
  void open(KeyedRuntimeContext<std::int64_t>& context);
  /// Call from processElement.
  void add(const AuctionWinner& winner, TimerService& timers);
  /// Call from onTimer: `closed(winner)` for each of the current key's
  /// winners that expire at or before `timestamp`, in close order. `closed`
  /// must not call add() or release() (it runs while the due closings are
  /// being visited).
  template <class Closed>
  void release(Timestamp timestamp, Closed&& closed) {
    takeDue(timestamp);
    for (const AuctionWinner& winner : due_) closed(winner);
  }

 private:
  /// Moves the current key's winners due at `timestamp` into due_, in close
  /// order; later closings stay (they have timers of their own).
  void takeDue(Timestamp timestamp);

  ListState<AuctionWinner>* buffered_ = nullptr;
  /// What one release takes and what it leaves (reused).
  std::vector<AuctionWinner> due_;
  std::vector<AuctionWinner> later_;
};

}  // namespace tidemark::nexmark
