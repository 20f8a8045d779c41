// Q4, average price for a category: each time an auction closes with a
// winner, the average winning price of all closed auctions of its category
// so far (integer mean, truncated). Per category the results come in close
// order (expires, then auction id) at any parallelism.
#pragma once

#include <cstdint>
#include <ostream>

#include "nexmark/model.h"
#include "nexmark/query.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

struct CategoryPrice {
  std::int64_t category = 0;
  /// Mean winning price of the category's auctions closed up to this one.
  std::int64_t average = 0;
  /// The auction whose closing produced this result, and when it expired.
  std::int64_t auction = 0;
  Timestamp expires = 0;

  friend bool operator==(const CategoryPrice&, const CategoryPrice&) = default;
};

std::ostream& operator<<(std::ostream& os, const CategoryPrice& price);

/// Released by the timer at the auction's expiry time.
inline LatencyOrigin latencyOrigin(const CategoryPrice& price) { return LatencyOrigin::watermark(price.expires); }

DataStream<CategoryPrice> q4AveragePriceByCategory(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
