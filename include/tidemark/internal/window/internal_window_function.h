// The window function as the window operator calls it, whatever the user
// gave: the pre-aggregated value itself (reduce / aggregate alone), a
// ProcessWindowFunction, a WindowFunction (apply), or their windowAll forms.
//
// Each adapter offers, for values of type V and key K:
//   open(runtime_context)   hand the user function its runtime context, open it
//   process(key, window, ctx, std::span<const V>, out)
//   clear(ctx)              the window is being cleaned up
//   close()
#pragma once

#include <memory>
#include <span>
#include <utility>

#include "tidemark/functions/all_window_function.h"
#include "tidemark/functions/collector.h"
#include "tidemark/functions/process_all_window_function.h"
#include "tidemark/functions/process_window_function.h"
#include "tidemark/functions/runtime_context.h"
#include "tidemark/functions/window_context.h"
#include "tidemark/functions/window_function.h"

namespace tidemark::internal {

/// reduce() / aggregate() without a window function: emit the value itself.
template <class V>
class PassThroughWindowFunction {
 public:
  using OutputType = V;
  template <class K>
  void open(KeyedRuntimeContext<K>&) {}
  template <class K, class W>
  void process(const K&, const W&, WindowContext<K, W>&, std::span<const V> values, Collector<V>& out) {
    for (const V& value : values) out.collect(value);
  }
  template <class K, class W>
  void clear(WindowContext<K, W>&) {}
  void close() {}
};

template <class V, class OUT, class K, class W>
class ProcessWindowFunctionAdapter {
 public:
  using OutputType = OUT;
  explicit ProcessWindowFunctionAdapter(std::shared_ptr<ProcessWindowFunction<V, OUT, K, W>> function)
      : function_(std::move(function)) {}
  void open(KeyedRuntimeContext<K>& runtime_context) {
    function_->setRuntimeContext(&runtime_context);
    function_->open();
  }
  void process(const K& key, const W&, WindowContext<K, W>& ctx, std::span<const V> values, Collector<OUT>& out) {
    function_->process(key, ctx, values, out);
  }
  void clear(WindowContext<K, W>& ctx) { function_->clear(ctx); }
  void close() { function_->close(); }

 private:
  std::shared_ptr<ProcessWindowFunction<V, OUT, K, W>> function_;
};

template <class V, class OUT, class K, class W>
class WindowFunctionAdapter {
 public:
  using OutputType = OUT;
  explicit WindowFunctionAdapter(std::shared_ptr<WindowFunction<V, OUT, K, W>> function)
      : function_(std::move(function)) {}
  void open(KeyedRuntimeContext<K>& runtime_context) {
    function_->setRuntimeContext(&runtime_context);
    function_->open();
  }
  void process(const K& key, const W& window, WindowContext<K, W>&, std::span<const V> values, Collector<OUT>& out) {
    function_->apply(key, window, values, out);
  }
  void clear(WindowContext<K, W>&) {}
  void close() { function_->close(); }

 private:
  std::shared_ptr<WindowFunction<V, OUT, K, W>> function_;
};

template <class V, class OUT, class W>
class ProcessAllWindowFunctionAdapter {
 public:
  using OutputType = OUT;
  explicit ProcessAllWindowFunctionAdapter(std::shared_ptr<ProcessAllWindowFunction<V, OUT, W>> function)
      : function_(std::move(function)) {}
  void open(KeyedRuntimeContext<AllWindowsKey>& runtime_context) {
    function_->setRuntimeContext(&runtime_context);
    function_->open();
  }
  void process(const AllWindowsKey&, const W&, WindowContext<AllWindowsKey, W>& ctx, std::span<const V> values,
               Collector<OUT>& out) {
    function_->process(ctx, values, out);
  }
  void clear(WindowContext<AllWindowsKey, W>& ctx) { function_->clear(ctx); }
  void close() { function_->close(); }

 private:
  std::shared_ptr<ProcessAllWindowFunction<V, OUT, W>> function_;
};

template <class V, class OUT, class W>
class AllWindowFunctionAdapter {
 public:
  using OutputType = OUT;
  explicit AllWindowFunctionAdapter(std::shared_ptr<AllWindowFunction<V, OUT, W>> function)
      : function_(std::move(function)) {}
  void open(KeyedRuntimeContext<AllWindowsKey>& runtime_context) {
    function_->setRuntimeContext(&runtime_context);
    function_->open();
  }
  void process(const AllWindowsKey&, const W& window, WindowContext<AllWindowsKey, W>&, std::span<const V> values,
               Collector<OUT>& out) {
    function_->apply(window, values, out);
  }
  void clear(WindowContext<AllWindowsKey, W>&) {}
  void close() { function_->close(); }

 private:
  std::shared_ptr<AllWindowFunction<V, OUT, W>> function_;
};

}  // namespace tidemark::internal
