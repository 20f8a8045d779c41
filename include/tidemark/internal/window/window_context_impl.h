// The window operators' side of WindowContext: reads the window being emitted
// and the watermark through the operator's slots, and scopes the per-window
// state to that window.
#pragma once

#include <stdexcept>

#include "tidemark/core/void_namespace.h"
#include "tidemark/functions/keyed_state_store.h"
#include "tidemark/functions/window_context.h"
#include "tidemark/internal/operators/side_outputs_through.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"

namespace tidemark::internal {

template <class K, class W>
class WindowContextImpl final : public SideOutputsThrough<WindowContext<K, W>> {
 public:
  /// `window` is the operator's slot for the window being emitted or cleared;
  /// `merging_windows` says whether windows merge (sessions).
  WindowContextImpl(OperatorBase& op, HeapKeyedStateBackend<K>& backend, const W* const& window,
                    const Timestamp& watermark, bool merging_windows = false)
      : SideOutputsThrough<WindowContext<K, W>>(op),
        window_(window),
        watermark_(watermark),
        merging_windows_(merging_windows),
        window_state_(backend, window),
        global_state_(backend, void_namespace_) {}

  const W& window() const override { return *window_; }
  Timestamp currentProcessingTime() const override {
    return this->owner().processingTimeService().currentProcessingTime();
  }
  Timestamp currentWatermark() const override { return watermark_; }

  KeyedStateStore<K, W>& windowState() override {
    if (merging_windows_) throw std::logic_error("Per-window state is not allowed when using merging windows.");
    return window_state_;
  }
  KeyedStateStore<K, VoidNamespace>& globalState() override { return global_state_; }

 private:
  const W* const& window_;
  const Timestamp& watermark_;
  bool merging_windows_;
  VoidNamespace void_namespace_storage_;
  const VoidNamespace* void_namespace_ = &void_namespace_storage_;
  KeyedStateStore<K, W> window_state_;
  KeyedStateStore<K, VoidNamespace> global_state_;
};

}  // namespace tidemark::internal
