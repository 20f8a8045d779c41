// What a keyed operator can tell about its pending work: live keyed state
// entries and pending timers. The test harness asks through this interface
// when it only knows an operator by its base type (an operator built from a
// DataStream transformation), and tests use it to show that state returns to
// zero once windows and joins are cleaned up.
#pragma once

#include <cstddef>

namespace tidemark::internal {

class KeyedOperatorStats {
 public:
  virtual ~KeyedOperatorStats() = default;
  virtual std::size_t numStateEntries() const = 0;
  virtual std::size_t numEventTimeTimers() const = 0;
  virtual std::size_t numProcessingTimeTimers() const = 0;
};

}  // namespace tidemark::internal
