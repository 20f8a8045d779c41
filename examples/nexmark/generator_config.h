// What the Nexmark generator makes: how many of each record type, how fast
// event time advances, how far events may run out of order, and the knobs of
// the benchmark's data model (hot auctions, bidders and sellers, auction
// lengths, record sizes).
//
// The defaults are the benchmark's standard values: 1 person, 3 auctions and
// 46 bids in every 50 events; a bid goes to the hot auction with probability
// 1 - 1/hot_auction_ratio, and so on.
#pragma once

#include <cstdint>

#include "tidemark/core/time.h"

namespace tidemark::nexmark {

inline constexpr std::int64_t kFirstPersonId = 1000;
inline constexpr std::int64_t kFirstAuctionId = 1000;
inline constexpr std::int64_t kFirstCategoryId = 10;
inline constexpr std::int64_t kNumCategories = 5;

struct GeneratorConfig {
  /// Every field of every event is a function of (seed, event number).
  std::uint64_t seed = 0;
  /// Events per second of event time: event n's nominal time is
  /// base_time + n * 1000 / events_per_second (ms). A rate-limited run also
  /// creates them at this rate on the wall clock.
  std::int64_t events_per_second = 10'000'000;
  /// Event time of event 0, in ms.
  Timestamp base_time = 0;
  /// An event's dateTime is its nominal time minus a random delay in
  /// [0, max_out_of_orderness] ms; the source's watermark trails the nominal
  /// time by max_out_of_orderness + 1, so no event is ever late.
  Duration max_out_of_orderness = 0;

  std::int64_t person_proportion = 1;
  std::int64_t auction_proportion = 3;
  std::int64_t bid_proportion = 46;

  /// People a bid or auction picks from when it does not pick a hot one.
  std::int64_t num_active_people = 1000;
  /// Auctions open at once, on average; auction lengths follow from it.
  std::int64_t num_in_flight_auctions = 100;
  std::int64_t hot_auction_ratio = 2;
  std::int64_t hot_sellers_ratio = 4;
  std::int64_t hot_bidders_ratio = 4;
  std::int64_t hot_channels_ratio = 2;

  /// Average record sizes in bytes, reached by padding `extra`.
  std::int64_t avg_person_bytes = 200;
  std::int64_t avg_auction_bytes = 500;
  std::int64_t avg_bid_bytes = 100;

  std::int64_t totalProportion() const { return person_proportion + auction_proportion + bid_proportion; }
};

}  // namespace tidemark::nexmark
