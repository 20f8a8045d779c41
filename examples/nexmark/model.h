// The three Nexmark record types and the event that carries one of them.
//
// Nexmark models an online auction: people register (Person), put items up
// for auction (Auction) and bid on them (Bid). Field meanings follow the
// benchmark: ids start at 1000, prices are in cents, dateTime is the event
// time in milliseconds, an auction is open from its dateTime until `expires`.
//
// Every text field is a std::string_view into tables the generator builds
// once (see event_generator.h), so a record is trivially copyable and making,
// copying or dropping one never allocates.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <tuple>
#include <variant>

#include "tidemark/core/time.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::nexmark {

struct Person {
  std::int64_t id = 0;
  std::string_view name;
  std::string_view email_address;
  std::string_view credit_card;
  std::string_view city;
  std::string_view state;
  Timestamp date_time = 0;
  std::string_view extra;

  auto fields() { return std::tie(id, name, email_address, credit_card, city, state, date_time, extra); }
  friend bool operator==(const Person&, const Person&) = default;
};

struct Auction {
  std::int64_t id = 0;
  std::string_view item_name;
  std::string_view description;
  std::int64_t initial_bid = 0;
  std::int64_t reserve = 0;
  Timestamp date_time = 0;
  Timestamp expires = 0;
  std::int64_t seller = 0;
  std::int64_t category = 0;
  std::string_view extra;

  auto fields() {
    return std::tie(id, item_name, description, initial_bid, reserve, date_time, expires, seller, category, extra);
  }
  friend bool operator==(const Auction&, const Auction&) = default;
};

struct Bid {
  std::int64_t auction = 0;
  std::int64_t bidder = 0;
  std::int64_t price = 0;
  std::string_view channel;
  std::string_view url;
  Timestamp date_time = 0;
  std::string_view extra;

  auto fields() { return std::tie(auction, bidder, price, channel, url, date_time, extra); }
  friend bool operator==(const Bid&, const Bid&) = default;
};

/// One generated event. `number` is its position in the generated sequence
/// (0, 1, 2, ...): the generator derives every field from it, and a
/// rate-limited run schedules the event's creation by it, which is what
/// latency is measured from.
struct Event {
  std::int64_t number = 0;
  std::variant<Person, Auction, Bid> payload;

  const Person* person() const { return std::get_if<Person>(&payload); }
  const Auction* auction() const { return std::get_if<Auction>(&payload); }
  const Bid* bid() const { return std::get_if<Bid>(&payload); }
  Timestamp dateTime() const {
    return std::visit([](const auto& record) { return record.date_time; }, payload);
  }

  friend bool operator==(const Event&, const Event&) = default;
};

std::ostream& operator<<(std::ostream& os, const Person& person);
std::ostream& operator<<(std::ostream& os, const Auction& auction);
std::ostream& operator<<(std::ostream& os, const Bid& bid);
std::ostream& operator<<(std::ostream& os, const Event& event);

/// `text` kept for as long as the process runs, once per distinct text:
/// where a restored record's text fields point (see TypeSerializer<std::string_view>).
std::string_view internText(std::string_view text);

}  // namespace tidemark::nexmark

namespace tidemark {

/// The Nexmark records' text fields are views into the generator's tables.
/// A checkpoint holds their characters; a restore interns them
/// (nexmark::internText), so a restored view stays valid. Only the Nexmark
/// model declares this: elsewhere a view in state would dangle after a restore.
template <>
struct TypeSerializer<std::string_view> {
  static void serialize(std::string_view text, DataOutput& out) {
    out.writeVarUint(text.size());
    out.writeBytes(text);
  }
  static std::string_view deserialize(DataInput& in) {
    const std::size_t size = in.readCount("text length");
    return nexmark::internText(in.readBytes(size, "text"));
  }
  static std::string signature() { return "nexmark-text"; }
};

}  // namespace tidemark

