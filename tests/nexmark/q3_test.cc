#include "nexmark/queries/q3_local_item_suggestion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string_view>
#include <tuple>
#include <vector>

#include "nexmark_test_support.h"
#include "tidemark/testing/two_input_harness.h"

namespace tidemark::nexmark {
namespace {

using testing::generateEvents;
using testing::runQuery;
using testing::smallConfig;
using testing::sorted;

constexpr std::int64_t kEvents = 50'000;

bool byAuction(const LocalItem& a, const LocalItem& b) {
  return std::tie(a.auction, a.number) < std::tie(b.auction, b.number);
}

struct Expected {
  std::vector<LocalItem> results;  // sorted by auction
  std::int64_t person_first = 0;   // pairs whose person came before the auction
  std::int64_t auction_first = 0;
};

/// Every (person in OR/ID/CA, auction of category 10 they sell) among the
/// events, whichever came first.
Expected bruteForce(const std::vector<Event>& events) {
  std::map<std::int64_t, const Event*> people;
  for (const Event& event : events) {
    if (const Person* person = event.person()) people[person->id] = &event;
  }
  Expected expected;
  for (const Event& event : events) {
    const Auction* auction = event.auction();
    if (auction == nullptr || auction->category != 10) continue;
    const auto found = people.find(auction->seller);
    if (found == people.end()) continue;
    const Person& seller = *found->second->person();
    if (seller.state != "OR" && seller.state != "ID" && seller.state != "CA") continue;
    const std::int64_t person_number = found->second->number;
    expected.results.push_back(
        {seller.name, seller.city, seller.state, auction->id, std::max(person_number, event.number)});
    ++(person_number < event.number ? expected.person_first : expected.auction_first);
  }
  std::sort(expected.results.begin(), expected.results.end(), byAuction);
  return expected;
}

TEST(Q3LocalItemSuggestionTest, JoinsLocalSellersWithTheirAuctionsInEitherOrderAtParallelismOneAndTwo) {
  const Expected expected = bruteForce(generateEvents(smallConfig(), kEvents));
  ASSERT_GE(expected.results.size(), 200u);
  // Both halves of the join get to be the second one.
  ASSERT_GE(expected.person_first, 10);
  ASSERT_GE(expected.auction_first, 3);

  EXPECT_EQ(sorted(runQuery(&q3LocalItemSuggestion, smallConfig(), kEvents, 1), byAuction), expected.results);
  EXPECT_EQ(sorted(runQuery(&q3LocalItemSuggestion, smallConfig(), kEvents, 2), byAuction), expected.results);
}

/// The join function alone, driven by hand, to look at its state.
class LocalItemJoinTest : public ::testing::Test {
 protected:
  using Operator = internal::KeyedCoProcessOperator<std::int64_t, Seller, ListedAuction, LocalItem,
                                                    std::function<std::int64_t(const Seller&)>,
                                                    std::function<std::int64_t(const ListedAuction&)>>;

  LocalItemJoinTest()
      : harness_(std::make_unique<Operator>(
            std::make_unique<LocalItemJoin>(), [](const Seller& seller) { return seller.id; },
            [](const ListedAuction& auction) { return auction.seller; })) {
    harness_.open();
  }

  static Seller person(std::int64_t id, std::string_view state, std::int64_t number) {
    return Seller{id, isLocalState(state), "Alice", "Boise", state, number};
  }

  std::vector<LocalItem> results() { return harness_.getOutput().values(); }

  TwoInputStreamOperatorTestHarness<Seller, ListedAuction, LocalItem> harness_;
};

TEST_F(LocalItemJoinTest, PairsALocalSellerWithAuctionsBeforeAndAfterThem) {
  harness_.processElement2(ListedAuction{2001, 1000, 5});
  harness_.processElement2(ListedAuction{2002, 1000, 6});
  EXPECT_TRUE(results().empty());
  harness_.processElement1(person(1000, "ID", 7));
  harness_.processElement2(ListedAuction{2003, 1000, 9});
  EXPECT_EQ(results(), (std::vector<LocalItem>{{"Alice", "Boise", "ID", 2001, 7},
                                               {"Alice", "Boise", "ID", 2002, 7},
                                               {"Alice", "Boise", "ID", 2003, 9}}));
  // The seller stays (later auctions match), the waiting auctions are gone.
  EXPECT_EQ(harness_.numKeyedStateEntries(), 1u);
}

TEST_F(LocalItemJoinTest, ForgetsTheAuctionsOfASellerFromElsewhere) {
  harness_.processElement2(ListedAuction{2001, 1000, 5});
  EXPECT_EQ(harness_.numKeyedStateEntries(), 1u);
  harness_.processElement1(person(1000, "WA", 7));
  harness_.processElement2(ListedAuction{2002, 1000, 9});
  harness_.processElement2(ListedAuction{2003, 1000, 11});
  EXPECT_TRUE(results().empty());
  // Only the fact that seller 1000 is not local remains.
  EXPECT_EQ(harness_.numKeyedStateEntries(), 1u);
}

TEST(LocalItemTest, PrintsOneReadableLineAndMeasuresLatencyFromTheLaterEvent) {
  std::ostringstream line;
  line << LocalItem{"Alice", "Boise", "ID", 2001, 7};
  EXPECT_EQ(line.str(), "LocalItem{name=Alice, city=Boise, state=ID, auction=2001, number=7}");
  EXPECT_EQ(latencyOrigin(LocalItem{"Alice", "Boise", "ID", 2001, 7}).value, 7);
  EXPECT_EQ(latencyOrigin(LocalItem{"Alice", "Boise", "ID", 2001, 7}).kind, LatencyOrigin::Kind::kEvent);
}

}  // namespace
}  // namespace tidemark::nexmark
