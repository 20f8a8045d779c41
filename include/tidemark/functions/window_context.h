// The context a window function gets when its window emits: the window, both
// clocks, per-window and per-key state, and side outputs stamped like the
// main output (with the window's maxTimestamp()).
#pragma once

#include <stdexcept>

#include "tidemark/core/output_tag.h"
#include "tidemark/core/stream_record.h"
#include "tidemark/core/void_namespace.h"
#include "tidemark/functions/keyed_state_store.h"
#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark {

/// The key of a non-keyed (windowAll) window: every element has the same one.
struct AllWindowsKey {
  friend bool operator==(const AllWindowsKey&, const AllWindowsKey&) = default;
  template <class H>
  friend H AbslHashValue(H h, const AllWindowsKey&) {
    return h;
  }
  std::uint64_t stableHash() const { return 0; }
};

template <class K, class W>
class WindowContext {
 public:
  /// Runtime use. `window` is the runtime's slot for the window being emitted
  /// or cleared; `merging_windows` says whether windows merge (sessions).
  WindowContext(internal::OperatorBase& op, internal::HeapKeyedStateBackend<K>& backend, const W* const& window,
                const Timestamp& watermark, bool merging_windows = false)
      : operator_(op),
        window_(window),
        watermark_(watermark),
        merging_windows_(merging_windows),
        window_state_(backend, window),
        global_state_(backend, void_namespace_) {}

  const W& window() const { return *window_; }
  Timestamp currentProcessingTime() const { return operator_.processingTimeService().currentProcessingTime(); }
  Timestamp currentWatermark() const { return watermark_; }

  /// State of the current key and this window; removed when the window is
  /// cleaned up. Throws std::logic_error with merging windows (sessions):
  /// the state of a session that merged into another could never be cleared.
  KeyedStateStore<K, W>& windowState() {
    if (merging_windows_) throw std::logic_error("Per-window state is not allowed when using merging windows.");
    return window_state_;
  }
  /// State of the current key, shared by all its windows.
  KeyedStateStore<K, VoidNamespace>& globalState() { return global_state_; }

  /// Emit `value` to the side output `tag`, stamped with the window's maxTimestamp().
  template <class X>
  void output(const OutputTag<X>& tag, X value) {
    StreamRecord<X> record{std::move(value), window_->maxTimestamp(), true};
    operator_.emitSideOutput(tag, record);
  }

 private:
  internal::OperatorBase& operator_;
  const W* const& window_;
  const Timestamp& watermark_;
  bool merging_windows_;
  VoidNamespace void_namespace_storage_;
  const VoidNamespace* void_namespace_ = &void_namespace_storage_;
  KeyedStateStore<K, W> window_state_;
  KeyedStateStore<K, VoidNamespace> global_state_;
};

}  // namespace tidemark
