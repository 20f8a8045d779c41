#include "q3_local_item_suggestion.h"

#include <algorithm>

namespace tidemark::nexmark {

namespace {

constexpr std::int64_t kCategory = 10;

}  // namespace

std::ostream& operator<<(std::ostream& os, const LocalItem& result) {
  return os << "LocalItem{name=" << result.name << ", city=" << result.city << ", state=" << result.state
            << ", auction=" << result.auction << ", number=" << result.number << '}';
}

void LocalItemJoin::open() {
  seller_ = &getRuntimeContext().getState(ValueStateDescriptor<Seller>("seller"));
  waiting_auctions_ = &getRuntimeContext().getListState(ListStateDescriptor<ListedAuction>("waiting auctions"));
}

void LocalItemJoin::processElement1(const Seller& seller, Context&, Collector<LocalItem>& out) {
  // A person id occurs once, so this is the only time the key's waiting
  // auctions can be resolved: pair them or drop them, and forget them.
  if (seller.local) {
    for (const ListedAuction& auction : waiting_auctions_->get()) out.collect(pair(seller, auction));
  }
  waiting_auctions_->clear();
  seller_->update(seller);
}

void LocalItemJoin::processElement2(const ListedAuction& auction, Context&, Collector<LocalItem>& out) {
  if (const auto seller = seller_->value()) {
    if (seller->local) out.collect(pair(*seller, auction));
    return;  // a seller from elsewhere: this auction can never match
  }
  waiting_auctions_->add(auction);
}

LocalItem LocalItemJoin::pair(const Seller& seller, const ListedAuction& auction) {
  return LocalItem{seller.name, seller.city, seller.state, auction.auction, std::max(seller.number, auction.number)};
}

DataStream<LocalItem> q3LocalItemSuggestion(const DataStream<Event>& events) {
  auto sellers = events
                     .flatMap<Seller>([](const Event& event, Collector<Seller>& out) {
                       if (const Person* person = event.person()) {
                         out.collect(Seller{person->id, isLocalState(person->state), person->name, person->city,
                                            person->state, event.number});
                       }
                     })
                     .name("q3: people");
  auto auctions = events
                      .flatMap<ListedAuction>([](const Event& event, Collector<ListedAuction>& out) {
                        const Auction* auction = event.auction();
                        if (auction != nullptr && auction->category == kCategory) {
                          out.collect(ListedAuction{auction->id, auction->seller, event.number});
                        }
                      })
                      .name("q3: auctions of category 10");
  return sellers.keyBy([](const Seller& seller) { return seller.id; })
      .connect(auctions.keyBy([](const ListedAuction& auction) { return auction.seller; }))
      .process(LocalItemJoin{})
      .name("q3: join sellers and auctions");
}

}  // namespace tidemark::nexmark
