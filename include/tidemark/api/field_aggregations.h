// The sum / min / max / minBy / maxBy family, shared by KeyedStream (rolling,
// per key) and WindowedStream (per window). The field is a pointer to a data
// member (`sum(&Order::amount)`) or, on tuple and pair streams, a position
// (`sum<1>()`); see operators/keyed_aggregation_operator.h for what the
// emitted element holds.
//
// Each call builds the aggregator and hands it to the stream's
// aggregateFields(aggregator, kind), which decides how it runs.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "tidemark/internal/operators/keyed_aggregation_operator.h"

namespace tidemark {

template <class T>
class SingleOutputStreamOperator;

namespace internal {

/// A sum does not depend on the order of the elements; the comparisons do
/// (ties, and the first element's other fields).
enum class FieldAggregationKind { SUM, COMPARISON };

template <class Derived, class T>
class FieldAggregations {
 public:
  /// The first element with `field` replaced by the sum.
  template <class F, class U = T>
    requires std::is_class_v<U>
  SingleOutputStreamOperator<T> sum(F U::*field) const {
    return self().aggregateFields(SumAggregator<T, MemberField<T, F>>(MemberField<T, F>(field)),
                                  FieldAggregationKind::SUM);
  }
  template <std::size_t I>
    requires TupleLike<T>
  SingleOutputStreamOperator<T> sum() const {
    return self().aggregateFields(SumAggregator<T, PositionField<T, I>>({}), FieldAggregationKind::SUM);
  }

  /// The first element with `field` replaced by the minimum.
  template <class F, class U = T>
    requires std::is_class_v<U>
  SingleOutputStreamOperator<T> min(F U::*field) const {
    return compare(ComparisonType::MIN, MemberField<T, F>(field), true);
  }
  template <std::size_t I>
    requires TupleLike<T>
  SingleOutputStreamOperator<T> min() const {
    return compare(ComparisonType::MIN, PositionField<T, I>{}, true);
  }

  /// The first element with `field` replaced by the maximum.
  template <class F, class U = T>
    requires std::is_class_v<U>
  SingleOutputStreamOperator<T> max(F U::*field) const {
    return compare(ComparisonType::MAX, MemberField<T, F>(field), true);
  }
  template <std::size_t I>
    requires TupleLike<T>
  SingleOutputStreamOperator<T> max() const {
    return compare(ComparisonType::MAX, PositionField<T, I>{}, true);
  }

  /// The element with the smallest `field`; on ties the first seen
  /// (`first = true`) or the latest.
  template <class F, class U = T>
    requires std::is_class_v<U>
  SingleOutputStreamOperator<T> minBy(F U::*field, bool first = true) const {
    return compare(ComparisonType::MIN_BY, MemberField<T, F>(field), first);
  }
  template <std::size_t I>
    requires TupleLike<T>
  SingleOutputStreamOperator<T> minBy(bool first = true) const {
    return compare(ComparisonType::MIN_BY, PositionField<T, I>{}, first);
  }

  /// The element with the largest `field`; on ties the first seen
  /// (`first = true`) or the latest.
  template <class F, class U = T>
    requires std::is_class_v<U>
  SingleOutputStreamOperator<T> maxBy(F U::*field, bool first = true) const {
    return compare(ComparisonType::MAX_BY, MemberField<T, F>(field), first);
  }
  template <std::size_t I>
    requires TupleLike<T>
  SingleOutputStreamOperator<T> maxBy(bool first = true) const {
    return compare(ComparisonType::MAX_BY, PositionField<T, I>{}, first);
  }

  // Flink's sum("amount") and sum(2) name the field by text or by a runtime
  // position; C++ cannot look a field up either way. These overloads only
  // exist to turn a page of overload errors into one sentence.
#define TIDEMARK_FIELD_NOT_BY_NAME_OR_NUMBER(fn)                                                              \
  template <class Never = T>                                                                                 \
  void fn(const char*, bool = true) const {                                                                  \
    static_assert(sizeof(Never) == 0, #fn "(\"field\"): name the field by a pointer to the member, " #fn     \
                                          "(&Order::amount), or on a tuple or pair stream by its position, " #fn \
                                          "<1>()");                                                          \
  }                                                                                                          \
  template <class Never = T>                                                                                 \
  void fn(int, bool = true) const {                                                                          \
    static_assert(sizeof(Never) == 0, #fn "(2): the position of a tuple or pair field is a template argument, " \
                                          #fn "<2>(); on a struct stream pass a pointer to the member, " #fn   \
                                          "(&Order::amount)");                                               \
  }
  TIDEMARK_FIELD_NOT_BY_NAME_OR_NUMBER(sum)
  TIDEMARK_FIELD_NOT_BY_NAME_OR_NUMBER(min)
  TIDEMARK_FIELD_NOT_BY_NAME_OR_NUMBER(max)
  TIDEMARK_FIELD_NOT_BY_NAME_OR_NUMBER(minBy)
  TIDEMARK_FIELD_NOT_BY_NAME_OR_NUMBER(maxBy)
#undef TIDEMARK_FIELD_NOT_BY_NAME_OR_NUMBER

 private:
  template <class Field>
  SingleOutputStreamOperator<T> compare(ComparisonType type, Field field, bool first) const {
    return self().aggregateFields(ComparableAggregator<T, Field>(type, std::move(field), first),
                                  FieldAggregationKind::COMPARISON);
  }

  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace internal
}  // namespace tidemark
