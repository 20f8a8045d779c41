// ProcessAllWindowFunction<IN, OUT, W>: the windowAll() counterpart of
// ProcessWindowFunction: no key, otherwise the same context (window, clocks,
// per-window and global state, side outputs).
#pragma once

#include <span>

#include "tidemark/functions/collector.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"
#include "tidemark/functions/window_context.h"

namespace tidemark {

template <class IN, class OUT, class W>
class ProcessAllWindowFunction : public RichFunction<RuntimeContext> {
 public:
  using InputType = IN;
  using OutputType = OUT;
  using WindowType = W;
  using Context = WindowContext<AllWindowsKey, W>;

  virtual void process(Context& ctx, std::span<const IN> elements, Collector<OUT>& out) = 0;
  virtual void clear(Context& ctx) { (void)ctx; }
};

}  // namespace tidemark
