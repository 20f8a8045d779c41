#include "tidemark/serialization/data_input.h"

#include <algorithm>

#include <fmt/format.h>

namespace tidemark {

std::string_view DataInput::readBytes(std::size_t count, std::string_view what) {
  if (count > remaining()) {
    fail(what, fmt::format("needs {} byte{}, {} left of {}", count, count == 1 ? "" : "s", remaining(),
                           bytes_.size()));
  }
  const std::string_view view = bytes_.substr(position_, count);
  position_ += count;
  return view;
}

std::uint64_t DataInput::readVarUint(std::string_view what) {
  const std::size_t start = position_;
  std::uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const auto byte = static_cast<unsigned char>(readBytes(1, what)[0]);
    // The 10th byte may carry only the top bit of 64.
    if (shift == 63 && byte > 1) fail(what, "is a varint longer than 64 bits", start);
    value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  fail(what, "is a varint longer than 64 bits", start);
}

std::size_t DataInput::readCount(std::string_view what, std::size_t min_element_bytes) {
  const std::size_t start = position_;
  const std::uint64_t count = readVarUint(what);
  const std::uint64_t fits = remaining() / std::max<std::size_t>(min_element_bytes, 1);
  if (count > fits) {
    fail(what, fmt::format("claims {} elements, but only {} byte{} {} left", count, remaining(),
                           remaining() == 1 ? "" : "s", remaining() == 1 ? "is" : "are"), start);
  }
  return static_cast<std::size_t>(count);
}

void DataInput::expectEnd(std::string_view what) const {
  if (remaining() != 0) {
    throw SerializationError(fmt::format("{}: {} byte{} left over after offset {} of {}", what, remaining(),
                                         remaining() == 1 ? "" : "s", position_, bytes_.size()));
  }
}

void DataInput::fail(std::string_view what, std::string_view problem, std::size_t offset) const {
  throw SerializationError(fmt::format("{} at offset {} {}", what, offset, problem));
}

}  // namespace tidemark
