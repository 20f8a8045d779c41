// GlobalWindow: the one window per key that GlobalWindows puts every element
// into. It never ends, so its cleanup time is MAX and its state is only ever
// removed by a trigger that purges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>

#include "tidemark/core/time.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark {

struct GlobalWindow {
  static GlobalWindow get() { return {}; }
  Timestamp maxTimestamp() const { return kMaxWatermark; }

  friend bool operator==(const GlobalWindow&, const GlobalWindow&) = default;
  friend auto operator<=>(const GlobalWindow&, const GlobalWindow&) = default;
  template <class H>
  friend H AbslHashValue(H h, const GlobalWindow&) {
    return h;
  }
  friend std::ostream& operator<<(std::ostream& os, const GlobalWindow&) { return os << "GlobalWindow"; }
};

/// The one global window is a zero byte, as a value without fields is. With
/// the type, as TimeWindow's.
template <>
struct TypeSerializer<GlobalWindow> {
  static void serialize(const GlobalWindow&, DataOutput& out) { out.writeFixed(std::uint8_t{0}); }
  static GlobalWindow deserialize(DataInput& in) {
    const std::size_t offset = in.position();
    if (in.readFixed<std::uint8_t>("GlobalWindow") != 0) in.fail("GlobalWindow", "is not 0", offset);
    return GlobalWindow::get();
  }
  static std::string signature() { return "GlobalWindow"; }
};

}  // namespace tidemark
