// ProcessWindowFunction<IN, OUT, K, W>: called when a window of a keyed stream
// emits, with every element the window holds (or, after reduce() / aggregate(),
// the one pre-aggregated value) and a context (window, clocks, state, side
// outputs). Results are stamped with the window's maxTimestamp().
//
// clear() runs when the window is cleaned up: remove per-window state there.
//
// Example:
//   class CountPerUrl : public tidemark::ProcessWindowFunction<int64_t, std::string, std::string, TimeWindow> {
//    public:
//     void process(const std::string& url, Context& ctx, std::span<const int64_t> counts,
//                  tidemark::Collector<std::string>& out) override {
//       out.collect(fmt::format("{} {} {}", url, counts[0], ctx.window().getEnd()));
//     }
//   };
#pragma once

#include <span>

#include "tidemark/functions/collector.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"
#include "tidemark/functions/window_context.h"

namespace tidemark {

template <class IN, class OUT, class K, class W>
class ProcessWindowFunction : public RichFunction<KeyedRuntimeContext<K>> {
 public:
  using InputType = IN;
  using OutputType = OUT;
  using KeyType = K;
  using WindowType = W;
  using Context = WindowContext<K, W>;

  virtual void process(const K& key, Context& ctx, std::span<const IN> elements, Collector<OUT>& out) = 0;
  /// The window is being cleaned up; drop its windowState() here.
  virtual void clear(Context& ctx) { (void)ctx; }
};

}  // namespace tidemark
