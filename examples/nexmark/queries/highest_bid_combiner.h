// Keeps, before q7's shuffle, only the bids that can still be a window's
// highest.
//
// A bid below a higher one of the same window can never be among the
// window's highest bids, so each subtask keeps, per open window, the bids at
// the highest price it has seen since the last watermark, and emits them
// just before the next watermark (or idle status, or end of input). It also
// remembers the highest price it has emitted for each window: a later bid
// below that is dropped at once. Bids tied at the highest price all pass,
// since q7 reports every tie. A window is forgotten once the watermark
// passes its end; the window operators after the shuffle then fire it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "flush_before_watermark.h"
#include "nexmark/model.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

class HighestBidCombiner final : public FlushBeforeWatermark<Bid, Bid> {
 public:
  explicit HighestBidCombiner(Duration window_size) : window_size_(window_size) {}

  void processElement(StreamRecord<Bid>& record) override;

  /// Bids dropped as lower than another bid of their window (reported as
  /// "bids combined" when the job ends).
  void reportCounters(internal::CounterReport& report) const override;

 private:
  struct OpenWindow {
    Timestamp start = 0;
    bool emitted_any = false;
    std::int64_t emitted_price = 0;  // the highest price emitted so far
    std::int64_t held_price = 0;     // the price of every held bid
    std::vector<StreamRecord<Bid>> held;
  };

  OpenWindow& windowOf(Timestamp date_time);
  void flush() override;
  void afterFlush(Timestamp watermark) override;

  Duration window_size_;
  std::vector<OpenWindow> windows_;  // few: the window of now and perhaps the one before
  std::size_t last_window_ = 0;      // the window of the last bid, as a guess for the next
  std::uint64_t combined_ = 0;
};

}  // namespace tidemark::nexmark
