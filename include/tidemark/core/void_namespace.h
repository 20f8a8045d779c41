// The namespace of state and timers that belong to a key only (not to a window).
#pragma once

#include <tuple>

namespace tidemark {

/// The single namespace value used by process functions; windows use the window.
struct VoidNamespace {
  /// No fields: snapshots write it as one zero byte (serialization/type_serializer.h).
  auto fields() { return std::tie(); }
  friend bool operator==(const VoidNamespace&, const VoidNamespace&) = default;
  template <class H>
  friend H AbslHashValue(H h, const VoidNamespace&) {
    return h;
  }
};

}  // namespace tidemark
