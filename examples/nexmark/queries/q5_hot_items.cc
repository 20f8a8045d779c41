#include "q5_hot_items.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "combine_until_watermark.h"

namespace tidemark::nexmark {
namespace {

/// What the sliding windows sum: one per bid, summed per auction.
struct AuctionBids {
  std::int64_t auction = 0;
  std::int64_t bids = 0;
  auto fields() { return std::tie(auction, bids); }
};

/// Turns each window's per-auction counts into HotItems (the window end is
/// the record's timestamp + 1) and drops counts below the largest this
/// subtask already saw in the same window: they cannot be the window's
/// maximum. Without it every (auction, window) count would go to the one
/// subtask that owns the window's key; with it a handful per window does.
/// The window operator emits a whole window before the next, so one running
/// maximum is enough; were windows interleaved, or the maximum lost, the
/// reset would only let more records through, never drop a hot item.
class CountsAtRunningMax final : public ProcessFunction<AuctionBids, HotItem> {
 public:
  void processElement(const AuctionBids& counted, Context& ctx, Collector<HotItem>& out) override {
    const Timestamp window_end = *ctx.timestamp() + 1;
    if (window_end != window_end_) {
      window_end_ = window_end;
      most_bids_ = 0;
    }
    if (counted.bids < most_bids_) return;
    most_bids_ = counted.bids;
    out.collect(HotItem{counted.auction, counted.bids, window_end});
  }

 private:
  Timestamp window_end_ = kMinWatermark;
  std::int64_t most_bids_ = 0;
};

/// Per window end: the candidates with the most bids, released in auction
/// order when the watermark passes the window (every subtask of the window
/// stage has sent all of that window's counts by then).
class MostBidsPerWindow final : public KeyedProcessFunction<Timestamp, HotItem, HotItem> {
 public:
  void open() override {
    most_bids_ = &getRuntimeContext().getState(ValueStateDescriptor<std::int64_t>("most bids"));
    leaders_ = &getRuntimeContext().getListState(ListStateDescriptor<std::int64_t>("auctions with the most bids"));
  }

  void processElement(const HotItem& candidate, Context& ctx, Collector<HotItem>&) override {
    const std::optional<std::int64_t> most = most_bids_->value();
    if (!most) {
      ctx.timerService().registerEventTimeTimer(candidate.window_end - 1);
    } else if (candidate.bids < *most) {
      return;
    } else if (candidate.bids == *most) {
      leaders_->add(candidate.auction);
      return;
    }
    most_bids_->update(candidate.bids);
    leaders_->update({candidate.auction});
  }

  void onTimer(Timestamp timestamp, OnTimerContext&, Collector<HotItem>& out) override {
    const std::int64_t bids = most_bids_->value().value_or(0);
    std::vector<std::int64_t> auctions = leaders_->get();
    std::sort(auctions.begin(), auctions.end());
    for (const std::int64_t auction : auctions) out.collect(HotItem{auction, bids, timestamp + 1});
    most_bids_->clear();
    leaders_->clear();
  }

 private:
  ValueState<std::int64_t>* most_bids_ = nullptr;
  ListState<std::int64_t>* leaders_ = nullptr;
};

}  // namespace

std::ostream& operator<<(std::ostream& os, const HotItem& item) {
  return os << "HotItem{auction=" << item.auction << ", bids=" << item.bids << ", windowEnd=" << item.window_end
            << '}';
}

DataStream<HotItem> q5HotItems(const DataStream<Event>& events) {
  return events
      .flatMap<AuctionBids>([](const Event& event, Collector<AuctionBids>& out) {
        if (const Bid* bid = event.bid()) out.collect(AuctionBids{bid->auction, 1});
      })
      .name("q5: one per bid")
      // Bids of one auction and one millisecond always share their panes,
      // so they are counted where they are made: at the default rate a
      // millisecond's 9,200 bids name at most about 110 auctions (the hot
      // one and the ~110 newest), and only those counts cross the shuffle.
      .transform<AuctionBids>("q5: bids per auction and millisecond",
                              [] {
                                return combineUntilWatermark<AuctionBids>(
                                    [](const AuctionBids& counted, Timestamp timestamp) {
                                      return std::optional{std::pair{counted.auction, timestamp}};
                                    },
                                    [](AuctionBids& held, const AuctionBids& next) { held.bids += next.bids; });
                              })
      .keyBy([](const AuctionBids& counted) { return counted.auction; })
      .window(SlidingEventTimeWindows::of(kHotItemsWindowSize, kHotItemsWindowSlide))
      .sum(&AuctionBids::bids)
      .name("q5: bids per auction and window")
      .process(CountsAtRunningMax{})
      .name("q5: counts at the running maximum")
      .keyBy([](const HotItem& candidate) { return candidate.window_end; })
      .process(MostBidsPerWindow{})
      .name("q5: auctions with the most bids");
}

}  // namespace tidemark::nexmark
