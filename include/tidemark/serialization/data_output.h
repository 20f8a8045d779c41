// DataOutput: the bytes a serializer writes, appended to one growing buffer.
//
// The format is fixed, whatever the machine: fixed-width numbers are
// little-endian, and lengths and counts are unsigned LEB128 varints (one
// byte below 128). Checkpoints written on one machine read on another.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace tidemark {

class DataOutput {
 public:
  /// An unsigned integer of exactly its width, little-endian.
  template <class U>
    requires std::is_unsigned_v<U>
  void writeFixed(U value) {
    for (std::size_t i = 0; i < sizeof(U); ++i) bytes_.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  }

  /// A signed integer, as its two's-complement bits.
  template <class S>
    requires std::is_signed_v<S> && std::is_integral_v<S>
  void writeFixed(S value) {
    writeFixed(static_cast<std::make_unsigned_t<S>>(value));
  }

  void writeFloat(float value) { writeFixed(std::bit_cast<std::uint32_t>(value)); }
  void writeDouble(double value) { writeFixed(std::bit_cast<std::uint64_t>(value)); }

  /// A length or count: 1 byte below 128, at most 10.
  void writeVarUint(std::uint64_t value) {
    while (value >= 0x80) {
      bytes_.push_back(static_cast<char>((value & 0x7F) | 0x80));
      value >>= 7;
    }
    bytes_.push_back(static_cast<char>(value));
  }

  /// Raw bytes, without their length (write it first when the reader needs it).
  void writeBytes(std::string_view bytes) { bytes_.append(bytes); }

  const std::string& bytes() const { return bytes_; }
  std::string takeBytes() { return std::move(bytes_); }
  std::size_t size() const { return bytes_.size(); }
  void clear() { bytes_.clear(); }

 private:
  std::string bytes_;
};

}  // namespace tidemark
