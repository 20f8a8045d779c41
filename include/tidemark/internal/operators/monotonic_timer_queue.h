// MonotonicTimerQueue<K, kLanes>: event-time wake-ups of keys, for an
// operator whose timers mostly arrive in timestamp order within each of a few
// kinds ("lanes"): the CEP operator registers one at each new element's
// timestamp (lane 0) and one at each partial match's timeout (lane 1); each
// lane's timestamps grow with the input's, but the two interleave.
//
// Entries come out in ascending timestamp order, ties in registration order
// across all lanes (the order TimerQueue gives). Unlike TimerQueue it does
// not deduplicate: an entry registered twice comes out twice, so it only
// suits an owner whose wake-up handler is idempotent. In exchange a
// registration at or after its lane's newest timestamp is an append to that
// lane's FIFO (no hashing, no heap walk); only earlier ones go to a binary
// heap. Polling takes the earliest of the lane heads and the heap top.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

#include "tidemark/core/time.h"

namespace tidemark::internal {

template <class K, std::size_t kLanes = 1>
class MonotonicTimerQueue {
 public:
  struct Entry {
    Timestamp timestamp;
    std::uint64_t sequence;  // registration order
    K key;
  };

  void add(const K& key, Timestamp timestamp, std::size_t lane = 0) {
    Lane& l = lanes_[lane];
    Entry entry{timestamp, next_sequence_++, key};
    if (l.empty() || l.entries.back().timestamp <= timestamp) {
      l.entries.push_back(std::move(entry));
    } else {
      out_of_order_.push(std::move(entry));
    }
  }

  /// The next entry at or before `t`, if any, removed from the queue.
  std::optional<Entry> pollAtOrBefore(Timestamp t) {
    Lane* best = nullptr;
    for (Lane& l : lanes_) {
      if (!l.empty() && (best == nullptr || earlier(l.front(), best->front()))) best = &l;
    }
    const bool heap_first =
        !out_of_order_.empty() && (best == nullptr || earlier(out_of_order_.top(), best->front()));
    if (heap_first) {
      if (out_of_order_.top().timestamp > t) return std::nullopt;
      Entry e = out_of_order_.top();
      out_of_order_.pop();
      return e;
    }
    if (best == nullptr || best->front().timestamp > t) return std::nullopt;
    return best->takeFront();
  }

  /// f(key, timestamp, sequence) for every pending entry, in no particular
  /// order; the sequence is the entry's place in registration order. The
  /// references are valid only during the call to f.
  template <class F>
  void forEachEntry(F&& f) const {
    for (const Lane& l : lanes_) {
      for (std::size_t i = l.head; i < l.entries.size(); ++i) f(l.entries[i].key, l.entries[i].timestamp, l.entries[i].sequence);
    }
    auto heap = out_of_order_;
    for (; !heap.empty(); heap.pop()) f(heap.top().key, heap.top().timestamp, heap.top().sequence);
  }

  std::size_t size() const {
    std::size_t n = out_of_order_.size();
    for (const Lane& l : lanes_) n += l.entries.size() - l.head;
    return n;
  }
  bool empty() const { return size() == 0; }

 private:
  static bool earlier(const Entry& a, const Entry& b) {
    return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.sequence < b.sequence;
  }
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const { return earlier(b, a); }
  };

  // A FIFO of non-decreasing timestamps: a vector consumed from `head`.
  struct Lane {
    std::vector<Entry> entries;
    std::size_t head = 0;

    bool empty() const { return head == entries.size(); }
    const Entry& front() const { return entries[head]; }
    Entry takeFront() {
      Entry e = std::move(entries[head++]);
      // Reuse the vector once drained; move the tail down once the consumed
      // prefix dominates, so memory follows the pending entries.
      if (head == entries.size()) {
        entries.clear();
        head = 0;
      } else if (head >= 1024 && head * 2 >= entries.size()) {
        entries.erase(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(head));
        head = 0;
      }
      return e;
    }
  };

  std::array<Lane, kLanes> lanes_;
  std::priority_queue<Entry, std::vector<Entry>, Later> out_of_order_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace tidemark::internal
