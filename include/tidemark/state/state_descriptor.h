// Descriptors name a piece of keyed state and say what kind it is; a keyed
// state backend turns a descriptor into the state object for the current key.
//
// Contract:
// - The name identifies the state within one operator: asking the backend
//   twice with the same name returns the same state object, and asking with
//   the same name but a different kind or value type is an error.
// - Descriptors are plain values; the backend copies what it needs (default
//   value, reduce or aggregate function) when the state is first created, so
//   a descriptor may be a temporary.
// - Reduce and aggregate functions are shared by every key of the state and
//   are called on the task thread only.
//
// Example:
//   tidemark::ValueStateDescriptor<long> count_desc("count", 0L);
//   tidemark::ListStateDescriptor<std::string> buffer_desc("buffer");
//   tidemark::ReducingStateDescriptor<long> max_desc(
//       "max", [](const long& a, const long& b) { return std::max(a, b); });
//   ValueState<long>& count = backend.getState(count_desc);
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "tidemark/state/aggregation.h"

namespace tidemark {

/// The kinds of keyed state, one per state interface.
enum class StateKind { VALUE, LIST, MAP, REDUCING, AGGREGATING };

/// The state interface's name, for error messages ("ValueState", ...).
constexpr std::string_view stateKindName(StateKind kind) {
  switch (kind) {
    case StateKind::VALUE:
      return "ValueState";
    case StateKind::LIST:
      return "ListState";
    case StateKind::MAP:
      return "MapState";
    case StateKind::REDUCING:
      return "ReducingState";
    case StateKind::AGGREGATING:
      return "AggregatingState";
  }
  return "unknown state kind";
}

/// What every descriptor has: a name and a kind.
class StateDescriptor {
 public:
  const std::string& getName() const { return name_; }
  StateKind getKind() const { return kind_; }

 protected:
  StateDescriptor(std::string name, StateKind kind) : name_(std::move(name)), kind_(kind) {}
  // Protected and non-virtual: descriptors are values, never owned through the base.
  ~StateDescriptor() = default;
  StateDescriptor(const StateDescriptor&) = default;
  StateDescriptor& operator=(const StateDescriptor&) = default;
  StateDescriptor(StateDescriptor&&) = default;
  StateDescriptor& operator=(StateDescriptor&&) = default;

 private:
  std::string name_;
  StateKind kind_;
  // A backend that stores bytes (RocksDB) will need the value type's
  // serializer; it will be attached here, next to the name, so that heap and
  // serialized backends accept the same descriptors.
};

/// A single value per key. Without a default value, ValueState::value() of an
/// unset key is std::nullopt; with one, it is a copy of the default.
template <class V>
class ValueStateDescriptor final : public StateDescriptor {
 public:
  explicit ValueStateDescriptor(std::string name) : StateDescriptor(std::move(name), StateKind::VALUE) {}
  ValueStateDescriptor(std::string name, V default_value)
      : StateDescriptor(std::move(name), StateKind::VALUE), default_value_(std::move(default_value)) {}

  const std::optional<V>& getDefaultValue() const { return default_value_; }

 private:
  std::optional<V> default_value_;
};

/// A list of values per key.
template <class V>
class ListStateDescriptor final : public StateDescriptor {
 public:
  explicit ListStateDescriptor(std::string name) : StateDescriptor(std::move(name), StateKind::LIST) {}
};

/// A map per key. UK must be ordered by std::less<UK> (MapState iterates in key order).
template <class UK, class UV>
class MapStateDescriptor final : public StateDescriptor {
 public:
  explicit MapStateDescriptor(std::string name) : StateDescriptor(std::move(name), StateKind::MAP) {}
};

/// One value per key, combined with each added value by a reduce function
/// called as reduce(stored, added).
template <class V>
class ReducingStateDescriptor final : public StateDescriptor {
 public:
  using ReduceFunction = std::function<V(const V&, const V&)>;

  /// Throws std::invalid_argument if `reduce_function` is empty.
  ReducingStateDescriptor(std::string name, ReduceFunction reduce_function)
      : StateDescriptor(std::move(name), StateKind::REDUCING), reduce_function_(std::move(reduce_function)) {
    if (!reduce_function_) {
      throw std::invalid_argument("ReducingStateDescriptor '" + getName() + "' needs a reduce function");
    }
  }

  const ReduceFunction& getReduceFunction() const { return reduce_function_; }

 private:
  ReduceFunction reduce_function_;
};

/// One accumulator per key, fed by an aggregate function: an
/// AggregateFunction<IN, ACC, OUT>, or any type with its four operations
/// (state/aggregation.h).
template <class IN, class ACC, class OUT>
class AggregatingStateDescriptor final : public StateDescriptor {
 public:
  /// Throws std::invalid_argument if `aggregate_function` is null.
  template <class F>
    requires AggregatesWith<F, IN, ACC, OUT>
  AggregatingStateDescriptor(std::string name, std::shared_ptr<F> aggregate_function)
      : StateDescriptor(std::move(name), StateKind::AGGREGATING), aggregation_(std::move(aggregate_function)) {
    if (!aggregation_) throwMissingFunction();
  }
  /// Throws std::invalid_argument: a descriptor needs a function.
  AggregatingStateDescriptor(std::string name, std::nullptr_t)
      : StateDescriptor(std::move(name), StateKind::AGGREGATING) {
    throwMissingFunction();
  }

  const Aggregation<IN, ACC, OUT>& getAggregation() const { return aggregation_; }

 private:
  [[noreturn]] void throwMissingFunction() const {
    throw std::invalid_argument("AggregatingStateDescriptor '" + getName() + "' needs an aggregate function");
  }

  Aggregation<IN, ACC, OUT> aggregation_;
};

}  // namespace tidemark
