// Turn any value into text for error messages and print sinks.
//
// A type that has `std::ostream& operator<<(std::ostream&, const T&)` prints
// with it; pairs and tuples print their fields; anything else is named by its
// type, so an error about an element of an unprintable type still says what
// kind of element it was. print() wants the real text, so it requires
// Describable at compile time.
#pragma once

#include <cstddef>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
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

template <class T>
concept StdTuple = requires { typename std::tuple_size<T>::type; } && !requires(const T& v) { v.first; };
}  // namespace internal

/// True when describeTo prints the value itself, not its type's name: it has
/// operator<<, or it is a pair or tuple of such values.
template <class T>
constexpr bool isDescribable() {
  if constexpr (Printable<T>) {
    return true;
  } else if constexpr (requires(const T& v) { v.first; v.second; }) {
    return isDescribable<std::remove_cvref_t<decltype(std::declval<const T&>().first)>>() &&
           isDescribable<std::remove_cvref_t<decltype(std::declval<const T&>().second)>>();
  } else if constexpr (internal::StdTuple<T>) {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (isDescribable<std::tuple_element_t<I, T>>() && ...);
    }(std::make_index_sequence<std::tuple_size_v<T>>{});
  } else {
    return false;
  }
}

template <class T>
concept Describable = isDescribable<T>();

/// Print `value` to `os`; pairs and tuples as "(a,b,c)", as Flink prints its
/// tuples; anything without operator<< as its type name in angle brackets.
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
  } else if constexpr (internal::StdTuple<T>) {
    os << '(';
    std::apply(
        [&os](const auto&... fields) {
          bool first = true;
          ((os << (first ? "" : ","), describeTo(os, fields), first = false), ...);
        },
        value);
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

namespace internal {

/// An ostream that keeps only the first `limit` characters written to it and
/// counts the rest, so describing a 20 MB record for an error message costs
/// a few hundred bytes, not another 20 MB.
class BoundedTextStream {
 public:
  explicit BoundedTextStream(std::size_t limit);
  ~BoundedTextStream();
  BoundedTextStream(const BoundedTextStream&) = delete;
  BoundedTextStream& operator=(const BoundedTextStream&) = delete;

  std::ostream& stream();
  /// 'text' in quotes; when cut, followed by the full size and what is shown.
  std::string quoted() const;

 private:
  class Buffer;
  struct State;
  State* state_;
};

/// Characters of an element that an error message shows.
inline constexpr std::size_t kDescribedElementChars = 200;

}  // namespace internal

/// How an error message names the element being processed: "element 'text'",
/// quoted (an empty line reads ''), and cut after
/// internal::kDescribedElementChars characters with the element's full size.
template <class T>
std::string describeElement(const T& value) {
  internal::BoundedTextStream text(internal::kDescribedElementChars);
  describeTo(text.stream(), value);
  return "element " + text.quoted();
}

}  // namespace tidemark
