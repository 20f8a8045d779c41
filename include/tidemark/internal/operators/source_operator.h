// The head of a source task: runs a SourceFunction and ends its output with the
// MAX watermark when run() returns.
#pragma once

#include <memory>
#include <utility>

#include "tidemark/functions/source_function.h"
#include "tidemark/internal/core/operator_failure.h"
#include "tidemark/internal/operators/source_context_impl.h"
#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark::internal {

/// The type-independent face of a source operator, for the task.
class SourceOperatorBase : public OperatorBase {
 public:
  /// Run the source to completion, then emit MAX. Throws OperatorFailure.
  virtual void runSource(SourceHooks& hooks) = 0;
  /// Ask the user function to stop (any thread).
  virtual void cancelSource() = 0;
};

template <class T>
class SourceOperator final : public SourceOperatorBase {
 public:
  OperatorSnapshot snapshotState(std::int64_t) const override {
    return this->refuseSnapshot("source position");
  }

  explicit SourceOperator(std::unique_ptr<SourceFunction<T>> function) : function_(std::move(function)) {}

  std::type_index outputType() const override { return typeid(T); }

  void open() override { function_->open(); }
  void close() override { function_->close(); }

  void runSource(SourceHooks& hooks) override {
    auto& output = *static_cast<Output<T>*>(mainOutputBase());
    SourceContextImpl<T> ctx(output, hooks, context().subtask_index, context().parallelism);
    callNamingFailures(
        [this] { return context().description(); }, [] { return std::string("its input"); }, [&] { function_->run(ctx); });
    // A bounded input ends with MAX, unless the source already sent it.
    if (ctx.lastEmittedWatermark() != kMaxWatermark) emitWatermarkToAll(kMaxWatermark);
  }

  void cancelSource() override { function_->cancel(); }

 private:
  std::unique_ptr<SourceFunction<T>> function_;
};

}  // namespace tidemark::internal
