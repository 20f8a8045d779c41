#include "tidemark/core/delimited_fields.h"

#include <stdexcept>

#include <fmt/format.h>

namespace tidemark::internal {
namespace {

/// A field's text as an error shows it: quoted, and cut when long.
std::string quoteField(std::string_view text) {
  constexpr std::size_t kShown = 100;
  if (text.size() <= kShown) return fmt::format("'{}'", text);
  return fmt::format("'{}...' ({} characters)", text.substr(0, kShown), text.size());
}

}  // namespace

void throwFieldCountError(std::size_t expected, std::size_t got, char delimiter) {
  throw std::invalid_argument(fmt::format("expected {} '{}'-separated fields, got {}", expected, delimiter, got));
}

void throwFieldError(std::string_view field, std::string_view text, std::string_view problem) {
  throw std::invalid_argument(fmt::format("field '{}': {} {}", field, quoteField(text), problem));
}

}  // namespace tidemark::internal
