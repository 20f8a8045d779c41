// What the click-stream scenarios (S2, S3) share: the Event a line
// "user,url,timestamp" parses into, the parser, and script files
// ("<ms after start>,<line>" per line) that replace a built-in script (S4
// reads its login lines from such scripts too).
#pragma once

#include <fstream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "example_main.h"
#include "tidemark/tidemark.h"

namespace click_events {

struct Event {
  std::string user;
  std::string url;
  tidemark::Timestamp timestamp = 0;

  auto fields() { return std::tie(user, url, timestamp); }  // checkpointed in window and CEP state
  friend std::ostream& operator<<(std::ostream& os, const Event& e) {
    return os << "Event{user=" << e.user << ", url=" << e.url << ", timestamp=" << e.timestamp << '}';
  }
};

/// Parse a whole field as a millisecond timestamp; the error names the field.
inline tidemark::Timestamp parseTimestamp(const std::string& text) {
  std::size_t used = 0;
  tidemark::Timestamp timestamp = 0;
  try {
    timestamp = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw std::invalid_argument(fmt::format("timestamp '{}' is not an integer", text));
  }
  return timestamp;
}

/// Parse "user,url,timestamp"; the error says what is wrong with the line.
inline Event parseEvent(const std::string& line) {
  const auto first = line.find(',');
  const auto last = line.rfind(',');
  if (first == std::string::npos || first == last) {
    throw std::invalid_argument("expected 3 comma-separated fields (user,url,timestamp)");
  }
  return Event{line.substr(0, first), line.substr(first + 1, last - first - 1), parseTimestamp(line.substr(last + 1))};
}

using Script = tidemark::ScriptedSource<std::string>::Script;

/// Read a script file: one "<ms after start>,<line>" per line.
inline Script readScript(const std::string& path) {
  std::ifstream in = examples::openInput(path, "script");
  Script script;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto comma = line.find(',');
    try {
      if (comma == std::string::npos) throw std::invalid_argument("no comma");
      script.push_back({std::stoll(line.substr(0, comma)), line.substr(comma + 1), {}});
    } catch (const std::exception&) {
      throw std::runtime_error(fmt::format("{}:{}: expected '<ms>,<line>', got '{}'", path, number, line));
    }
  }
  return script;
}

}  // namespace click_events
