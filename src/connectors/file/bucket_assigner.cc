#include "tidemark/connectors/file/bucket_assigner.h"

#include <ctime>
#include <stdexcept>
#include <string_view>

namespace tidemark::internal {

namespace {

struct PatternLetters {
  std::string_view letters;
  std::string_view conversion;
};

constexpr PatternLetters kPatternLetters[] = {
    {"yyyy", "%Y"}, {"MM", "%m"}, {"dd", "%d"}, {"HH", "%H"}, {"mm", "%M"}, {"ss", "%S"},
};

/// "yyyy-MM-dd--HH" as "%Y-%m-%d--%H"; throws for a letter it does not know.
std::string strftimePattern(const std::string& pattern) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size();) {
    const std::string_view rest = std::string_view(pattern).substr(i);
    bool matched = false;
    for (const auto& [letters, conversion] : kPatternLetters) {
      if (rest.starts_with(letters)) {
        out += conversion;
        i += letters.size();
        matched = true;
        break;
      }
    }
    if (matched) continue;
    const char c = pattern[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      throw std::invalid_argument("DateTimeBucketAssigner: pattern '" + pattern + "' has '" + std::string(1, c) +
                                  "' at " + std::to_string(i) + "; only yyyy, MM, dd, HH, mm and ss are known");
    }
    if (c == '%') out += '%';
    out += c;
    ++i;
  }
  return out;
}

}  // namespace

DateTimeBucketFormat::DateTimeBucketFormat(const std::string& pattern) : strftime_pattern_(strftimePattern(pattern)) {}

const std::string& DateTimeBucketFormat::format(Timestamp time) {
  const Timestamp second = time >= 0 ? time / 1000 : (time - 999) / 1000;
  if (second == cached_second_) return cached_;
  const auto seconds = static_cast<std::time_t>(second);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[256];
  const std::size_t length = std::strftime(text, sizeof text, strftime_pattern_.c_str(), &utc);
  cached_.assign(text, length);
  cached_second_ = second;
  return cached_;
}

}  // namespace tidemark::internal
