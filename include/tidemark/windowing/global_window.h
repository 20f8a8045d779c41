// GlobalWindow: the one window per key that GlobalWindows puts every element
// into. It never ends, so its cleanup time is MAX and its state is only ever
// removed by a trigger that purges.
#pragma once

#include <ostream>
#include <tuple>

#include "tidemark/core/time.h"

namespace tidemark {

struct GlobalWindow {
  static GlobalWindow get() { return {}; }
  Timestamp maxTimestamp() const { return kMaxWatermark; }
  /// No fields: a snapshot writes it as one zero byte.
  auto fields() { return std::tie(); }

  friend bool operator==(const GlobalWindow&, const GlobalWindow&) = default;
  friend auto operator<=>(const GlobalWindow&, const GlobalWindow&) = default;
  template <class H>
  friend H AbslHashValue(H h, const GlobalWindow&) {
    return h;
  }
  friend std::ostream& operator<<(std::ostream& os, const GlobalWindow&) { return os << "GlobalWindow"; }
};

}  // namespace tidemark
