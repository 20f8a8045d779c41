// KeyedStream::reduce: a rolling reduction per key; emits the running result
// for every input element, with that element's timestamp.
#pragma once

#include <memory>
#include <utility>

#include "tidemark/core/void_namespace.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark::internal {

template <class K, class T, class KeySelector, class Reducer>
class KeyedReduceOperator final : public OneInputOperator<T, T> {
 public:
  KeyedReduceOperator(KeySelector key_selector, Reducer reducer)
      : key_selector_(std::move(key_selector)), reducer_(std::move(reducer)) {}

  void open() override {
    const auto& c = this->context();
    backend_ = std::make_unique<HeapKeyedStateBackend<K>>(c.key_group_range, c.max_parallelism);
    if (this->isRestored()) backend_->restore(keyedStatesOf(this->takeRestoredSnapshots()));
    state_ = &backend_->template getPartitionedState<VoidNamespace>(ValueStateDescriptor<T>("_reduce_state"));
  }

  void processElement(StreamRecord<T>& record) override {
    backend_->setCurrentKey(key_selector_(std::as_const(record.value)));
    bool first = false;
    T& accumulated = state_->findOrCreate([&] {
      first = true;
      return record.value;
    });
    if (!first) accumulated = reducer_(std::as_const(accumulated), std::as_const(record.value));
    StreamRecord<T> out{accumulated, record.timestamp, record.has_timestamp};
    this->output().collect(out);
  }

  OperatorSnapshot snapshotState(std::int64_t checkpoint_id) const override {
    this->requireOpenedForSnapshot(backend_.get());
    return {checkpoint_id, backend_->snapshot(), std::nullopt, kMinWatermark};
  }

  std::size_t numStateEntries() const { return backend_->numStateEntries(); }

 private:
  KeySelector key_selector_;
  Reducer reducer_;
  std::unique_ptr<HeapKeyedStateBackend<K>> backend_;
  InternalValueState<K, VoidNamespace, T>* state_ = nullptr;
};

}  // namespace tidemark::internal
