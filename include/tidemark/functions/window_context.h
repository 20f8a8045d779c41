// The context a window function gets when its window emits: the window, both
// clocks, per-window and per-key state, and side outputs stamped like the
// main output (with the window's maxTimestamp()).
//
// The window operator implements the context; a function only ever sees it
// through this interface.
#pragma once

#include <cstdint>
#include <tuple>
#include <typeinfo>
#include <utility>

#include "tidemark/core/output_tag.h"
#include "tidemark/core/stream_record.h"
#include "tidemark/core/void_namespace.h"
#include "tidemark/functions/keyed_state_store.h"

namespace tidemark {

/// The key of a non-keyed (windowAll) window: every element has the same one.
struct AllWindowsKey {
  friend bool operator==(const AllWindowsKey&, const AllWindowsKey&) = default;
  template <class H>
  friend H AbslHashValue(H h, const AllWindowsKey&) {
    return h;
  }
  std::uint64_t stableHash() const { return 0; }
  /// No fields: a windowAll operator's state is checkpointed under this key.
  auto fields() { return std::tie(); }
};

template <class K, class W>
class WindowContext {
 public:
  virtual ~WindowContext() = default;
  WindowContext(const WindowContext&) = delete;
  WindowContext& operator=(const WindowContext&) = delete;

  virtual const W& window() const = 0;
  virtual Timestamp currentProcessingTime() const = 0;
  virtual Timestamp currentWatermark() const = 0;

  /// State of the current key and this window; removed when the window is
  /// cleaned up. Throws std::logic_error with merging windows (sessions):
  /// the state of a session that merged into another could never be cleared.
  virtual KeyedStateStore<K, W>& windowState() = 0;
  /// State of the current key, shared by all its windows.
  virtual KeyedStateStore<K, VoidNamespace>& globalState() = 0;

  /// Emit `value` to the side output `tag`, stamped with the window's maxTimestamp().
  template <class X>
  void output(const OutputTag<X>& tag, X value) {
    StreamRecord<X> record{std::move(value), window().maxTimestamp(), true};
    emitSideOutput(tag.internalId(), typeid(X), &record);
  }

 protected:
  WindowContext() = default;

  /// Send `record`, a StreamRecord<X> with typeid(X) == `type`, to the side
  /// output with the tag id `tag_id`.
  virtual void emitSideOutput(int tag_id, const std::type_info& type, void* record) = 0;
};

}  // namespace tidemark
