#include "highest_bid_combiner.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tidemark::nexmark {

void HighestBidCombiner::processElement(StreamRecord<Bid>& record) {
  const Bid& bid = record.value;
  OpenWindow& window = windowOf(bid.date_time);
  const bool below_held = !window.held.empty() && bid.price < window.held_price;
  const bool below_emitted = window.emitted_any && bid.price < window.emitted_price;
  if (below_held || below_emitted) {
    ++combined_;
    return;
  }
  if (!window.held.empty() && bid.price > window.held_price) {
    combined_ += window.held.size();
    window.held.clear();
  }
  window.held_price = bid.price;
  window.held.push_back(record);
}

HighestBidCombiner::OpenWindow& HighestBidCombiner::windowOf(Timestamp date_time) {
  const auto contains = [&](const OpenWindow& w) { return w.start <= date_time && date_time < w.start + window_size_; };
  if (last_window_ < windows_.size() && contains(windows_[last_window_])) return windows_[last_window_];
  const auto found = std::find_if(windows_.begin(), windows_.end(), contains);
  last_window_ = static_cast<std::size_t>(found - windows_.begin());
  if (found == windows_.end()) {
    OpenWindow& opened = windows_.emplace_back();
    opened.start = TimeWindow::getWindowStartWithOffset(date_time, 0, window_size_);
  }
  return windows_[last_window_];
}

void HighestBidCombiner::afterFlush(Timestamp watermark) {
  // The window operators downstream fire these with this watermark.
  std::erase_if(windows_, [&](const OpenWindow& w) { return w.start + window_size_ - 1 <= watermark; });
}

void HighestBidCombiner::reportCounters(internal::CounterReport& report) const {
  report.add("bids combined", combined_);
}

void HighestBidCombiner::flush() {
  for (OpenWindow& window : windows_) {
    if (window.held.empty()) continue;
    // Held bids are never below what was emitted before: the new highest.
    window.emitted_any = true;
    window.emitted_price = window.held_price;
    for (StreamRecord<Bid>& record : window.held) output().collect(record);
    window.held.clear();
  }
}

}  // namespace tidemark::nexmark
