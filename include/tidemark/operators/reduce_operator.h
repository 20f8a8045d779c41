// KeyedStream::reduce: a rolling reduction per key; emits the running result
// for every input element, with that element's timestamp.
#pragma once

#include <memory>
#include <utility>

#include "tidemark/operators/stream_operator.h"
#include "tidemark/state/heap/heap_keyed_state_backend.h"
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
    state_ = &backend_->getState(ValueStateDescriptor<T>("_reduce_state"));
  }

  void processElement(StreamRecord<T>& record) override {
    backend_->setCurrentKey(key_selector_(std::as_const(record.value)));
    std::optional<T> current = state_->value();
    T result = current ? reducer_(std::as_const(*current), std::as_const(record.value)) : record.value;
    state_->update(result);
    StreamRecord<T> out{std::move(result), record.timestamp, record.has_timestamp};
    this->output().collect(out);
  }

  std::size_t numStateEntries() const { return backend_->numStateEntries(); }

 private:
  KeySelector key_selector_;
  Reducer reducer_;
  std::unique_ptr<HeapKeyedStateBackend<K>> backend_;
  ValueState<T>* state_ = nullptr;
};

}  // namespace tidemark::internal
