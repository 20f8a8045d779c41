// Q6, average selling price by seller: each time an auction closes with a
// winner, the average winning price of its seller's last 10 closed auctions
// (fewer while the seller has closed fewer; integer mean, truncated). "Last"
// is close order (expires, then auction id), the same at any parallelism.
#pragma once

#include <cstdint>
#include <ostream>

#include "nexmark/model.h"
#include "nexmark/query.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

struct SellerPrice {
  std::int64_t seller = 0;
  /// Mean winning price of the seller's last 10 auctions closed up to this one.
  std::int64_t average = 0;
  /// The auction whose closing produced this result, and when it expired.
  std::int64_t auction = 0;
  Timestamp expires = 0;

  friend bool operator==(const SellerPrice&, const SellerPrice&) = default;
};

std::ostream& operator<<(std::ostream& os, const SellerPrice& price);

/// Released by the timer at the auction's expiry time.
inline LatencyOrigin latencyOrigin(const SellerPrice& price) { return LatencyOrigin::watermark(price.expires); }

DataStream<SellerPrice> q6AverageSellingPriceBySeller(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
