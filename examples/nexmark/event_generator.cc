#include "event_generator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace tidemark::nexmark {
namespace {

constexpr std::array<std::string_view, 6> kStates = {"AZ", "CA", "ID", "OR", "WA", "WY"};
constexpr std::array<std::string_view, 10> kCities = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland",
                                                      "Bend",    "Redmond",     "Seattle",       "Kent",  "Cheyenne"};
constexpr std::array<std::string_view, 11> kFirstNames = {"Peter", "Paul",  "Luke",  "John",   "Saul",  "Vicky",
                                                          "Kate",  "Julie", "Sarah", "Deiter", "Walter"};
constexpr std::array<std::string_view, 9> kLastNames = {"Shultz", "Abrams", "Spencer", "White", "Bartels",
                                                        "Walton", "Smith",  "Jones",   "Noris"};
constexpr std::array<std::string_view, 4> kHotChannels = {"Google", "Facebook", "Baidu", "Apple"};

/// People are picked out of the last (id / kHotBatch) * kHotBatch: one hot
/// person or auction per batch of this many.
constexpr std::int64_t kHotBatch = 100;
/// How far ahead of the last created person or auction a reference may point.
constexpr std::int64_t kIdLead = 10;
constexpr std::size_t kPoolSize = 4096;
constexpr std::size_t kColdChannels = 1000;
constexpr std::size_t kLetterBlock = 1 << 16;
constexpr std::size_t kPriceSteps = 4096;

constexpr std::uint64_t splitMix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

/// Every string the generator hands out, made once per process from a fixed
/// seed (so they do not depend on the configured one).
struct EventGenerator::Tables {
  std::vector<std::string> names;
  std::vector<std::string> emails;
  std::vector<std::string> credit_cards;
  std::vector<std::string> cold_channels;
  std::vector<std::string> urls;  // kHotChannels.size() hot ones, then one per cold channel
  std::vector<Channel> channels;  // the same order as urls
  std::string letters;
  std::array<double, kPriceSteps + 1> prices{};  // 10^(6 k / kPriceSteps) * 100 cents

  Tables() {
    std::uint64_t state = 0x6e65786d61726bULL;
    auto next = [&state] { return splitMix(state += 0x9e3779b97f4a7c15ULL); };
    auto word = [&next](std::size_t length) {
      std::string s(length, 'a');
      for (char& c : s) c = static_cast<char>('a' + next() % 26);
      return s;
    };
    for (auto first : kFirstNames) {
      for (auto last : kLastNames) names.push_back(fmt::format("{} {}", first, last));
    }
    for (std::size_t i = 0; i < kPoolSize; ++i) {
      emails.push_back(fmt::format("{}@{}.com", word(7), word(5)));
      credit_cards.push_back(fmt::format("{:04} {:04} {:04} {:04}", next() % 10000, next() % 10000, next() % 10000,
                                         next() % 10000));
    }
    for (std::size_t i = 0; i < kHotChannels.size() + kColdChannels; ++i) {
      urls.push_back(fmt::format("https://www.nexmark.com/{}/{}/{}/item.htm?query=1", word(5), word(5), word(5)));
    }
    for (std::size_t i = 0; i < kColdChannels; ++i) cold_channels.push_back(fmt::format("channel-{}", i));
    for (std::size_t i = 0; i < urls.size(); ++i) {
      channels.push_back(Channel{i < kHotChannels.size() ? kHotChannels[i] : std::string_view(cold_channels[i - kHotChannels.size()]), urls[i]});
    }
    letters = word(kLetterBlock);
    for (std::size_t k = 0; k <= kPriceSteps; ++k) {
      prices[k] = std::pow(10.0, 6.0 * static_cast<double>(k) / kPriceSteps) * 100.0;
    }
  }
};

const EventGenerator::Tables& EventGenerator::sharedTables() {
  static const Tables instance;
  return instance;
}


/// A SplitMix64 stream seeded by (seed, event number). Small choices take
/// 32 random bits each, two per 64-bit draw: the generator makes a dozen
/// per event, and they are most of its cost.
class EventGenerator::Random {
 public:
  Random(std::uint64_t seed, const Tables& tables) : state_(seed), tables_(tables) {}

  std::uint64_t next64() { return splitMix(state_ += 0x9e3779b97f4a7c15ULL); }

  std::uint32_t next32() {
    if (spare_available_) {
      spare_available_ = false;
      return static_cast<std::uint32_t>(spare_ >> 32);
    }
    spare_ = next64();
    spare_available_ = true;
    return static_cast<std::uint32_t>(spare_);
  }

  /// Uniform in [0, bound), bound > 0 (multiply-shift; the bias is below
  /// bound / 2^32, or bound / 2^64 for bounds that need more than 32 bits).
  std::int64_t below(std::int64_t bound) {
    const auto b = static_cast<std::uint64_t>(bound);
    if (b <= 0xFFFFFFFFULL) return static_cast<std::int64_t>((std::uint64_t{next32()} * b) >> 32);
    __extension__ using Wide = unsigned __int128;
    return static_cast<std::int64_t>((static_cast<Wide>(next64()) * b) >> 64);
  }

  template <class Container>
  const auto& pick(const Container& items) {
    return items[static_cast<std::size_t>(below(static_cast<std::int64_t>(items.size())))];
  }

  /// The benchmark's price: 10^(6 u) * 100 cents for uniform u in [0, 1),
  /// i.e. log-uniform between $1 and $1,000,000. Interpolated in a table
  /// because std::pow per bid would cost more than the rest of the event.
  /// Uses the top 32 bits of `bits`; the low 32 are left for another choice.
  std::int64_t price(std::uint64_t bits) const {
    const std::size_t step = bits >> 52;  // top 12 bits
    const double fraction = static_cast<double>((bits >> 32) & 0xFFFFF) / 1048576.0;
    const auto& prices = tables_.prices;
    return static_cast<std::int64_t>(prices[step] + (prices[step + 1] - prices[step]) * fraction + 0.5);
  }
  std::int64_t price() { return price(next64()); }

  /// Uniform in [0, bound) from 32 given random bits.
  static std::int64_t scale(std::uint64_t bits32, std::int64_t bound) {
    return static_cast<std::int64_t>(((bits32 & 0xFFFFFFFFULL) * static_cast<std::uint64_t>(bound)) >> 32);
  }

  /// `length` random letters (length <= kLetterBlock / 2).
  std::string_view text(std::size_t length) {
    const std::string& letters = tables_.letters;
    const auto offset = static_cast<std::size_t>(scale(next32(), static_cast<std::int64_t>(letters.size() - length)));
    return std::string_view(letters.data() + offset, length);
  }

  /// Padding that brings a record of `current_size` bytes to `average_size` on average.
  std::string_view extra(std::int64_t current_size, std::int64_t average_size) {
    if (current_size >= average_size) return {};
    const std::int64_t wanted = average_size - current_size;
    const std::int64_t delta = (wanted + 2) / 5;  // round(wanted * 0.2)
    const std::int64_t length = wanted - delta + (delta == 0 ? 0 : below(2 * delta));
    return text(static_cast<std::size_t>(length));
  }

 private:
  std::uint64_t state_;
  std::uint64_t spare_ = 0;
  bool spare_available_ = false;
  const Tables& tables_;
};

EventGenerator::EventGenerator(const GeneratorConfig& config)
    : config_(config),
      total_proportion_(config.totalProportion()),
      group_reciprocal_(total_proportion_ > 0 ? ~std::uint64_t{0} / static_cast<std::uint64_t>(total_proportion_) + 1
                                              : 0),
      tables_(&sharedTables()) {
  if (config.events_per_second <= 0) throw std::invalid_argument("GeneratorConfig: events_per_second must be > 0");
  if (config.max_out_of_orderness < 0) throw std::invalid_argument("GeneratorConfig: max_out_of_orderness must be >= 0");
  if (config.person_proportion <= 0 || config.auction_proportion <= 0 || config.bid_proportion <= 0) {
    throw std::invalid_argument("GeneratorConfig: every proportion must be > 0");
  }
  if (config.num_active_people <= 0 || config.num_in_flight_auctions <= 0 || config.hot_auction_ratio <= 0 ||
      config.hot_sellers_ratio <= 0 || config.hot_bidders_ratio <= 0 || config.hot_channels_ratio <= 0) {
    throw std::invalid_argument("GeneratorConfig: counts and hot ratios must be > 0");
  }
  constexpr auto kMaxAverage = static_cast<std::int64_t>(kLetterBlock / 2);
  if (std::max({config.avg_person_bytes, config.avg_auction_bytes, config.avg_bid_bytes}) > kMaxAverage) {
    throw std::invalid_argument("GeneratorConfig: average record sizes must be at most 32 KiB");
  }
}

EventGenerator::Position EventGenerator::positionOf(std::int64_t n) const {
  __extension__ using Wide = unsigned __int128;
  auto group = static_cast<std::int64_t>((static_cast<Wide>(n) * group_reciprocal_) >> 64);
  std::int64_t offset = n - group * total_proportion_;
  // The reciprocal is rounded up, so the quotient can be one too large.
  if (offset < 0) {
    --group;
    offset += total_proportion_;
  }
  return Position{n, group, offset};
}

const EventGenerator::Channel& EventGenerator::channelOf(std::uint64_t bits) const {
  // One draw over ratio * hot * cold slots: the first (ratio - 1) * hot * cold
  // are the hot channels in turn, the rest the cold ones in blocks of `hot`.
  constexpr auto kHot = static_cast<std::int64_t>(kHotChannels.size());
  constexpr auto kSlots = kHot * static_cast<std::int64_t>(kColdChannels);
  const std::int64_t hot_slots = (config_.hot_channels_ratio - 1) * kSlots;
  const std::int64_t slot = Random::scale(bits, config_.hot_channels_ratio * kSlots);
  const std::int64_t index = slot < hot_slots ? slot % kHot : kHot + (slot - hot_slots) / kHot;
  return tables_->channels[static_cast<std::size_t>(index)];
}

std::int64_t EventGenerator::firstEventAtOrAfter(Timestamp t) const {
  const std::int64_t since_base = t - config_.base_time;
  if (since_base <= 0) return 0;
  // nominalTime(n) >= t  <=>  n * 1000 >= since_base * rate.
  return (since_base * config_.events_per_second + 999) / 1000;
}

std::int64_t EventGenerator::lastBase0PersonId(const Position& at) const {
  return at.group * config_.person_proportion + std::min(at.offset, config_.person_proportion - 1);
}

std::int64_t EventGenerator::lastBase0AuctionId(const Position& at) const {
  std::int64_t epoch = at.group;
  std::int64_t offset = at.offset;
  if (offset < config_.person_proportion) {
    // A person: the last auction is the previous group's last.
    --epoch;
    offset = config_.auction_proportion - 1;
  } else if (offset >= config_.person_proportion + config_.auction_proportion) {
    // A bid: the last auction is this group's last.
    offset = config_.auction_proportion - 1;
  } else {
    offset -= config_.person_proportion;
  }
  return epoch * config_.auction_proportion + offset;
}

std::int64_t EventGenerator::nextBase0PersonId(const Position& at, Random& random) const {
  const std::int64_t people = lastBase0PersonId(at) + 1;
  const std::int64_t active = std::min(people, config_.num_active_people);
  return people - active + random.below(active + kIdLead);
}

std::int64_t EventGenerator::nextBase0AuctionId(const Position& at, Random& random) const {
  const std::int64_t last = lastBase0AuctionId(at);
  const std::int64_t first = std::max<std::int64_t>(last - config_.num_in_flight_auctions, 0);
  return first + random.below(std::max<std::int64_t>(last - first + 1, 0) + kIdLead);
}

Duration EventGenerator::nextAuctionLength(const Position& at, Timestamp nominal_time, Random& random) const {
  // Long enough that about num_in_flight_auctions are open at once: on
  // average the time it takes to create that many more.
  const std::int64_t events_for_auctions =
      config_.num_in_flight_auctions * config_.totalProportion() / config_.auction_proportion;
  const Duration horizon = nominalTime(at.n + events_for_auctions) - nominal_time;
  return 1 + random.below(std::max<Duration>(horizon * 2, 1));
}

Person EventGenerator::makePerson(const Position& at, Timestamp date_time, Random& random) const {
  const Tables& t = *tables_;
  Person person;
  person.id = lastBase0PersonId(at) + kFirstPersonId;
  person.name = random.pick(t.names);
  person.email_address = random.pick(t.emails);
  person.credit_card = random.pick(t.credit_cards);
  person.city = random.pick(kCities);
  person.state = random.pick(kStates);
  person.date_time = date_time;
  const auto size = 8 + person.name.size() + person.email_address.size() + person.credit_card.size() +
                    person.city.size() + person.state.size() + 8;
  person.extra = random.extra(static_cast<std::int64_t>(size), config_.avg_person_bytes);
  return person;
}

Auction EventGenerator::makeAuction(const Position& at, Timestamp nominal_time, Timestamp date_time,
                                    Random& random) const {
  Auction auction;
  auction.id = lastBase0AuctionId(at) + kFirstAuctionId;
  const std::int64_t seller = random.below(config_.hot_sellers_ratio) > 0
                                  ? (lastBase0PersonId(at) / kHotBatch) * kHotBatch
                                  : nextBase0PersonId(at, random);
  auction.seller = seller + kFirstPersonId;
  auction.category = kFirstCategoryId + random.below(kNumCategories);
  auction.initial_bid = random.price();
  auction.date_time = date_time;
  auction.expires = date_time + nextAuctionLength(at, nominal_time, random);
  auction.item_name = random.text(20);
  auction.description = random.text(100);
  auction.reserve = auction.initial_bid + random.price();
  const auto size = 8 + auction.item_name.size() + auction.description.size() + 8 * 7;
  auction.extra = random.extra(static_cast<std::int64_t>(size), config_.avg_auction_bytes);
  return auction;
}

Bid EventGenerator::makeBid(const Position& at, Timestamp date_time, Random& random) const {
  // Three 64-bit draws make a bid (a fourth or fifth for a cold auction or
  // bidder): the draws are most of the generator's cost.
  const std::uint64_t choices = random.next64();
  const std::uint64_t price_and_channel = random.next64();
  Bid bid;
  const std::int64_t auction = Random::scale(choices, config_.hot_auction_ratio) > 0
                                   ? (lastBase0AuctionId(at) / kHotBatch) * kHotBatch
                                   : nextBase0AuctionId(at, random);
  bid.auction = auction + kFirstAuctionId;
  // The hot bidder is the second person of a batch, so that hot bidders and
  // hot sellers are different people.
  const std::int64_t bidder = Random::scale(choices >> 32, config_.hot_bidders_ratio) > 0
                                  ? (lastBase0PersonId(at) / kHotBatch) * kHotBatch + 1
                                  : nextBase0PersonId(at, random);
  bid.bidder = bidder + kFirstPersonId;
  bid.price = random.price(price_and_channel);
  const Channel& channel = channelOf(price_and_channel);
  bid.channel = channel.name;
  bid.url = channel.url;
  bid.date_time = date_time;
  bid.extra = random.extra(8 * 4, config_.avg_bid_bytes);
  return bid;
}

Event EventGenerator::generate(std::int64_t n, Timestamp nominal_time) const {
  Random random(splitMix(config_.seed ^ (static_cast<std::uint64_t>(n) * 0xd1342543de82ef95ULL)), *tables_);
  const Timestamp date_time = config_.max_out_of_orderness == 0
                                  ? nominal_time
                                  : nominal_time - random.below(config_.max_out_of_orderness + 1);
  const Position at = positionOf(n);
  if (at.offset >= config_.person_proportion + config_.auction_proportion) {
    return Event{n, makeBid(at, date_time, random)};
  }
  if (at.offset >= config_.person_proportion) return Event{n, makeAuction(at, nominal_time, date_time, random)};
  return Event{n, makePerson(at, date_time, random)};
}

}  // namespace tidemark::nexmark
