// Keyed state that aggregates added values into an accumulator with an
// AggregateFunction and exposes the aggregation's result.
//
// Contract:
// - Every call reads or writes the entry of the key the backend is currently
//   set to (and, inside a window, of the current window).
// - The first add() starts from createAccumulator(); every add(v) stores
//   add(v, accumulator). get() is getResult(accumulator), or std::nullopt
//   when nothing was added (the function is not asked for the result of an
//   empty aggregation).
// - clear() removes the accumulator.
// - The object is owned by the keyed state backend and lives as long as it.
// - Not thread-safe: only the task thread that owns the backend may use it.
//
// Example:
//   AggregatingState<long, double>& avg = backend.getAggregatingState(
//       AggregatingStateDescriptor<long, std::pair<long, long>, double>(
//           "avg", std::make_shared<Average>()));
//   avg.add(latency_ms);
//   double mean = avg.get().value_or(0.0);
#pragma once

#include <optional>

namespace tidemark {

template <class IN, class OUT>
class AggregatingState {
 public:
  AggregatingState() = default;
  virtual ~AggregatingState() = default;
  AggregatingState(const AggregatingState&) = delete;
  AggregatingState& operator=(const AggregatingState&) = delete;

  /// The aggregation's result, or std::nullopt when nothing was added.
  virtual std::optional<OUT> get() const = 0;
  /// Aggregate one value.
  virtual void add(const IN& value) = 0;
  /// Remove the current key's accumulator.
  virtual void clear() = 0;
};

}  // namespace tidemark
