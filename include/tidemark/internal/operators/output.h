// The two faces of a connection between operators: what an upstream operator
// emits into (Output<T>) and what a downstream operator receives on (Input<T>).
//
// Contract for both (the operator contract of the whole runtime):
// - Calls come from one thread, the owning task's; never concurrently.
// - Per input, the order is the order the upstream emitted: records,
//   watermarks and status changes interleaved. Watermarks strictly increase.
// - The end of an input is not a call on Input: the task calls
//   OperatorBase::finish() on each operator of a chain, in chain order, once
//   every input of the task has ended.
// - processElement may move from `record.value`, but only as its last use of it
//   (the runtime reads the element to describe it if the call throws).
#pragma once

#include <memory>
#include <string>
#include <typeindex>

#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"

namespace tidemark::internal {

/// The type-independent part of an Output, so the planner can wire outputs
/// whose element type it does not know.
class OutputBase {
 public:
  virtual ~OutputBase() = default;
  virtual void emitWatermark(Timestamp watermark) = 0;
  virtual void emitWatermarkStatus(WatermarkStatus status) = 0;
  virtual std::type_index elementType() const = 0;
  /// collect() for a caller that holds the record untyped: `record` is a
  /// StreamRecord<T> with T the elementType() (user contexts' side outputs).
  virtual void collectErased(void* record) = 0;
};

template <class T>
class Output : public OutputBase {
 public:
  virtual void collect(StreamRecord<T>& record) = 0;
  std::type_index elementType() const final { return typeid(T); }
  void collectErased(void* record) final { collect(*static_cast<StreamRecord<T>*>(record)); }
};

class InputBase {
 public:
  virtual ~InputBase() = default;
  virtual void processWatermark(Timestamp watermark) = 0;
  virtual void processWatermarkStatus(WatermarkStatus status) = 0;
  virtual std::type_index elementType() const = 0;
};

template <class T>
class Input : public InputBase {
 public:
  virtual void processElement(StreamRecord<T>& record) = 0;
  std::type_index elementType() const final { return typeid(T); }
};

/// Drops everything: the output of an operator nobody consumes.
template <class T>
class DiscardingOutput final : public Output<T> {
 public:
  void collect(StreamRecord<T>&) override {}
  void emitWatermark(Timestamp) override {}
  void emitWatermarkStatus(WatermarkStatus) override {}
};

}  // namespace tidemark::internal
