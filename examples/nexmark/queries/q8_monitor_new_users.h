// Q8, monitor new users: the people who registered and put up an auction
// in the same tumbling 10 s window.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>

#include "nexmark/model.h"
#include "nexmark/query.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

inline constexpr Duration kNewUsersWindowSize = 10'000;

/// A person who registered in the window that starts at `window_start` and
/// sold at least one item in it.
struct NewUser {
  std::int64_t id = 0;
  std::string_view name;
  Timestamp window_start = 0;

  friend bool operator==(const NewUser&, const NewUser&) = default;
};

std::ostream& operator<<(std::ostream& os, const NewUser& user);

/// Known once the watermark passes the window's last millisecond.
inline LatencyOrigin latencyOrigin(const NewUser& user) {
  return LatencyOrigin::watermark(user.window_start + kNewUsersWindowSize - 1);
}

DataStream<NewUser> q8MonitorNewUsers(const DataStream<Event>& events);

}  // namespace tidemark::nexmark
