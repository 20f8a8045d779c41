// The Nexmark records in checkpoints: each round-trips, and a restored text
// field points into the interned pool, not into the bytes it was read from.
#include "nexmark/model.h"

#include <gtest/gtest.h>

#include <string>

namespace tidemark::nexmark {
namespace {

TEST(NexmarkModelTest, ABidRoundTripsAndItsTextOutlivesTheBytesItWasReadFrom) {
  std::string url = "https://www.nexmark.com/abc/item.htm?query=1";
  const Bid bid{1000, 2001, 37, "Google", url, 12345, "padding"};
  std::string bytes = serializeToBytes(bid);
  const Bid restored = deserializeFromBytes<Bid>(bytes);
  bytes.assign(bytes.size(), '\0');
  url.assign(url.size(), 'x');
  EXPECT_EQ(restored.url, "https://www.nexmark.com/abc/item.htm?query=1");
  EXPECT_EQ(restored.channel, "Google");
  EXPECT_EQ(restored.extra, "padding");
  EXPECT_EQ(restored.price, 37);
  EXPECT_EQ(restored.date_time, 12345);
}

TEST(NexmarkModelTest, EqualTextsShareOneInternedCopy) {
  const std::string a = "Portland";
  const std::string b = "Portland";
  EXPECT_EQ(internText(a).data(), internText(b).data());
  EXPECT_NE(internText(a).data(), a.data());
}

TEST(NexmarkModelTest, PeopleAndAuctionsRoundTrip) {
  const Person person{7, "Walt Abrams", "walt@example.com", "1234 5678", "Boise", "ID", 99, ""};
  EXPECT_EQ(deserializeFromBytes<Person>(serializeToBytes(person)), person);
  const Auction auction{8, "item", "desc", 10, 20, 30, 40, 7, 10, "x"};
  EXPECT_EQ(deserializeFromBytes<Auction>(serializeToBytes(auction)), auction);
}

}  // namespace
}  // namespace tidemark::nexmark
