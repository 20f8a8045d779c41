// AllWindowFunction<IN, OUT, W> (AllWindowedStream::apply): the window and its elements.
#pragma once

#include <span>

#include "tidemark/functions/collector.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"

namespace tidemark {

template <class IN, class OUT, class W>
class AllWindowFunction : public RichFunction<RuntimeContext> {
 public:
  using InputType = IN;
  using OutputType = OUT;
  using WindowType = W;

  virtual void apply(const W& window, std::span<const IN> elements, Collector<OUT>& out) = 0;
};

}  // namespace tidemark
