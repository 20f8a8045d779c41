// WindowFunction<IN, OUT, K, W> (WindowedStream::apply): the older, simpler
// form of ProcessWindowFunction: the key, the window and its elements.
#pragma once

#include <span>

#include "tidemark/functions/collector.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"

namespace tidemark {

template <class IN, class OUT, class K, class W>
class WindowFunction : public RichFunction<KeyedRuntimeContext<K>> {
 public:
  using InputType = IN;
  using OutputType = OUT;
  using KeyType = K;
  using WindowType = W;

  virtual void apply(const K& key, const W& window, std::span<const IN> elements, Collector<OUT>& out) = 0;
};

}  // namespace tidemark
