// Time values shared by every layer: event timestamps, watermarks and
// processing time are all signed 64-bit milliseconds.
//
// kMinWatermark doubles as the "no timestamp" marker (as in Flink, where
// Long.MIN_VALUE plays that role): event-time windows refuse records that
// carry it. kMaxWatermark is the watermark a bounded input ends with; it
// fires every event-time timer.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>

namespace tidemark {

/// Milliseconds: an event timestamp, a watermark or a processing-time instant.
using Timestamp = std::int64_t;

/// The watermark before any data; also the "no timestamp" marker.
inline constexpr Timestamp kMinWatermark = std::numeric_limits<Timestamp>::min();
/// The watermark at the end of a bounded input.
inline constexpr Timestamp kMaxWatermark = std::numeric_limits<Timestamp>::max();

/// Milliseconds, used for intervals (sleep, buffer timeout, idleness).
using Duration = std::int64_t;

/// Add without wrapping: the result saturates at kMinWatermark / kMaxWatermark.
/// Timer arithmetic such as `currentWatermark() + 5000` from MIN must not wrap,
/// but Flink users expect MIN + 5000 to be MIN + 5000, so only true overflow
/// saturates.
constexpr Timestamp saturatingAdd(Timestamp t, Duration d) {
  Timestamp result = 0;
  if (__builtin_add_overflow(t, d, &result)) {
    return d > 0 ? kMaxWatermark : kMinWatermark;
  }
  return result;
}

/// A std::chrono duration in whole milliseconds (truncated toward zero), for
/// the API calls that accept either a Duration or a chrono duration.
template <class Rep, class Period>
constexpr Duration toMillis(std::chrono::duration<Rep, Period> d) {
  return static_cast<Duration>(std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
}

/// Whether a record/element is active or idle (it will not send watermarks for a
/// while, so downstream must not wait for it).
enum class WatermarkStatus { ACTIVE, IDLE };

}  // namespace tidemark
