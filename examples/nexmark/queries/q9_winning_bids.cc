#include "q9_winning_bids.h"

namespace tidemark::nexmark {

DataStream<AuctionWinner> q9WinningBids(const DataStream<Event>& events) { return winningBids(events); }

}  // namespace tidemark::nexmark
