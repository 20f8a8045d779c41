// Makes Nexmark event number n, for any n, without state: every field is a
// function of (config, n). That is what makes the generator deterministic
// for a seed and parallel without coordination: a subtask makes its share of
// the numbers, and any test can make the same events again to compute a
// query's expected result on its own.
//
// Ids follow the benchmark's scheme: within each group of
// totalProportion() events, the first person_proportion are people, the
// next auction_proportion auctions, the rest bids; person and auction ids
// count up from 1000 in that order. Bids and auctions refer to recent
// people and auctions (with a small lead into ids not created yet, so
// joins see both orders), half of the bids to one hot auction.
//
// Text fields are views into tables built once per process (names, cities,
// states, channels, e-mail addresses, card numbers and a block of random
// letters for item names, descriptions and padding), so generate() never
// allocates.
#pragma once

#include <cstdint>
#include <string_view>

#include "generator_config.h"
#include "model.h"

namespace tidemark::nexmark {

class EventGenerator {
 public:
  explicit EventGenerator(const GeneratorConfig& config);

  const GeneratorConfig& config() const { return config_; }

  /// Event number n (n >= 0).
  Event generate(std::int64_t n) const { return generate(n, nominalTime(n)); }
  /// The same, for a caller that keeps track of nominalTime(n) (a division
  /// per event saved on the source's path).
  Event generate(std::int64_t n, Timestamp nominal_time) const;

  /// The time event n is due: base_time + n * 1000 / events_per_second. Its
  /// dateTime is this minus a delay of at most max_out_of_orderness.
  Timestamp nominalTime(std::int64_t n) const {
    return config_.base_time + n * 1000 / config_.events_per_second;
  }

  /// The smallest n whose nominal time is >= t.
  std::int64_t firstEventAtOrAfter(Timestamp t) const;

  /// The watermark a source may emit once it is about to make an event with
  /// this nominal time: no later event can have an earlier dateTime.
  Timestamp watermarkBefore(Timestamp nominal_time) const {
    return nominal_time - config_.max_out_of_orderness - 1;
  }

  /// Base-0 id of the last person created at or before event n.
  std::int64_t lastBase0PersonId(std::int64_t n) const { return lastBase0PersonId(positionOf(n)); }
  /// Base-0 id of the last auction created at or before event n (-1 before the first).
  std::int64_t lastBase0AuctionId(std::int64_t n) const { return lastBase0AuctionId(positionOf(n)); }

 private:
  class Random;
  struct Tables;
  static const Tables& sharedTables();

  struct Channel {
    std::string_view name;
    std::string_view url;
  };
  /// A hot channel with probability 1 - 1/hot_channels_ratio, else a cold
  /// one, from the low 32 bits of `bits`.
  const Channel& channelOf(std::uint64_t bits) const;

  /// Event n as (group of totalProportion() events, offset in the group).
  struct Position {
    std::int64_t n;
    std::int64_t group;
    std::int64_t offset;
  };
  /// A multiplication by a precomputed reciprocal instead of a 64-bit division.
  Position positionOf(std::int64_t n) const;

  std::int64_t lastBase0PersonId(const Position& at) const;
  std::int64_t lastBase0AuctionId(const Position& at) const;

  Person makePerson(const Position& at, Timestamp date_time, Random& random) const;
  Auction makeAuction(const Position& at, Timestamp nominal_time, Timestamp date_time, Random& random) const;
  Bid makeBid(const Position& at, Timestamp date_time, Random& random) const;

  std::int64_t nextBase0PersonId(const Position& at, Random& random) const;
  std::int64_t nextBase0AuctionId(const Position& at, Random& random) const;
  Duration nextAuctionLength(const Position& at, Timestamp nominal_time, Random& random) const;

  GeneratorConfig config_;
  std::int64_t total_proportion_;
  std::uint64_t group_reciprocal_;  // ceil(2^64 / total_proportion_)
  const Tables* tables_;
};

}  // namespace tidemark::nexmark
