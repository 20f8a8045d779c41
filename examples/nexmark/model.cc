#include "model.h"

#include <mutex>
#include <string>
#include <unordered_set>

namespace tidemark::nexmark {

std::ostream& operator<<(std::ostream& os, const Person& p) {
  return os << "Person{id=" << p.id << ", name=" << p.name << ", emailAddress=" << p.email_address
            << ", creditCard=" << p.credit_card << ", city=" << p.city << ", state=" << p.state
            << ", dateTime=" << p.date_time << '}';
}

std::ostream& operator<<(std::ostream& os, const Auction& a) {
  return os << "Auction{id=" << a.id << ", itemName=" << a.item_name << ", initialBid=" << a.initial_bid
            << ", reserve=" << a.reserve << ", dateTime=" << a.date_time << ", expires=" << a.expires
            << ", seller=" << a.seller << ", category=" << a.category << '}';
}

std::ostream& operator<<(std::ostream& os, const Bid& b) {
  return os << "Bid{auction=" << b.auction << ", bidder=" << b.bidder << ", price=" << b.price
            << ", channel=" << b.channel << ", dateTime=" << b.date_time << '}';
}

std::ostream& operator<<(std::ostream& os, const Event& e) {
  os << "#" << e.number << ' ';
  std::visit([&os](const auto& record) { os << record; }, e.payload);
  return os;
}

std::string_view internText(std::string_view text) {
  static std::mutex mutex;
  // Never destroyed: restored records may point into it until the process ends.
  static auto* pool = new std::unordered_set<std::string>();
  std::lock_guard<std::mutex> lock(mutex);
  return *pool->emplace(text).first;
}

}  // namespace tidemark::nexmark
