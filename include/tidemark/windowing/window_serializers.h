// TypeSerializer for the windows, for window state and timers in
// checkpoints. Apart from time_window.h and global_window.h so that a job
// that does not checkpoint does not parse the serializers.
#pragma once

#include <cstdint>
#include <string>

#include "tidemark/serialization/type_serializer.h"
#include "tidemark/windowing/global_window.h"
#include "tidemark/windowing/time_window.h"

namespace tidemark {

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

/// The one global window is a zero byte, as a value without fields is.
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
