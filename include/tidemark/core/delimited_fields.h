// splitFields and parseField: the common "user,url,1000" text line into
// typed fields, with errors that say which field is wrong and why.
//
//   const auto f = tidemark::splitFields<3>(line);  // views into `line`
//   Event e{std::string(f[0]), std::string(f[1]), tidemark::parseField<tidemark::Timestamp>(f[2], "timestamp")};
//
// A line with another number of fields throws std::invalid_argument
// ("expected 3 ','-separated fields, got 2"); a field that is not a T throws
// one naming it ("field 'timestamp': 'x' is not an integer"). Thrown inside
// a map or process function, the job's failure then names the operator and
// the line as well; or catch it and send the line to a side output. Numbers
// are read as std::from_chars reads them: no leading '+' or spaces, no hex.
#pragma once

#include <array>
#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace tidemark {

namespace internal {
[[noreturn]] void throwFieldCountError(std::size_t expected, std::size_t got, char delimiter);
[[noreturn]] void throwFieldError(std::string_view field, std::string_view text, std::string_view problem);
}  // namespace internal

/// The `N` fields of `line` between `delimiter`s, as views into `line`.
template <std::size_t N>
std::array<std::string_view, N> splitFields(std::string_view line, char delimiter = ',') {
  static_assert(N > 0, "a line has at least one field");
  std::array<std::string_view, N> fields;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < N; ++i) {
    const std::size_t end = line.find(delimiter, start);
    if (end == std::string_view::npos) internal::throwFieldCountError(N, i + 1, delimiter);
    fields[i] = line.substr(start, end - start);
    start = end + 1;
  }
  fields[N - 1] = line.substr(start);
  if (fields[N - 1].find(delimiter) != std::string_view::npos) {
    std::size_t got = N;
    for (char c : fields[N - 1]) got += c == delimiter;
    internal::throwFieldCountError(N, got, delimiter);
  }
  return fields;
}

/// `text` as a T: an integer, a floating-point number, or text (std::string
/// or std::string_view). `field` names it in the error.
template <class T>
T parseField(std::string_view text, std::string_view field) {
  if constexpr (std::is_same_v<T, std::string>) {
    return std::string(text);
  } else if constexpr (std::is_same_v<T, std::string_view>) {
    return text;
  } else {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>,
                  "parseField<T> reads integers, floating-point numbers and text");
    T value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc::result_out_of_range) internal::throwFieldError(field, text, "is out of range");
    if constexpr (std::is_unsigned_v<T>) {
      if (text.size() > 1 && text[0] == '-' && text[1] >= '0' && text[1] <= '9') {
        internal::throwFieldError(field, text, "is negative, and the field is unsigned");
      }
    }
    if (error != std::errc() || end != text.data() + text.size()) {
      internal::throwFieldError(field, text, std::is_integral_v<T> ? "is not an integer" : "is not a number");
    }
    return value;
  }
}

}  // namespace tidemark
