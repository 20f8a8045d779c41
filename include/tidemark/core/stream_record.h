// A record as it flows between operators: the user's value and its event timestamp.
#pragma once

#include <optional>
#include <utility>

#include "tidemark/core/time.h"

namespace tidemark {

/// A user value with an optional event timestamp.
///
/// "No timestamp" is kept as a flag rather than a magic value so that a record
/// may legitimately carry kMinWatermark... except that event-time windows
/// refuse it, as Flink does.
template <class T>
struct StreamRecord {
  T value;
  Timestamp timestamp = kMinWatermark;
  bool has_timestamp = false;

  static StreamRecord withTimestamp(T v, Timestamp ts) { return StreamRecord{std::move(v), ts, true}; }
  static StreamRecord withoutTimestamp(T v) { return StreamRecord{std::move(v), kMinWatermark, false}; }

  std::optional<Timestamp> optionalTimestamp() const {
    return has_timestamp ? std::optional<Timestamp>(timestamp) : std::nullopt;
  }
};

}  // namespace tidemark
