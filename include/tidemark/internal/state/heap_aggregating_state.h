// AggregatingState kept in memory, per (key, namespace), for the heap keyed
// state backend; it stores the accumulator (ACC), not the result.
//
// Contract: as AggregatingState, plus mergeNamespaces() for merging windows.
// Obtained from HeapKeyedStateBackend, never constructed by user code.
//
// Example:
//   InternalAggregatingState<long, TimeWindow, long, std::pair<long, long>, double>& avg =
//       backend.getPartitionedState<TimeWindow>(AggregatingStateDescriptor<long, std::pair<long, long>, double>(
//           "avg", std::make_shared<Average>()));
//   avg.setCurrentNamespace(window);
//   avg.add(42);
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "tidemark/state/aggregating_state.h"
#include "tidemark/internal/state/state_table.h"
#include "tidemark/state/namespaced_state.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

template <class K, class N, class IN, class ACC, class OUT>
class HeapAggregatingState final
    : public HeapStateBase<K, N, ACC, MergingNamespacedState<N, AggregatingState<IN, OUT>>> {
  using Base = HeapStateBase<K, N, ACC, MergingNamespacedState<N, AggregatingState<IN, OUT>>>;

 public:
  HeapAggregatingState(const AggregatingStateDescriptor<IN, ACC, OUT>& descriptor,
                       const CurrentKeyContext<K>& context, int num_key_groups)
      : Base(descriptor, context, num_key_groups),
        aggregation_(descriptor.getAggregation()) {}

  std::optional<OUT> get() const override {
    if (const ACC* accumulator = this->table_.find(this->table_.currentNamespace())) {
      return aggregation_.getResult(*accumulator);
    }
    return std::nullopt;
  }

  void add(const IN& value) override { addReportingNew(value); }

  /// add(value), and whether the current key had no entry in the current
  /// namespace before (this add made it). A window operator registers a
  /// window's timers on its first element only.
  bool addReportingNew(const IN& value) {
    const N& ns = this->table_.currentNamespace();
    if (ACC* accumulator = this->table_.find(ns)) {
      *accumulator = aggregation_.add(value, std::move(*accumulator));
      return false;
    }
    this->table_.put(ns, aggregation_.add(value, aggregation_.createAccumulator()));
    return true;
  }

  void clear() override { this->table_.erase(this->table_.currentNamespace()); }

  /// For the current key: merge each source's accumulator, in order, into
  /// target's (a first source becomes target's when target has none), and
  /// remove the sources. A source equal to target is skipped.
  void mergeNamespaces(const N& target, const std::vector<N>& sources) override {
    this->table_.mergeInto(target, sources, [&](ACC& merged, ACC&& source) {
      merged = aggregation_.merge(std::move(merged), std::move(source));
    });
  }

 private:
  Aggregation<IN, ACC, OUT> aggregation_;
};

/// The name operators use, so that a second backend can make it an interface
/// without touching them.
template <class K, class N, class IN, class ACC, class OUT>
using InternalAggregatingState = HeapAggregatingState<K, N, IN, ACC, OUT>;

}  // namespace tidemark::internal
