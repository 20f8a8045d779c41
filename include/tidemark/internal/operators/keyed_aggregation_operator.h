// KeyedStream::sum/min/max/minBy/maxBy: rolling aggregations of one field,
// per key.
//
// As in Flink, an aggregation is a rolling reduce (KeyedReduceOperator) whose
// reducer is fixed by the aggregation type: the first element of a key is
// emitted as it is, and every later element emits the new aggregate, with
// that element's timestamp. What the aggregate holds:
// - SUM, MIN, MAX: the FIRST element of the key, with only the aggregated
//   field replaced by the running sum / minimum / maximum. Other fields never
//   change after the first element.
// - MIN_BY, MAX_BY: the whole element holding the minimum / maximum of the
//   field. On a tie, `first = true` keeps the element seen first, `false`
//   takes the latest one.
// The field is named by a pointer to a data member, or by position in a
// std::tuple / std::pair (std::get<I>). SUM needs `a + b`; the others `a < b`.
//
// Example:
//   // (word, count) pairs: running count per word, other fields of the first pair.
//   pairs.keyBy([](const auto& p) { return p.first; }).sum<1>();
//   // the reading with the highest temperature so far, per sensor.
//   readings.keyBy(&Reading::sensor).maxBy(&Reading::celsius);
#pragma once

#include <concepts>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tidemark/internal/operators/reduce_operator.h"

namespace tidemark::internal {

/// The comparison-based aggregations (sum has its own aggregator).
enum class ComparisonType { MIN, MAX, MIN_BY, MAX_BY };

/// A field named by a pointer to a data member of T.
template <class T, class F>
class MemberField {
 public:
  using FieldType = F;
  explicit MemberField(F T::*member) : member_(member) {}
  F& operator()(T& value) const { return value.*member_; }
  const F& operator()(const T& value) const { return value.*member_; }

 private:
  F T::*member_;
};

/// A field named by its position in a tuple-like T (std::tuple, std::pair).
template <class T, std::size_t I>
class PositionField {
 public:
  using FieldType = std::tuple_element_t<I, T>;
  FieldType& operator()(T& value) const { return std::get<I>(value); }
  const FieldType& operator()(const T& value) const { return std::get<I>(value); }
};

template <class T>
concept TupleLike = requires { std::tuple_size<T>::value; };

template <class T, class Field>
class SumAggregator {
 public:
  using F = typename Field::FieldType;
  static_assert(requires(const F& a, const F& b) { a + b; }, "sum: the field type needs operator+");

  explicit SumAggregator(Field field) : field_(std::move(field)) {}

  T operator()(const T& accumulated, const T& value) const {
    T result = accumulated;
    field_(result) = static_cast<F>(field_(accumulated) + field_(value));
    return result;
  }

 private:
  Field field_;
};

template <class T, class Field>
class ComparableAggregator {
 public:
  using F = typename Field::FieldType;
  static_assert(requires(const F& a, const F& b) {
    { a < b } -> std::convertible_to<bool>;
  }, "min/max/minBy/maxBy: the field type needs operator<");

  /// `first` only matters for MIN_BY / MAX_BY.
  ComparableAggregator(ComparisonType type, Field field, bool first = true)
      : minimum_(type == ComparisonType::MIN || type == ComparisonType::MIN_BY),
        by_element_(type == ComparisonType::MIN_BY || type == ComparisonType::MAX_BY),
        field_(std::move(field)),
        first_(first) {}

  T operator()(const T& accumulated, const T& value) const {
    const F& current = field_(accumulated);
    const F& candidate = field_(value);
    const bool better = minimum_ ? candidate < current : current < candidate;
    if (!by_element_) {
      T result = accumulated;
      if (better) field_(result) = candidate;
      return result;
    }
    if (better) return value;
    const bool tie = !(current < candidate) && !(candidate < current);
    return tie && !first_ ? value : accumulated;
  }

 private:
  bool minimum_;
  bool by_element_;
  Field field_;
  bool first_;
};

/// The operator is a keyed rolling reduce; the aggregator is the reducer.
template <class K, class T, class KeySelector, class Aggregator>
using KeyedAggregationOperator = KeyedReduceOperator<K, T, KeySelector, Aggregator>;

}  // namespace tidemark::internal
