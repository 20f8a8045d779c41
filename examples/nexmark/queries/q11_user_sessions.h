// Q11, user sessions: how many bids each bidder made in each of their
// sessions, a session ending after 10 s of event time without a bid from
// them. Event-time session windows per bidder, merged as bids fill the gaps,
// released when the watermark passes a session's end. A bidder's bids of one
// millisecond are counted together before the shuffle (they always share a
// session), so that far fewer records reach the session windows.
#pragma once

#include <cstdint>
#include <ostream>

#include "nexmark/model.h"
#include "nexmark/query.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

/// A session ends this long after its last bid.
inline constexpr Duration kSessionGap = 10'000;

struct BidderSession {
  std::int64_t bidder = 0;
  std::int64_t bids = 0;
  Timestamp window_start = 0;  // the session's first bid
  Timestamp window_end = 0;    // its last bid + kSessionGap

  friend bool operator==(const BidderSession&, const BidderSession&) = default;
};

std::ostream& operator<<(std::ostream& os, const BidderSession& result);
/// The session is complete once the watermark passes its last instant.
inline LatencyOrigin latencyOrigin(const BidderSession& result) {
  return LatencyOrigin::watermark(result.window_end - 1);
}

DataStream<BidderSession> q11UserSessions(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
