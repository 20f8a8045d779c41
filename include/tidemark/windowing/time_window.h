// TimeWindow: the half-open interval [start, end) of event or processing time
// that time-based assigners put elements into (docs/semantics.md 4.1).
//
// Contract:
// - start is inclusive, end exclusive; maxTimestamp() = end - 1 is the last
//   instant that belongs to the window, and what window results are stamped
//   with.
// - intersects() counts touching windows ([0,10) and [10,20)) as
//   intersecting: that is what lets session windows merge across a gap of
//   exactly the session gap.
// - getWindowStartWithOffset() floors to the grid offset + k * size, also for
//   negative timestamps.
//
// Example:
//   TimeWindow w{0, 10000};
//   w.maxTimestamp();                                      // 9999
//   TimeWindow::getWindowStartWithOffset(-1, 0, 10000);    // -10000
#pragma once

#include <algorithm>
#include <compare>
#include <ostream>
#include <string>

#include "tidemark/core/time.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark {

struct TimeWindow {
  Timestamp start = 0;
  Timestamp end = 0;

  Timestamp getStart() const { return start; }
  Timestamp getEnd() const { return end; }
  /// The largest timestamp that still belongs to the window.
  Timestamp maxTimestamp() const { return end - 1; }

  /// Whether the windows overlap or touch.
  bool intersects(const TimeWindow& other) const { return start <= other.end && end >= other.start; }
  /// The smallest window that contains both.
  TimeWindow cover(const TimeWindow& other) const {
    return TimeWindow{std::min(start, other.start), std::max(end, other.end)};
  }

  /// The start of the window of `size` (aligned to `offset`) that contains
  /// `timestamp`; the remainder is corrected so the result floors toward -inf.
  static constexpr Timestamp getWindowStartWithOffset(Timestamp timestamp, Duration offset, Duration size) {
    const Timestamp remainder = (timestamp - offset) % size;
    return remainder < 0 ? timestamp - (remainder + size) : timestamp - remainder;
  }

  friend bool operator==(const TimeWindow&, const TimeWindow&) = default;
  friend auto operator<=>(const TimeWindow&, const TimeWindow&) = default;

  template <class H>
  friend H AbslHashValue(H h, const TimeWindow& w) {
    return H::combine(std::move(h), w.start, w.end);
  }
  friend std::ostream& operator<<(std::ostream& os, const TimeWindow& w) {
    return os << "TimeWindow{start=" << w.start << ", end=" << w.end << '}';
  }
};

/// With the type, so that every translation unit that keeps state or timers
/// per window sees the same format (a window is a state namespace).
template <>
struct TypeSerializer<TimeWindow> {
  static void serialize(const TimeWindow& window, DataOutput& out) {
    out.writeFixed(window.start);
    out.writeFixed(window.end);
  }
  static TimeWindow deserialize(DataInput& in) {
    const Timestamp start = in.readFixed<Timestamp>("TimeWindow start");
    const Timestamp end = in.readFixed<Timestamp>("TimeWindow end");
    return TimeWindow{start, end};
  }
  static std::string signature() { return "TimeWindow{i64,i64}"; }
};

}  // namespace tidemark
