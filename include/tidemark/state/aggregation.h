// Aggregation<IN, ACC, OUT>: the four operations of an incremental
// aggregation, held by an AggregatingStateDescriptor and called by the state.
//
// Any object with createAccumulator(), add(value, acc), getResult(acc) and
// merge(a, b) of matching types is an aggregation; an AggregateFunction
// (functions/aggregate_function.h) is the usual one. The state layer holds it
// this way, as ReducingStateDescriptor holds its reduce function in a
// std::function, so that state does not depend on the function interfaces
// that are built on top of it.
//
// Like the function it wraps, an Aggregation is shared by every key of a
// state: copies call the same object.
#pragma once

#include <concepts>
#include <memory>
#include <utility>

namespace tidemark {

/// F can aggregate INs into an ACC with result OUT.
template <class F, class IN, class ACC, class OUT>
concept AggregatesWith = requires(F& f, const IN& value, ACC acc, const ACC& const_acc) {
  { f.createAccumulator() } -> std::convertible_to<ACC>;
  { f.add(value, std::move(acc)) } -> std::convertible_to<ACC>;
  { f.getResult(const_acc) } -> std::convertible_to<OUT>;
  { f.merge(std::move(acc), std::move(acc)) } -> std::convertible_to<ACC>;
};

template <class IN, class ACC, class OUT>
class Aggregation {
 public:
  /// An empty aggregation (operator bool is false).
  Aggregation() = default;

  template <class F>
    requires AggregatesWith<F, IN, ACC, OUT>
  explicit Aggregation(std::shared_ptr<F> function)
      : target_(std::move(function)), operations_(target_ ? &kOperationsOf<F> : nullptr) {}

  explicit operator bool() const { return operations_ != nullptr; }

  ACC createAccumulator() const { return operations_->create(target_.get()); }
  ACC add(const IN& value, ACC accumulator) const {
    return operations_->add(target_.get(), value, std::move(accumulator));
  }
  OUT getResult(const ACC& accumulator) const { return operations_->result(target_.get(), accumulator); }
  ACC merge(ACC a, ACC b) const { return operations_->merge(target_.get(), std::move(a), std::move(b)); }

 private:
  struct Operations {
    ACC (*create)(void*);
    ACC (*add)(void*, const IN&, ACC);
    OUT (*result)(void*, const ACC&);
    ACC (*merge)(void*, ACC, ACC);
  };

  template <class F>
  static constexpr Operations kOperationsOf{
      [](void* f) -> ACC { return static_cast<F*>(f)->createAccumulator(); },
      [](void* f, const IN& value, ACC acc) -> ACC { return static_cast<F*>(f)->add(value, std::move(acc)); },
      [](void* f, const ACC& acc) -> OUT { return static_cast<F*>(f)->getResult(acc); },
      [](void* f, ACC a, ACC b) -> ACC { return static_cast<F*>(f)->merge(std::move(a), std::move(b)); },
  };

  std::shared_ptr<void> target_;
  const Operations* operations_ = nullptr;
};

}  // namespace tidemark
