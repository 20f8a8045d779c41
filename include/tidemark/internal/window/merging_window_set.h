// MergingWindowSet: the live windows of one key under a merging assigner
// (sessions), each mapped to its *state window*: the namespace under which
// its contents are stored. When windows merge, the contents of all of them
// are folded into the state window of one of them, so the merged window's
// contents keep living under a namespace that already existed and only the
// others move (docs/semantics.md 4.5).
//
// The mapping is a small vector per key (a key rarely has more than a few
// live sessions), kept in the operator's keyed state so it dies with the key.
// Its first entry lives in the state entry itself: a key with one session,
// the common case, then costs no allocation and no second cache line.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "tidemark/serialization/absl_serializers.h"  // a snapshot writes the mapping
#include "tidemark/windowing/window_assigner.h"

namespace tidemark::internal {

template <class W>
class MergingWindowSet {
 public:
  /// (window, state window) pairs, in the order the windows appeared.
  using Mapping = absl::InlinedVector<std::pair<W, W>, 1>;

  explicit MergingWindowSet(Mapping& mapping) : mapping_(mapping) {}

  /// The state window of `window`, or nullptr when it is not live (merged away or retired).
  const W* getStateWindow(const W& window) const {
    auto it = find(window);
    return it == mapping_.end() ? nullptr : &it->second;
  }

  /// Forget a window that was cleaned up or found late.
  void retireWindow(const W& window) {
    auto it = find(window);
    if (it == mapping_.end()) throw std::logic_error("window to retire is not in the merging window set");
    mapping_.erase(it);
  }

  /// Buffers addWindow() reuses from call to call (a window operator keeps
  /// one), so that adding a window allocates nothing once they have grown:
  /// a merging operator adds a window for every element.
  class Scratch {
    friend class MergingWindowSet;
    std::vector<W> windows;               // the live windows and the new one
    std::vector<W> merged;                // one merge's live windows
    std::vector<W> merged_state_windows;  // their state windows, but the one kept
  };

  /// Add `new_window`, merging it with the live windows as `assigner` says.
  /// For every merge that involves a live window beyond merely absorbing the
  /// new one, `on_merge(merge_result, merged_windows, state_window,
  /// merged_state_windows)` runs; merged_windows are the live windows merged
  /// (never the new window), and the callback must fold the contents of
  /// merged_state_windows into state_window. Returns the window `new_window`
  /// ended up in.
  template <class T, class OnMerge>
  W addWindow(const W& new_window, MergingWindowAssigner<T, W>& assigner, Scratch& scratch, OnMerge&& on_merge) {
    scratch.windows.clear();
    for (const auto& [window, state_window] : mapping_) scratch.windows.push_back(window);
    scratch.windows.push_back(new_window);

    // Each merge is applied as the assigner reports it: the assigner works on
    // scratch.windows, a copy, so changing the mapping meanwhile is safe.
    W result_window = new_window;
    bool merged_new_window = false;
    bool any_merge = false;
    auto apply_merge = [&](const std::vector<W>& to_be_merged, const W& merge_result) {
      any_merge = true;
      std::vector<W>& merged_windows = scratch.merged;
      merged_windows.assign(to_be_merged.begin(), to_be_merged.end());
      // The new window has no state yet: it is not one of the merged windows
      // the callback hears about, only the reason for the merge.
      if (auto it = std::find(merged_windows.begin(), merged_windows.end(), new_window); it != merged_windows.end()) {
        merged_windows.erase(it);
        merged_new_window = true;
        result_window = merge_result;
      }
      // The merge result keeps the state window of one merged window; the
      // others' contents move there.
      const W state_window = find(merged_windows.front())->second;
      std::vector<W>& merged_state_windows = scratch.merged_state_windows;
      merged_state_windows.clear();
      for (const W& merged : merged_windows) {
        auto it = find(merged);
        if (it == mapping_.end()) continue;
        if (!(it->second == state_window)) merged_state_windows.push_back(it->second);
        mapping_.erase(it);
      }
      mapping_.emplace_back(merge_result, state_window);
      // An existing window that only absorbed the new one has nothing to merge.
      const bool only_absorbed = merged_windows.size() == 1 && merged_windows.front() == merge_result;
      if (!only_absorbed) on_merge(merge_result, merged_windows, state_window, merged_state_windows);
    };
    ForwardingCallback<decltype(apply_merge)> callback(apply_merge);
    assigner.mergeWindows(scratch.windows, callback);

    if (!any_merge || (result_window == new_window && !merged_new_window)) {
      mapping_.emplace_back(result_window, result_window);
    }
    return result_window;
  }

 private:
  // Hands each merge the assigner reports to a function, without the
  // allocation a std::function would make.
  template <class F>
  class ForwardingCallback final : public MergeCallback<W> {
   public:
    explicit ForwardingCallback(F& f) : f_(f) {}
    void merge(const std::vector<W>& to_be_merged, const W& merge_result) override { f_(to_be_merged, merge_result); }

   private:
    F& f_;
  };

  typename Mapping::iterator find(const W& window) {
    return std::find_if(mapping_.begin(), mapping_.end(), [&](const auto& entry) { return entry.first == window; });
  }
  typename Mapping::const_iterator find(const W& window) const {
    return std::find_if(mapping_.begin(), mapping_.end(), [&](const auto& entry) { return entry.first == window; });
  }

  Mapping& mapping_;
};

}  // namespace tidemark::internal
