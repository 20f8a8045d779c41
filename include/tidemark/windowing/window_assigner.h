// WindowAssigner<T, W>: puts each element into zero or more windows, and
// names the trigger a window gets when the user sets none (docs/semantics.md 4.2).
//
// Contract:
// - assignWindows() appends the element's windows to `windows` (the operator
//   reuses one vector, so assigning allocates nothing per element), in the
//   order the operator processes them; `timestamp` is the element's event
//   timestamp (kMinWatermark when it has none) and the context gives the
//   current processing time.
// - isEventTime() says which clock drives the windows: it decides lateness
//   (only event-time windows are ever late) and the time domain of cleanup.
// - A MergingWindowAssigner (sessions) also merges windows: given the
//   windows of one key that are alive, it reports every set that becomes one.
//
// Built-in assigners (TumblingEventTimeWindows, EventTimeSessionWindows, ...)
// do not depend on the element type; their factories return a specification
// that KeyedStream::window() turns into a WindowAssigner<T, W> (see
// AssignerSpec). A user assigner derives from WindowAssigner<T, W>.
#pragma once

#include <concepts>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "tidemark/core/time.h"
#include "tidemark/windowing/trigger.h"

namespace tidemark {

class WindowAssignerContext {
 public:
  virtual ~WindowAssignerContext() = default;
  virtual Timestamp getCurrentProcessingTime() const = 0;
};

template <class T, class W>
class WindowAssigner {
 public:
  using ElementType = T;
  using WindowType = W;

  virtual ~WindowAssigner() = default;

  virtual void assignWindows(const T& element, Timestamp timestamp, const WindowAssignerContext& ctx,
                             std::vector<W>& windows) = 0;
  virtual std::unique_ptr<Trigger<T, W>> getDefaultTrigger() const = 0;
  virtual bool isEventTime() const = 0;
  virtual std::string toString() const { return "WindowAssigner"; }
};

/// What mergeWindows() reports for each set of windows that become one.
template <class W>
class MergeCallback {
 public:
  virtual ~MergeCallback() = default;
  virtual void merge(const std::vector<W>& to_be_merged, const W& merge_result) = 0;
};

template <class T, class W>
class MergingWindowAssigner : public WindowAssigner<T, W> {
 public:
  /// Report (through `callback`) every group of `windows` that merges into one.
  virtual void mergeWindows(const std::vector<W>& windows, MergeCallback<W>& callback) = 0;
};

/// A built-in assigner's specification: it builds the WindowAssigner for a
/// stream's element type, with the window type it declares.
template <class Spec, class T>
concept AssignerSpec = requires(const Spec& spec) {
  typename Spec::WindowType;
  { spec.template build<T>() } -> std::convertible_to<std::unique_ptr<WindowAssigner<T, typename Spec::WindowType>>>;
};

namespace internal {

/// Event-time windows need a timestamp; kMinWatermark marks a record without one.
inline void requireEventTimestamp(Timestamp timestamp, const std::string& assigner) {
  if (timestamp == kMinWatermark) {
    throw std::runtime_error(assigner +
                             ": record has no timestamp (kMinWatermark): did you forget "
                             "assignTimestampsAndWatermarks()?");
  }
}

/// As above, naming the assigner by its toString() only when the check
/// fails: assigners check every element, and building the name each time
/// would format a string on the hot path.
template <class Assigner>
  requires requires(const Assigner& assigner) { assigner.toString(); }
void requireEventTimestamp(Timestamp timestamp, const Assigner& assigner) {
  if (timestamp == kMinWatermark) requireEventTimestamp(timestamp, assigner.toString());
}

/// Turn a user assigner or a built-in specification into the assigner a window operator runs.
template <class T, class X>
std::unique_ptr<WindowAssigner<T, typename X::WindowType>> makeAssigner(const X& assigner) {
  using W = typename X::WindowType;
  if constexpr (std::is_base_of_v<WindowAssigner<T, W>, X>) {
    return std::make_unique<X>(assigner);
  } else {
    static_assert(AssignerSpec<X, T>, "not a WindowAssigner<T, W> for this stream's element type");
    return assigner.template build<T>();
  }
}

}  // namespace internal
}  // namespace tidemark
