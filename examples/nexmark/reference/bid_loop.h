// The loop every reference program runs: the bids of events 0 .. events - 1
// in event order, with the watermark the source would emit. An event's kind
// follows from its offset in its group (people first, then auctions, then
// bids), so people and auctions are never generated, and the nominal time is
// tracked as the source tracks it: a division per millisecond, not per event.
#pragma once

#include <cstdint>
#include <variant>

#include "nexmark/event_generator.h"

namespace tidemark::nexmark {

/// Calls `on_watermark(Timestamp)` whenever a bid enters a new millisecond
/// (before the bid: a window the watermark of a skipped person or auction
/// would fire fires before the next bid is counted, the same), and
/// `on_bid(Event&)` for every bid event.
template <class OnWatermark, class OnBid>
void forEachBid(const EventGenerator& generator, std::int64_t events, OnWatermark&& on_watermark, OnBid&& on_bid) {
  const GeneratorConfig& config = generator.config();
  const std::int64_t group_size = config.totalProportion();
  const std::int64_t first_bid_offset = config.person_proportion + config.auction_proportion;
  std::int64_t offset = 0;
  Timestamp nominal = 0;
  std::int64_t next_millisecond = 0;  // first event of the next millisecond
  for (std::int64_t n = 0; n < events; ++n, offset = offset + 1 == group_size ? 0 : offset + 1) {
    if (offset < first_bid_offset) continue;
    if (n >= next_millisecond) {
      nominal = generator.nominalTime(n);
      next_millisecond = generator.firstEventAtOrAfter(nominal + 1);
      on_watermark(generator.watermarkBefore(nominal));
    }
    Event event = generator.generate(n, nominal);
    on_bid(event);
  }
}

}  // namespace tidemark::nexmark
