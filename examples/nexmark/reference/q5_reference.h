// Q5 (hot items) without the engine: one loop over the generated events with
// hash maps, the bar the engine's q5 is measured against.
//
// Event time is cut into panes of one slide (2 s); a bid adds one to its
// auction's count in its pane. A window is five consecutive panes, and
// consecutive windows share four: the counts of the window being fired are
// kept in one map that moves along, adding the pane that enters and taking
// away the pane that leaves, instead of summing five panes per window.
// Windows fire as the source's watermark passes their end (the rule of
// NexmarkSource at parallelism 1), everything left at the end of input.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "nexmark/event_generator.h"
#include "nexmark/reference/bid_loop.h"
#include "nexmark/queries/q5_hot_items.h"

namespace tidemark::nexmark {

namespace q5_reference_detail {

inline constexpr std::int64_t kPanesPerWindow = kHotItemsWindowSize / kHotItemsWindowSlide;
static_assert(kHotItemsWindowSize % kHotItemsWindowSlide == 0);

using Counts = absl::flat_hash_map<std::int64_t, std::int64_t>;

inline std::int64_t paneOf(Timestamp t) {
  return t >= 0 ? t / kHotItemsWindowSlide : -((-t + kHotItemsWindowSlide - 1) / kHotItemsWindowSlide);
}

/// Bids per auction in one slide of event time.
struct Pane {
  std::int64_t index;  // covers [index * slide, (index + 1) * slide)
  Counts counts;
};

template <class Emit>
class HotItems {
 public:
  explicit HotItems(Emit& emit) : emit_(emit) {}

  void addBid(const Bid& bid) {
    // Most bids fall into the pane of the bid before: no division then.
    if (current_ == nullptr || bid.date_time < current_start_ ||
        bid.date_time >= current_start_ + kHotItemsWindowSlide) {
      current_ = &paneFor(paneOf(bid.date_time));
      current_start_ = current_->index * kHotItemsWindowSlide;
    }
    ++current_->counts[bid.auction];
  }

  /// Fires, in end order, every window with bids whose end - 1 <= watermark.
  void fireUpTo(Timestamp watermark) {
    for (;;) {
      // The first pane that a window still to fire contains.
      auto pane = panes_.begin();
      while (pane != panes_.end() && pane->index <= fired_end_ - kPanesPerWindow) ++pane;
      if (pane == panes_.end()) return;
      const std::int64_t end = std::max(pane->index + 1, fired_end_ + 1);
      if (end * kHotItemsWindowSlide - 1 > watermark) return;
      moveWindowTo(end);
      emitLeaders(end * kHotItemsWindowSlide);
      fired_end_ = end;
    }
  }

 private:
  Pane& paneFor(std::int64_t index) {
    // Bids are at most a little out of order: nearly always the last pane.
    auto it = panes_.end();
    while (it != panes_.begin() && std::prev(it)->index >= index) --it;
    if (it != panes_.end() && it->index == index) return *it;
    Counts counts;
    if (!spare_.empty()) {
      counts = std::move(spare_.back());  // cleared, capacity kept
      spare_.pop_back();
    }
    current_ = nullptr;  // an insert moves the panes
    return *panes_.insert(it, Pane{index, std::move(counts)});
  }

  const Pane* findPane(std::int64_t index) const {
    for (const Pane& pane : panes_) {
      if (pane.index == index) return &pane;
      if (pane.index > index) break;
    }
    return nullptr;
  }

  // Makes window_ the counts of panes [end - kPanesPerWindow, end).
  void moveWindowTo(std::int64_t end) {
    const std::int64_t first = end - kPanesPerWindow;
    if (first >= window_end_) {  // no pane in common: start over
      window_.clear();
      window_first_ = window_end_ = first;
    }
    for (; window_end_ < end; ++window_end_) {
      if (const Pane* pane = findPane(window_end_)) {
        for (const auto& [auction, bids] : pane->counts) window_[auction] += bids;
      }
    }
    for (; window_first_ < first; ++window_first_) {
      if (const Pane* pane = findPane(window_first_)) {
        for (const auto& [auction, bids] : pane->counts) {
          const auto it = window_.find(auction);
          if ((it->second -= bids) == 0) window_.erase(it);
        }
      }
    }
    // Panes before the window are in no window still to fire.
    while (!panes_.empty() && panes_.front().index < first) releaseFrontPane();
  }

  void releaseFrontPane() {
    current_ = nullptr;
    panes_.front().counts.clear();
    spare_.push_back(std::move(panes_.front().counts));
    panes_.pop_front();
  }

  void emitLeaders(Timestamp window_end) {
    std::int64_t most = 0;
    leaders_.clear();
    for (const auto& [auction, bids] : window_) {
      if (bids < most) continue;
      if (bids > most) {
        most = bids;
        leaders_.clear();
      }
      leaders_.push_back(auction);
    }
    std::sort(leaders_.begin(), leaders_.end());
    for (const std::int64_t auction : leaders_) emit_(HotItem{auction, most, window_end});
  }

  Emit& emit_;
  std::deque<Pane> panes_;  // by index
  std::vector<Counts> spare_;
  Pane* current_ = nullptr;  // the pane of the last bid
  Timestamp current_start_ = 0;
  std::int64_t fired_end_ = std::numeric_limits<std::int64_t>::min() / 4;  // in panes
  Counts window_;             // counts of panes [window_first_, window_end_)
  std::int64_t window_first_ = std::numeric_limits<std::int64_t>::min() / 4;
  std::int64_t window_end_ = std::numeric_limits<std::int64_t>::min() / 4;
  std::vector<std::int64_t> leaders_;
};

}  // namespace q5_reference_detail

/// Emits exactly what q5HotItems emits at parallelism 1, in the same order.
template <class Emit>
void q5Reference(const EventGenerator& generator, std::int64_t events, Emit&& emit) {
  q5_reference_detail::HotItems<std::remove_reference_t<Emit>> hot_items(emit);
  forEachBid(
      generator, events, [&](Timestamp watermark) { hot_items.fireUpTo(watermark); },
      [&](const Event& event) { hot_items.addBid(std::get<Bid>(event.payload)); });
  hot_items.fireUpTo(kMaxWatermark);
}

}  // namespace tidemark::nexmark
