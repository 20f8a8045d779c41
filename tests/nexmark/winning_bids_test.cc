// Edge cases of the winning-bid logic shared by q4, q6 and q9, on hand-made
// events pushed through the keyed function and through the combiner before
// it with test harnesses (so the watermark, the output timestamps, state and
// timers are all visible).
#include "nexmark/queries/winning_bids.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "tidemark/testing/keyed_one_input_harness.h"
#include "tidemark/testing/one_input_harness.h"

namespace tidemark::nexmark {
namespace {

using Harness = KeyedOneInputStreamOperatorTestHarness<std::int64_t, Event, AuctionWinner>;

Auction makeAuction(std::int64_t id, Timestamp starts, Timestamp expires) {
  Auction auction;
  auction.id = id;
  auction.date_time = starts;
  auction.expires = expires;
  auction.seller = 1001;
  auction.category = 10;
  return auction;
}

Bid makeBid(std::int64_t auction, std::int64_t price, Timestamp at, std::int64_t bidder = 2000) {
  Bid bid;
  bid.auction = auction;
  bid.bidder = bidder;
  bid.price = price;
  bid.channel = "Google";
  bid.date_time = at;
  return bid;
}

/// Feeds events with their dateTime as timestamp, numbered in arrival order.
class WinningBidRun {
 public:
  WinningBidRun() : harness_(WinningBidFunction{}, [](const Event& e) { return auctionIdOf(e); }) { harness_.open(); }

  WinningBidRun& add(const Auction& auction) { return push(Event{next_number_++, auction}, auction.date_time); }
  WinningBidRun& add(const Bid& bid) { return push(Event{next_number_++, bid}, bid.date_time); }
  WinningBidRun& watermark(Timestamp t) {
    harness_.processWatermark(t);
    return *this;
  }

  std::vector<StreamRecord<AuctionWinner>> results() const { return harness_.getOutput().records(); }
  Harness& harness() { return harness_; }

 private:
  WinningBidRun& push(Event event, Timestamp timestamp) {
    harness_.processElement(std::move(event), timestamp);
    return *this;
  }

  Harness harness_;
  std::int64_t next_number_ = 0;
};

StreamRecord<AuctionWinner> winner(const Auction& auction, const Bid& bid) {
  return StreamRecord<AuctionWinner>::withTimestamp(AuctionWinner{auction, bid}, auction.expires);
}

TEST(WinningBidsTest, ABidAtTheAuctionsStartIsValid) {
  const Auction auction = makeAuction(1000, 1000, 2000);
  const Bid at_start = makeBid(1000, 5, 1000);
  WinningBidRun run;
  run.add(makeBid(1000, 99, 999)).add(auction).add(at_start).watermark(2000);
  EXPECT_EQ(run.results(), (std::vector{winner(auction, at_start)}));
}

TEST(WinningBidsTest, ABidAtTheAuctionsExpiryIsValidAndALaterOneIsNot) {
  const Auction auction = makeAuction(1000, 1000, 2000);
  const Bid at_expiry = makeBid(1000, 5, 2000);
  WinningBidRun run;
  run.add(auction).add(at_expiry).add(makeBid(1000, 99, 2001)).watermark(2000);
  EXPECT_EQ(run.results(), (std::vector{winner(auction, at_expiry)}));
}

TEST(WinningBidsTest, ReleasesTheWinnerWhenTheWatermarkReachesExpiryWithThatTimestamp) {
  const Auction auction = makeAuction(1000, 1000, 2000);
  const Bid bid = makeBid(1000, 5, 1500);
  WinningBidRun run;
  run.add(auction).add(bid).watermark(1999);
  EXPECT_TRUE(run.results().empty());
  run.watermark(2000);
  EXPECT_EQ(run.harness().getOutput().lines(),
            (std::vector<std::string>{"Watermark(1999)", "Record(AuctionWinner{auction=1000, seller=1001, category=10, "
                                                         "expires=2000, price=5, bidder=2000, bidTime=1500} @ 2000)",
                                      "Watermark(2000)"}));
}

TEST(WinningBidsTest, TheHighestPriceWinsWhateverTheArrivalOrder) {
  const Auction auction = makeAuction(1000, 1000, 5000);
  WinningBidRun run;
  run.add(auction).add(makeBid(1000, 10, 1100)).add(makeBid(1000, 30, 1200)).add(makeBid(1000, 20, 1300));
  run.watermark(5000);
  EXPECT_EQ(run.results(), (std::vector{winner(auction, makeBid(1000, 30, 1200))}));
}

TEST(WinningBidsTest, ATieOnPriceGoesToTheEarlierBidThenToTheSmallerBidder) {
  const Auction first = makeAuction(1000, 1000, 5000);
  const Auction second = makeAuction(1001, 1000, 6000);
  const Bid expected_first = makeBid(1000, 10, 1500, 8);
  const Bid expected_second = makeBid(1001, 10, 1500, 8);
  WinningBidRun run;
  // The same three bids on two auctions, arriving in opposite orders.
  run.add(first).add(makeBid(1000, 10, 2000, 7)).add(makeBid(1000, 10, 1500, 9)).add(expected_first);
  run.add(second).add(expected_second).add(makeBid(1001, 10, 1500, 9)).add(makeBid(1001, 10, 2000, 7));
  run.watermark(6000);
  EXPECT_EQ(run.results(), (std::vector{winner(first, expected_first), winner(second, expected_second)}));
}

TEST(WinningBidsTest, BidsThatArriveBeforeTheirAuctionWaitAndCanWin) {
  const Auction auction = makeAuction(1005, 1100, 1500);
  // Waiting bids of the same dateTime: only the better one is kept.
  const Bid best = makeBid(1005, 50, 1200, 3);
  WinningBidRun run;
  run.add(makeBid(1005, 50, 1200, 4)).add(best).add(makeBid(1005, 20, 1150)).add(makeBid(1005, 90, 1050));
  run.add(auction).add(makeBid(1005, 40, 1300));
  run.watermark(1500);
  EXPECT_EQ(run.results(), (std::vector{winner(auction, best)}));
}

TEST(WinningBidsTest, DropsAWaitingBidOnceTheWatermarkPassesItsTime) {
  WinningBidRun run;
  run.add(makeBid(1010, 99, 1200)).add(makeBid(1010, 98, 1300));
  // One drop timer, at the earliest waiting dateTime; it sets the next.
  EXPECT_EQ(run.harness().numEventTimeTimers(), 1u);
  run.watermark(1199);
  EXPECT_EQ(run.harness().numEventTimeTimers(), 1u);
  EXPECT_EQ(run.harness().numKeyedStateEntries(), 1u);
  run.watermark(1200);
  EXPECT_EQ(run.harness().numEventTimeTimers(), 1u);
  EXPECT_EQ(run.harness().numKeyedStateEntries(), 1u);  // the bid at 1300 still waits
  run.watermark(1300);
  EXPECT_EQ(run.harness().numEventTimeTimers(), 0u);
  EXPECT_EQ(run.harness().numKeyedStateEntries(), 0u);
  // An auction arriving now starts after those bids; only its own bid counts.
  const Auction auction = makeAuction(1010, 1400, 2000);
  const Bid bid = makeBid(1010, 1, 1500);
  run.add(auction).add(bid).watermark(kMaxWatermark);
  EXPECT_EQ(run.results(), (std::vector{winner(auction, bid)}));
}

TEST(WinningBidsTest, AWaitingBidEarlierThanTheOthersGetsADropTimerOfItsOwn) {
  WinningBidRun run;
  run.add(makeBid(1010, 99, 1300)).add(makeBid(1010, 98, 1400)).add(makeBid(1010, 97, 1200));
  EXPECT_EQ(run.harness().numEventTimeTimers(), 2u);  // 1300 and 1200
  run.watermark(1250);  // drops the bid at 1200 only
  EXPECT_EQ(run.harness().numEventTimeTimers(), 1u);
  run.watermark(1350);  // drops the bid at 1300; the one at 1400 gets the next timer
  EXPECT_EQ(run.harness().numEventTimeTimers(), 1u);
  // An auction from 1350 on: of the waiting bids only the one at 1400 is valid for it.
  const Auction auction = makeAuction(1010, 1350, 2000);
  run.add(auction);
  EXPECT_EQ(run.harness().numEventTimeTimers(), 1u);  // the drop timer went, the expiry timer came
  run.watermark(kMaxWatermark);
  EXPECT_EQ(run.results(), (std::vector{winner(auction, makeBid(1010, 98, 1400))}));
  EXPECT_EQ(run.harness().numKeyedStateEntries(), 0u);
  EXPECT_EQ(run.harness().numEventTimeTimers(), 0u);
}

TEST(WinningBidsTest, AnAuctionWithoutAValidBidGivesNothing) {
  WinningBidRun run;
  run.add(makeBid(1000, 7, 900)).add(makeAuction(1000, 1000, 2000)).add(makeBid(1000, 7, 2500)).watermark(3000);
  EXPECT_TRUE(run.results().empty());
}

TEST(WinningBidsTest, ClearsAllStateAndTimersOfAnAuctionWhenItCloses) {
  WinningBidRun run;
  run.add(makeBid(1000, 7, 1100)).add(makeBid(1000, 8, 1050)).add(makeAuction(1000, 1000, 2000));
  run.add(makeBid(1000, 9, 1500));
  EXPECT_EQ(run.harness().numEventTimeTimers(), 1u);  // the waiting bids' timers went with them
  run.watermark(2000);
  EXPECT_EQ(run.results().size(), 1u);
  EXPECT_EQ(run.harness().numKeyedStateEntries(), 0u);
  EXPECT_EQ(run.harness().numEventTimeTimers(), 0u);
}

TEST(WinningBidsTest, TheEndOfInputReleasesAuctionsStillOpen) {
  const Auction auction = makeAuction(1000, 1000, 900'000);
  const Bid bid = makeBid(1000, 5, 1500);
  WinningBidRun run;
  run.add(auction).add(bid).watermark(5000);
  EXPECT_TRUE(run.results().empty());
  run.watermark(kMaxWatermark);
  EXPECT_EQ(run.results(), (std::vector{winner(auction, bid)}));
}

TEST(WinningBidsTest, OutbidsOrdersAnyTwoDifferentBids) {
  const Bid bid = makeBid(1000, 10, 1500, 8);
  EXPECT_TRUE(outbids(makeBid(1000, 11, 1600, 9), bid));
  EXPECT_TRUE(outbids(makeBid(1000, 10, 1400, 9), bid));
  EXPECT_TRUE(outbids(makeBid(1000, 10, 1500, 7), bid));
  Bid other_channel = bid;
  other_channel.channel = "Apple";
  EXPECT_TRUE(outbids(other_channel, bid));
  EXPECT_FALSE(outbids(bid, other_channel));
  EXPECT_FALSE(outbids(bid, bid));
}

/// Emits the auction ids of the closings a CloseOrderBuffer releases.
class CloseOrderProbe final : public KeyedProcessFunction<std::int64_t, AuctionWinner, std::int64_t> {
 public:
  void open() override { closings_.open(getRuntimeContext()); }
  void processElement(const AuctionWinner& winner, Context& ctx, Collector<std::int64_t>&) override {
    closings_.add(winner, ctx.timerService());
  }
  void onTimer(Timestamp timestamp, OnTimerContext&, Collector<std::int64_t>& out) override {
    closings_.release(timestamp, [&out](const AuctionWinner& winner) { out.collect(winner.auction.id); });
  }

 private:
  CloseOrderBuffer closings_;
};

TEST(WinningBidsTest, CloseOrderBufferReleasesClosingsByExpiryThenAuctionId) {
  KeyedOneInputStreamOperatorTestHarness harness(CloseOrderProbe{},
                                                 [](const AuctionWinner& w) { return w.auction.category; });
  harness.open();
  for (auto [id, expires] : std::vector<std::pair<std::int64_t, Timestamp>>{{1005, 2000}, {1009, 1000}, {1001, 2000},
                                                                           {1003, 1000}}) {
    harness.processElement(AuctionWinner{makeAuction(id, 500, expires), makeBid(id, 1, 600)}, expires);
  }
  harness.processWatermark(1500);
  EXPECT_EQ(harness.extractOutputValues(), (std::vector<std::int64_t>{1003, 1009}));
  harness.processWatermark(2000);
  EXPECT_EQ(harness.extractOutputValues(), (std::vector<std::int64_t>{1003, 1009, 1001, 1005}));
  EXPECT_EQ(harness.numKeyedStateEntries(), 0u);
  EXPECT_EQ(harness.numEventTimeTimers(), 0u);
}

// ---- bestBidPerAuctionAndTime: the combiner before the shuffle ----

/// Runs the combiner; numbers events in arrival order.
class CombinerRun {
 public:
  CombinerRun() : harness_(bestBidPerAuctionAndTime()) { harness_.open(); }

  CombinerRun& add(const Bid& bid) {
    harness_.processElement(Event{next_number_++, bid}, bid.date_time);
    return *this;
  }
  CombinerRun& add(const Auction& auction) {
    harness_.processElement(Event{next_number_++, auction}, auction.date_time);
    return *this;
  }
  CombinerRun& watermark(Timestamp t) {
    harness_.processWatermark(t);
    return *this;
  }
  OneInputStreamOperatorTestHarness<Event, Event>& harness() { return harness_; }

  /// What the combiner emitted: "#number price@dateTime" per bid,
  /// "#number auction id" per auction, "watermark t".
  std::vector<std::string> emitted() const {
    std::vector<std::string> lines;
    for (const auto& item : harness_.getOutput()) {
      if (const auto* record = std::get_if<StreamRecord<Event>>(&item)) {
        const Event& event = record->value;
        const Bid* bid = event.bid();
        lines.push_back(bid != nullptr ? fmt::format("#{} {}:{}@{}", event.number, bid->auction, bid->price,
                                                     bid->date_time)
                                       : fmt::format("#{} auction {}", event.number, event.auction()->id));
      } else {
        lines.push_back(fmt::format("watermark {}", std::get<WatermarkEvent>(item).timestamp));
      }
    }
    return lines;
  }

 private:
  OneInputStreamOperatorTestHarness<Event, Event> harness_;
  std::int64_t next_number_ = 0;
};

TEST(WinningBidsCombinerTest, KeepsTheBestBidPerAuctionAndDateTimeUntilTheWatermark) {
  CombinerRun run;
  run.add(makeBid(1000, 50, 10)).add(makeBid(1001, 70, 10)).add(makeBid(1000, 90, 10));
  run.add(makeBid(1000, 20, 11));  // another dateTime: valid for auctions the 90 is not
  run.add(makeBid(1000, 60, 10));  // outbid by the 90
  EXPECT_TRUE(run.harness().getOutput().empty());
  run.watermark(11);
  // In the order the (auction, dateTime) pairs were first seen.
  EXPECT_EQ(run.emitted(), (std::vector<std::string>{"#2 1000:90@10", "#1 1001:70@10", "#3 1000:20@11",
                                                     "watermark 11"}));
}

TEST(WinningBidsCombinerTest, BreaksPriceTiesAsTheWinningBidFunctionDoes) {
  CombinerRun run;
  run.add(makeBid(1000, 50, 10, 2002)).add(makeBid(1000, 50, 10, 2001)).add(makeBid(1000, 50, 10, 2003));
  run.watermark(10);
  const std::vector<Event> kept = run.harness().getOutput().values();
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].bid()->bidder, 2001);
}

TEST(WinningBidsCombinerTest, PassesAuctionsThroughAtOnceAndStartsAfreshAfterEachWatermark) {
  CombinerRun run;
  run.add(makeBid(1000, 90, 10)).add(makeAuction(1000, 5, 100)).watermark(9);
  run.add(makeBid(1000, 10, 10)).watermark(10);  // worse, but the 90 has left already
  EXPECT_EQ(run.emitted(), (std::vector<std::string>{"#1 auction 1000", "#0 1000:90@10", "watermark 9",
                                                     "#2 1000:10@10", "watermark 10"}));
}

}  // namespace
}  // namespace tidemark::nexmark
