// The list of queries the `tidemark nexmark` command runs, in order.
#include "query.h"
#include "queries/q0_pass_through.h"
#include "queries/q11_user_sessions.h"
#include "queries/q12_processing_time_windows.h"
#include "queries/q1_currency_conversion.h"
#include "queries/q2_selection.h"
#include "queries/q3_local_item_suggestion.h"
#include "queries/q4_average_price_by_category.h"
#include "queries/q5_hot_items.h"
#include "queries/q6_average_selling_price_by_seller.h"
#include "queries/q7_highest_bid.h"
#include "queries/q8_monitor_new_users.h"
#include "queries/q9_winning_bids.h"

namespace tidemark::nexmark {

const std::vector<Query>& allQueries() {
  static const std::vector<Query> queries = {
      makeQuery<Event>("q0", "pass-through", "every bid, unchanged", &q0PassThrough),
      makeQuery<Event>("q1", "currency conversion", "every bid with its price in euros", &q1CurrencyConversion),
      makeQuery<AuctionPrice>("q2", "selection", "bids on auctions whose id is a multiple of 123", &q2Selection),
      makeQuery<LocalItem>("q3", "local item suggestion",
                           "category-10 auctions of sellers in OR, ID or CA, joined as either side arrives",
                           &q3LocalItemSuggestion),
      makeQuery<CategoryPrice>("q4", "average price for a category",
                               "running average winning price per category, updated as each auction closes",
                               &q4AveragePriceByCategory),
      makeQuery<HotItem>("q5", "hot items", "auctions with the most bids in each 10 s window, every 2 s", &q5HotItems),
      makeQuery<SellerPrice>("q6", "average selling price by seller",
                             "average winning price of each seller's last 10 closed auctions, updated as each closes",
                             &q6AverageSellingPriceBySeller),
      makeQuery<HighestBid>("q7", "highest bid", "the bids with the highest price in each tumbling 10 s window",
                            &q7HighestBid),
      makeQuery<NewUser>("q8", "monitor new users",
                         "people who put up an auction in the 10 s window they registered in", &q8MonitorNewUsers),
      makeQuery<AuctionWinner>("q9", "winning bids", "the highest valid bid of each auction, released when it expires",
                               &q9WinningBids),
      makeQuery<BidderSession>("q11", "user sessions", "bids per bidder session (10 s gap of event time)",
                               &q11UserSessions),
      makeQuery<BidderCount>("q12", "processing-time windows", "bids per bidder in each 10 s of processing time",
                             &q12ProcessingTimeWindows),
  };
  return queries;
}

}  // namespace tidemark::nexmark
