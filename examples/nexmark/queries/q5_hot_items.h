// Q5, hot items: every 2 s, the auctions that got the most bids in the last
// 10 s (sliding event-time windows; all auctions tied for the most).
#pragma once

#include <cstdint>
#include <ostream>

#include "nexmark/model.h"
#include "nexmark/query.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

inline constexpr Duration kHotItemsWindowSize = 10'000;
inline constexpr Duration kHotItemsWindowSlide = 2'000;

/// An auction with the most bids in the window that ends at `window_end`.
struct HotItem {
  std::int64_t auction = 0;
  std::int64_t bids = 0;
  Timestamp window_end = 0;

  friend bool operator==(const HotItem&, const HotItem&) = default;
};

std::ostream& operator<<(std::ostream& os, const HotItem& item);

/// Known once the watermark passes the window's last millisecond.
inline LatencyOrigin latencyOrigin(const HotItem& item) { return LatencyOrigin::watermark(item.window_end - 1); }

/// Per window: its hot items in ascending auction order (windows in end
/// order within a parallel subtask of the last stage).
DataStream<HotItem> q5HotItems(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
