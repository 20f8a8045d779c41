// Q3, local item suggestion: who sells in category 10 from Oregon, Idaho or
// California, and which auctions: auctions of category 10 joined with the
// people in those states on auction.seller == person.id.
//
// A regular (unwindowed) join, incremental on both sides: auctions and
// people are keyed by the seller's id and meet in a KeyedCoProcessFunction
// that emits a pair as soon as its second half arrives, whichever side that
// is. It keeps state only for what can still match: a local seller (their
// later auctions match), the fact that a seller is not local (their
// auctions are dropped on arrival) and the auctions whose seller has not
// been seen yet (ids may run ahead of the people they refer to).
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>

#include "nexmark/model.h"
#include "nexmark/query.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

struct LocalItem {
  std::string_view name;
  std::string_view city;
  std::string_view state;
  std::int64_t auction = 0;
  /// The later of the person's and the auction's event numbers: the pair is
  /// known once both exist, so latency starts there.
  std::int64_t number = 0;

  friend bool operator==(const LocalItem&, const LocalItem&) = default;
};

std::ostream& operator<<(std::ostream& os, const LocalItem& result);
inline LatencyOrigin latencyOrigin(const LocalItem& result) { return LatencyOrigin::event(result.number); }

/// Whether q3 reports sellers from this state.
constexpr bool isLocalState(std::string_view state) { return state == "OR" || state == "ID" || state == "CA"; }

/// What q3 needs of a person: every person, local or not, so that the join
/// knows which sellers can never match.
struct Seller {
  std::int64_t id = 0;
  bool local = false;
  std::string_view name;
  std::string_view city;
  std::string_view state;
  std::int64_t number = 0;
  auto fields() { return std::tie(id, local, name, city, state, number); }
};

/// What q3 needs of an auction of category 10.
struct ListedAuction {
  std::int64_t auction = 0;
  std::int64_t seller = 0;
  std::int64_t number = 0;
  auto fields() { return std::tie(auction, seller, number); }
};

/// The join, keyed by seller id: input 1 the sellers, input 2 their auctions.
class LocalItemJoin final : public KeyedCoProcessFunction<std::int64_t, Seller, ListedAuction, LocalItem> {
 public:
  void open() override;
  void processElement1(const Seller& seller, Context& ctx, Collector<LocalItem>& out) override;
  void processElement2(const ListedAuction& auction, Context& ctx, Collector<LocalItem>& out) override;

 private:
  static LocalItem pair(const Seller& seller, const ListedAuction& auction);

  ValueState<Seller>* seller_ = nullptr;                // set once the key's person arrived
  ListState<ListedAuction>* waiting_auctions_ = nullptr;  // auctions that came before their seller
};

DataStream<LocalItem> q3LocalItemSuggestion(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
