#include "nexmark/queries/q1_currency_conversion.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "nexmark/event_generator.h"
#include "nexmark/reference/q1_reference.h"
#include "nexmark_test_support.h"

namespace tidemark::nexmark {
namespace {

using testing::generateEvents;
using testing::runQuery;
using testing::smallConfig;
using testing::sorted;

constexpr std::int64_t kEvents = 30'000;

/// Every bid with its price times 0.908, truncated; in event order.
std::vector<Event> bruteForce(const std::vector<Event>& events) {
  std::vector<Event> expected;
  for (const Event& event : events) {
    if (const Bid* bid = event.bid()) {
      Bid euros = *bid;
      euros.price = bid->price * 908 / 1000;
      expected.push_back(Event{event.number, euros});
    }
  }
  return expected;
}

bool byNumber(const Event& a, const Event& b) { return a.number < b.number; }

TEST(Q1CurrencyConversionTest, ConvertsEveryBidAndNothingElseAtParallelismOneAndTwo) {
  const auto expected = bruteForce(generateEvents(smallConfig(), kEvents));
  ASSERT_GT(expected.size(), 25'000u);
  // The conversion changes prices, so a pass-through would not pass.
  const auto original = generateEvents(smallConfig(), kEvents);
  ASSERT_NE(original[expected[0].number].bid()->price, expected[0].bid()->price);

  // One subtask keeps the source's order.
  EXPECT_EQ(runQuery(&q1CurrencyConversion, smallConfig(), kEvents, 1), expected);
  EXPECT_EQ(sorted(runQuery(&q1CurrencyConversion, smallConfig(), kEvents, 2), byNumber), expected);
}

TEST(Q1CurrencyConversionTest, ConvertsAtTheFixedRateTruncatingToWholeCents) {
  // 101 * 0.908 = 91.708 -> 91; 1000 * 0.908 = 908 exactly.
  EXPECT_EQ(dollarsToEuros(101), 91);
  EXPECT_EQ(dollarsToEuros(1000), 908);
  EXPECT_EQ(dollarsToEuros(100'000'000), 90'800'000);
}

TEST(Q1ReferenceTest, MatchesTheBruteForce) {
  const GeneratorConfig config = smallConfig();
  std::vector<Event> results;
  q1Reference(EventGenerator(config), kEvents, [&results](const Event& event) { results.push_back(event); });
  EXPECT_EQ(results, bruteForce(generateEvents(config, kEvents)));
}

TEST(Q1ReferenceTest, MatchesTheBruteForceWhenGroupsAndMillisecondsDoNotAlign) {
  // 3,000 events per second (3 per ms) and another mix of record kinds, so
  // the reference's incremental offset and millisecond tracking are tested
  // off the default grid.
  GeneratorConfig config = smallConfig();
  config.events_per_second = 3000;
  config.base_time = 1234;
  config.person_proportion = 2;
  config.auction_proportion = 5;
  config.bid_proportion = 13;
  std::vector<Event> results;
  q1Reference(EventGenerator(config), 5000, [&results](const Event& event) { results.push_back(event); });
  const auto expected = bruteForce(generateEvents(config, 5000));
  ASSERT_EQ(expected.size(), 5000u * 13 / 20);
  EXPECT_EQ(results, expected);
}

}  // namespace
}  // namespace tidemark::nexmark
