// Q1 without the engine: the plainest fast loop that produces q1's results,
// the bids with their prices in euros, in event-number order. Benchmarks
// compare the engine with it; q1_test checks it against a brute force.
#pragma once

#include <cstdint>
#include <utility>
#include <variant>

#include "nexmark/event_generator.h"
#include "nexmark/queries/q1_currency_conversion.h"
#include "nexmark/reference/bid_loop.h"

namespace tidemark::nexmark {

/// Calls `emit(const Event&)` for every result of q1 on events 0 .. events - 1.
/// Q1 has no windows, so no watermark is involved.
template <class Emit>
void q1Reference(const EventGenerator& generator, std::int64_t events, Emit&& emit) {
  forEachBid(
      generator, events, [](Timestamp) {},
      [&emit](Event& event) {
        Bid& bid = std::get<Bid>(event.payload);
        bid.price = dollarsToEuros(bid.price);
        emit(std::as_const(event));
      });
}

}  // namespace tidemark::nexmark
