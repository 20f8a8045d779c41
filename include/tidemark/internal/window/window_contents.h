// How a window operator keeps the contents of each (key, window): every
// element (ListContents), one reduced element (ReducingContents), one
// aggregate accumulator (AggregatingContents), or every element with its
// timestamp for evictors (EvictingContents).
//
// Each policy offers the same calls, all for the backend's current key:
//   setWindow(w)            point the contents at window (state namespace) w
//   add(record)             add an element; true when the window had no
//                           contents for the key before (its first element)
//   emit(window, f)         call f(std::span<const Value>) with what the window
//                           function receives; nothing when the window is empty
//   clear()                 drop the contents
//   merge(target, sources)  fold the sources' contents into target (sessions)
// `Value` is the element type of that span.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/core/stream_record.h"
#include "tidemark/functions/aggregate_function.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"
#include "tidemark/windowing/evictor.h"

namespace tidemark::internal {

/// The name of the contents state in the operator's backend; window functions
/// cannot use it for their own state.
inline const std::string kWindowContentsStateName = "window-contents";

template <class K, class W, class IN>
class ListContents {
 public:
  using Value = IN;

  explicit ListContents(HeapKeyedStateBackend<K>& backend)
      : state_(backend.template getPartitionedState<W>(ListStateDescriptor<IN>(kWindowContentsStateName))) {}

  void setWindow(const W& window) { state_.setCurrentNamespace(window); }
  bool add(const StreamRecord<IN>& record) { return state_.addReportingNew(record.value); }
  template <class F>
  void emit(const W&, F&& f) {
    if (const std::vector<IN>* elements = state_.peek()) f(std::span<const IN>(*elements));
  }
  void clear() { state_.clear(); }
  void merge(const W& target, const std::vector<W>& sources) { state_.mergeNamespaces(target, sources); }

 private:
  HeapListState<K, W, IN>& state_;
};

template <class K, class W, class IN>
class ReducingContents {
 public:
  using Value = IN;

  ReducingContents(HeapKeyedStateBackend<K>& backend, typename ReducingStateDescriptor<IN>::ReduceFunction reduce)
      : state_(backend.template getPartitionedState<W>(
            ReducingStateDescriptor<IN>(kWindowContentsStateName, std::move(reduce)))) {}

  void setWindow(const W& window) { state_.setCurrentNamespace(window); }
  bool add(const StreamRecord<IN>& record) { return state_.addReportingNew(record.value); }
  template <class F>
  void emit(const W&, F&& f) {
    if (const IN* reduced = state_.peek()) f(std::span<const IN>(reduced, 1));
  }
  void clear() { state_.clear(); }
  void merge(const W& target, const std::vector<W>& sources) { state_.mergeNamespaces(target, sources); }

 private:
  HeapReducingState<K, W, IN>& state_;
};

template <class K, class W, class IN, class ACC, class R>
class AggregatingContents {
 public:
  using Value = R;

  AggregatingContents(HeapKeyedStateBackend<K>& backend, std::shared_ptr<AggregateFunction<IN, ACC, R>> function)
      : state_(backend.template getPartitionedState<W>(
            AggregatingStateDescriptor<IN, ACC, R>(kWindowContentsStateName, std::move(function)))) {}

  void setWindow(const W& window) { state_.setCurrentNamespace(window); }
  bool add(const StreamRecord<IN>& record) { return state_.addReportingNew(record.value); }
  template <class F>
  void emit(const W&, F&& f) {
    if (std::optional<R> result = state_.get()) f(std::span<const R>(&*result, 1));
  }
  void clear() { state_.clear(); }
  void merge(const W& target, const std::vector<W>& sources) { state_.mergeNamespaces(target, sources); }

 private:
  HeapAggregatingState<K, W, IN, ACC, R>& state_;
};

// What an evicting window does with the elements the evictor left before the
// function sees them: nothing (NoFold), reduce them to one (ReduceFold), or
// aggregate them (AggregateFold). An empty window after eviction calls a
// NoFold function with no elements and skips the others (there is no value).

template <class IN>
struct NoFold {
  using Value = IN;
  template <class F>
  void apply(const std::vector<TimestampedValue<IN>>& elements, F&& f) {
    scratch_.clear();
    for (const auto& element : elements) scratch_.push_back(element.value);
    f(std::span<const IN>(scratch_));
  }
  std::vector<IN> scratch_;
};

template <class IN>
struct ReduceFold {
  using Value = IN;
  template <class F>
  void apply(const std::vector<TimestampedValue<IN>>& elements, F&& f) {
    if (elements.empty()) return;
    IN reduced = elements.front().value;
    for (std::size_t i = 1; i < elements.size(); ++i) reduced = reduce(reduced, elements[i].value);
    f(std::span<const IN>(&reduced, 1));
  }
  typename ReducingStateDescriptor<IN>::ReduceFunction reduce;
};

template <class IN, class ACC, class R>
struct AggregateFold {
  using Value = R;
  template <class F>
  void apply(const std::vector<TimestampedValue<IN>>& elements, F&& f) {
    if (elements.empty()) return;
    ACC accumulator = function->createAccumulator();
    for (const auto& element : elements) accumulator = function->add(element.value, std::move(accumulator));
    const R result = function->getResult(accumulator);
    f(std::span<const R>(&result, 1));
  }
  std::shared_ptr<AggregateFunction<IN, ACC, R>> function;
};

template <class K, class W, class IN, class Fold>
class EvictingContents {
 public:
  using Value = typename Fold::Value;

  EvictingContents(HeapKeyedStateBackend<K>& backend, std::unique_ptr<Evictor<IN, W>> evictor, Fold fold,
                   const EvictorContext& context)
      : state_(backend.template getPartitionedState<W>(
            ListStateDescriptor<TimestampedValue<IN>>(kWindowContentsStateName))),
        evictor_(std::move(evictor)),
        fold_(std::move(fold)),
        context_(context) {}

  void setWindow(const W& window) { state_.setCurrentNamespace(window); }
  bool add(const StreamRecord<IN>& record) {
    return state_.addReportingNew(TimestampedValue<IN>{record.value, record.timestamp, record.has_timestamp});
  }
  // The evictor edits the stored vector in place; what it leaves is what the
  // window keeps (an emptied window loses its state entry).
  template <class F>
  void emit(const W& window, F&& f) {
    std::vector<TimestampedValue<IN>>* elements = state_.peek();
    if (elements == nullptr) return;
    evictor_->evictBefore(*elements, window, context_);
    fold_.apply(*elements, f);
    // The function may have touched other state, but not this window's
    // contents, so the pointer is still valid.
    evictor_->evictAfter(*elements, window, context_);
    if (elements->empty()) state_.clear();
  }
  void clear() { state_.clear(); }
  void merge(const W& target, const std::vector<W>& sources) { state_.mergeNamespaces(target, sources); }

 private:
  HeapListState<K, W, TimestampedValue<IN>>& state_;
  std::unique_ptr<Evictor<IN, W>> evictor_;
  Fold fold_;
  const EvictorContext& context_;
};

}  // namespace tidemark::internal
