// Q7 (highest bid) without the engine: one loop over the generated events,
// the bar the engine's q7 is measured against.
//
// Each open tumbling window keeps its highest price and the bids at that
// price. Bids are at most a little out of order, so only the last window or
// two are open at once: a short deque, no hash map needed. Windows fire as
// the source's watermark passes their end (the rule of NexmarkSource at
// parallelism 1), everything left at the end of input.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iterator>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "nexmark/event_generator.h"
#include "nexmark/reference/bid_loop.h"
#include "nexmark/queries/q7_highest_bid.h"

namespace tidemark::nexmark {

namespace q7_reference_detail {

struct Window {
  Timestamp start;
  std::int64_t price = 0;
  std::vector<Bid> bids;  // every bid at `price` (none yet: no bids)
};

template <class Emit>
class HighestBids {
 public:
  explicit HighestBids(Emit& emit) : emit_(emit) {}

  void addBid(const Bid& bid) {
    // Most bids fall into the window of the bid before: no division then.
    if (current_ == nullptr || bid.date_time < current_->start ||
        bid.date_time >= current_->start + kHighestBidWindowSize) {
      current_ = &windowFor(TimeWindow::getWindowStartWithOffset(bid.date_time, 0, kHighestBidWindowSize));
    }
    Window& window = *current_;
    if (window.bids.empty() || bid.price > window.price) {
      window.price = bid.price;
      window.bids.clear();
      window.bids.push_back(bid);
    } else if (bid.price == window.price) {
      window.bids.push_back(bid);
    }
  }

  void fireUpTo(Timestamp watermark) {
    while (!windows_.empty() && windows_.front().start + kHighestBidWindowSize - 1 <= watermark) {
      Window& window = windows_.front();
      std::sort(window.bids.begin(), window.bids.end(), highestBidEmittedBefore);
      for (const Bid& bid : window.bids) emit_(HighestBid{bid, window.start + kHighestBidWindowSize});
      windows_.pop_front();
      current_ = nullptr;
    }
  }

 private:
  Window& windowFor(Timestamp start) {
    auto it = windows_.end();
    while (it != windows_.begin() && std::prev(it)->start >= start) --it;
    if (it != windows_.end() && it->start == start) return *it;
    current_ = nullptr;  // an insert moves the windows
    return *windows_.insert(it, Window{start, 0, {}});
  }

  Emit& emit_;
  std::deque<Window> windows_;  // by start
  Window* current_ = nullptr;    // the window of the last bid
};

}  // namespace q7_reference_detail

/// Emits exactly what q7HighestBid emits, in the same order.
template <class Emit>
void q7Reference(const EventGenerator& generator, std::int64_t events, Emit&& emit) {
  q7_reference_detail::HighestBids<std::remove_reference_t<Emit>> highest(emit);
  forEachBid(
      generator, events, [&](Timestamp watermark) { highest.fireUpTo(watermark); },
      [&](const Event& event) { highest.addBid(std::get<Bid>(event.payload)); });
  highest.fireUpTo(kMaxWatermark);
}

}  // namespace tidemark::nexmark
