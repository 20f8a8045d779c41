// Turn any value into text for error messages and print sinks.
//
// A type that has `std::ostream& operator<<(std::ostream&, const T&)` prints
// with it; anything else is named by its type, so an error about an element
// of an unprintable type still says what kind of element it was.
#pragma once

#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>

namespace tidemark {

/// True when `os << value` compiles.
template <class T>
concept Printable = requires(std::ostream& os, const T& value) {
  { os << value } -> std::convertible_to<std::ostream&>;
};

namespace internal {
std::string demangle(const char* mangled_name);
}  // namespace internal

/// Print `value` to `os`, or its type name in angle brackets when unprintable.
template <class T>
void describeTo(std::ostream& os, const T& value) {
  if constexpr (Printable<T>) {
    os << value;
  } else if constexpr (requires { value.first; value.second; }) {
    os << '(';
    describeTo(os, value.first);
    os << ',';
    describeTo(os, value.second);
    os << ')';
  } else {
    os << '<' << internal::demangle(typeid(T).name()) << '>';
  }
}

/// The text of `value` (see describeTo).
template <class T>
std::string describe(const T& value) {
  std::ostringstream os;
  describeTo(os, value);
  return os.str();
}

}  // namespace tidemark
