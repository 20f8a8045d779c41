// Collector: where a user function emits its results.
#pragma once

namespace tidemark {

/// Receives the values a function emits. Each value becomes a record whose
/// timestamp is set by the runtime (the input element's, or a timer's).
template <class T>
class Collector {
 public:
  virtual ~Collector() = default;
  virtual void collect(T value) = 0;
};

}  // namespace tidemark
