// ComputationState: one partial match of one key (Flink CEP's
// ComputationState), and the queue partial matches are kept in.
//
// The queue orders partial matches by their first event (earliest first,
// partial matches still in the start state last) and is a binary heap that
// inserts, removes and iterates exactly like java.util.PriorityQueue. Flink
// iterates its queues in heap order when it feeds an event to every partial
// match and emits matches, so keeping the same heap keeps the same output
// order for matches that complete on the same event.
#pragma once

#include <cstddef>
#include <iterator>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "tidemark/internal/cep/dewey_number.h"
#include "tidemark/internal/cep/shared_buffer.h"
#include "tidemark/core/time.h"

namespace tidemark::internal {

struct ComputationState {
  int state = 0;                           // index into the compiled states
  std::optional<CepNodeId> previous;       // the last event taken; none in the start state
  DeweyNumber version;
  Timestamp start_timestamp = -1;          // -1 while in the start state
  Timestamp previous_timestamp = -1;
  std::optional<CepEventId> start_event;   // none while in the start state

  auto fields() { return std::tie(state, previous, version, start_timestamp, previous_timestamp, start_event); }

  static ComputationState startState(int state, DeweyNumber version) {
    ComputationState s;
    s.state = state;
    s.version = std::move(version);
    return s;
  }
};

/// Earlier first event first; no first event (the start state) last.
inline int compareComputationStates(const ComputationState& a, const ComputationState& b) {
  const Timestamp ta = a.start_event ? a.start_event->timestamp : kMaxWatermark;
  const Timestamp tb = b.start_event ? b.start_event->timestamp : kMaxWatermark;
  if (ta != tb) return ta < tb ? -1 : 1;
  const std::uint64_t ia = a.start_event ? a.start_event->id : UINT64_MAX;
  const std::uint64_t ib = b.start_event ? b.start_event->id : UINT64_MAX;
  if (ia != ib) return ia < ib ? -1 : 1;
  return 0;
}

class ComputationQueue {
 public:
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const ComputationState* peek() const { return heap_.empty() ? nullptr : &heap_.front(); }
  void clear() { heap_.clear(); }

  /// Heap order (java.util.PriorityQueue's iteration order).
  auto begin() const { return heap_.begin(); }
  auto end() const { return heap_.end(); }

  void add(ComputationState state) {
    heap_.push_back(std::move(state));
    siftUp(heap_.size() - 1);
  }

  ComputationState poll() {
    ComputationState top = std::move(heap_.front());
    ComputationState last = std::move(heap_.back());
    heap_.pop_back();
    if (!heap_.empty()) siftDown(0, std::move(last));
    return top;
  }

  /// Remove every state `drop` selects: survivors keep their relative order,
  /// then the heap is rebuilt (PriorityQueue.removeIf / removeAll).
  template <class Pred>
  void removeIf(Pred drop) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < heap_.size(); ++i) {
      if (drop(heap_[i])) continue;
      if (kept != i) heap_[kept] = std::move(heap_[i]);
      ++kept;
    }
    if (kept == heap_.size()) return;
    heap_.resize(kept);
    for (std::size_t i = heap_.size() / 2; i-- > 0;) {
      ComputationState x = std::move(heap_[i]);
      siftDown(i, std::move(x));
    }
  }

  /// Become `other`'s contents (heap order kept) and leave `other` empty;
  /// both keep their storage, so a queue reused for every key stops
  /// allocating once it is large enough.
  /// What a snapshot writes: the heap as it is, so its order comes back.
  auto fields() { return std::tie(heap_); }

  void takeContentsOf(ComputationQueue& other) {
    heap_.assign(std::make_move_iterator(other.heap_.begin()), std::make_move_iterator(other.heap_.end()));
    other.heap_.clear();
  }

 private:
  void siftUp(std::size_t k) {
    ComputationState x = std::move(heap_[k]);
    while (k > 0) {
      const std::size_t parent = (k - 1) / 2;
      if (compareComputationStates(x, heap_[parent]) >= 0) break;
      heap_[k] = std::move(heap_[parent]);
      k = parent;
    }
    heap_[k] = std::move(x);
  }

  void siftDown(std::size_t k, ComputationState x) {
    const std::size_t n = heap_.size();
    const std::size_t half = n / 2;
    while (k < half) {
      std::size_t child = 2 * k + 1;
      const std::size_t right = child + 1;
      if (right < n && compareComputationStates(heap_[child], heap_[right]) > 0) child = right;
      if (compareComputationStates(x, heap_[child]) <= 0) break;
      heap_[k] = std::move(heap_[child]);
      k = child;
    }
    heap_[k] = std::move(x);
  }

  // A std::vector, whose clear() keeps its capacity: scratch queues and
  // recycled key states (Nfa::releaseState) then stop allocating.
  std::vector<ComputationState> heap_;
};

}  // namespace tidemark::internal
