// Q9, winning bids: every auction with its winning bid (the highest valid
// one; ties go to the earlier bid), released when the auction expires.
// The logic lives in winning_bids.h, which q4 and q6 build on as well.
#pragma once

#include "nexmark/model.h"
#include "nexmark/queries/winning_bids.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

DataStream<AuctionWinner> q9WinningBids(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
