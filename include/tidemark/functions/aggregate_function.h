// An incremental aggregation that keeps a small accumulator instead of the
// elements themselves (used by AggregatingState and, later, windows).
//
// Contract:
// - createAccumulator() returns the accumulator of an empty aggregation.
// - add() folds one value into an accumulator and returns the new one; the
//   accumulator is passed by value so an implementation can modify and return
//   it without a copy.
// - getResult() reads the result without consuming the accumulator; it may be
//   called any number of times between add() calls.
// - merge() combines two accumulators into one (session windows merge the
//   accumulators of windows that grew together); either argument may be
//   reused as the result.
// - The same instance is shared by every key of a state, so an
//   implementation must keep per-aggregation data in the accumulator, not in
//   members.
//
// Example:
//   struct Average : tidemark::AggregateFunction<long, std::pair<long, long>, double> {
//     std::pair<long, long> createAccumulator() override { return {0, 0}; }
//     std::pair<long, long> add(const long& v, std::pair<long, long> acc) override {
//       return {acc.first + v, acc.second + 1};
//     }
//     double getResult(const std::pair<long, long>& acc) override {
//       return acc.second == 0 ? 0.0 : double(acc.first) / double(acc.second);
//     }
//     std::pair<long, long> merge(std::pair<long, long> a, std::pair<long, long> b) override {
//       return {a.first + b.first, a.second + b.second};
//     }
//   };
#pragma once

#include <tuple>

namespace tidemark {

template <class IN, class ACC, class OUT>
class AggregateFunction {
 public:
  virtual ~AggregateFunction() = default;

  /// The accumulator of an aggregation that has seen no value yet.
  virtual ACC createAccumulator() = 0;
  /// Fold `value` into `accumulator` and return the result.
  virtual ACC add(const IN& value, ACC accumulator) = 0;
  /// The aggregation's result for `accumulator`.
  virtual OUT getResult(const ACC& accumulator) = 0;
  /// Combine two accumulators of the same aggregation.
  virtual ACC merge(ACC a, ACC b) = 0;
};

/// The input, accumulator and result types of an AggregateFunction subclass.
template <class Agg>
struct AggregateTypes {
 private:
  template <class I, class A, class O>
  static std::tuple<I, A, O> deduce(const AggregateFunction<I, A, O>*);
  using Types = decltype(deduce(static_cast<const Agg*>(nullptr)));

 public:
  using Input = std::tuple_element_t<0, Types>;
  using Accumulator = std::tuple_element_t<1, Types>;
  using Result = std::tuple_element_t<2, Types>;
};

}  // namespace tidemark
