// DataInput: reads what a DataOutput wrote, checking every read against the
// bytes that are left. A truncated or corrupt input throws SerializationError
// naming what was read and the offset; a length field that claims more bytes
// than remain is refused before anything is allocated, so garbage can never
// make a reader ask for gigabytes.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "tidemark/serialization/serialization_error.h"

namespace tidemark {

class DataInput {
 public:
  explicit DataInput(std::string_view bytes) : bytes_(bytes) {}

  template <class U>
    requires std::is_unsigned_v<U>
  U readFixed(std::string_view what) {
    const std::string_view raw = readBytes(sizeof(U), what);
    U value = 0;
    for (std::size_t i = 0; i < sizeof(U); ++i) value |= static_cast<U>(static_cast<unsigned char>(raw[i])) << (8 * i);
    return value;
  }

  template <class S>
    requires std::is_signed_v<S> && std::is_integral_v<S>
  S readFixed(std::string_view what) {
    return static_cast<S>(readFixed<std::make_unsigned_t<S>>(what));
  }

  float readFloat(std::string_view what) { return std::bit_cast<float>(readFixed<std::uint32_t>(what)); }
  double readDouble(std::string_view what) { return std::bit_cast<double>(readFixed<std::uint64_t>(what)); }

  std::uint64_t readVarUint(std::string_view what);

  /// A count of elements that each take at least `min_element_bytes` (at
  /// least 1: 0 would let any count through): more than the remaining bytes
  /// can hold is corrupt, and refused now.
  std::size_t readCount(std::string_view what, std::size_t min_element_bytes = 1);

  /// The next `count` bytes, as a view into the input.
  std::string_view readBytes(std::size_t count, std::string_view what);

  std::size_t position() const { return position_; }
  std::size_t remaining() const { return bytes_.size() - position_; }
  /// Throws unless every byte was read: trailing bytes mean another type wrote them.
  void expectEnd(std::string_view what) const;

  /// Throw a SerializationError about the value that starts at `offset`.
  [[noreturn]] void fail(std::string_view what, std::string_view problem, std::size_t offset) const;
  /// The same, for the value at the current offset.
  [[noreturn]] void fail(std::string_view what, std::string_view problem) const { fail(what, problem, position_); }

 private:
  std::string_view bytes_;
  std::size_t position_ = 0;
};

}  // namespace tidemark
