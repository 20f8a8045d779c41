// The login events of scenario S4: what a line "user,ip,type,timestamp"
// parses into, and the parser (timestamps parse as in click_events.h).
#pragma once

#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "click_events.h"
#include "tidemark/tidemark.h"

namespace login_events {

struct LoginEvent {
  std::string user;
  std::string ip;
  std::string type;  // "fail" or "success"
  tidemark::Timestamp timestamp = 0;

  auto fields() { return std::tie(user, ip, type, timestamp); }  // checkpointed in CEP state
  friend std::ostream& operator<<(std::ostream& os, const LoginEvent& e) {
    return os << "LoginEvent{user=" << e.user << ", ip=" << e.ip << ", type=" << e.type
              << ", timestamp=" << e.timestamp << '}';
  }
};

/// Parse "user,ip,type,timestamp"; the error says what is wrong with the line.
inline LoginEvent parseLoginEvent(const std::string& line) {
  std::vector<std::string> fields;
  std::string::size_type from = 0;
  for (;;) {
    const auto comma = line.find(',', from);
    fields.push_back(line.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  if (fields.size() != 4) {
    throw std::invalid_argument(
        fmt::format("expected 4 comma-separated fields (user,ip,type,timestamp), got {}", fields.size()));
  }
  return LoginEvent{fields[0], fields[1], fields[2], click_events::parseTimestamp(fields[3])};
}

}  // namespace login_events
