// The timers of one time domain (event time or processing time) of a keyed
// operator: a set of (key, namespace, timestamp) triples that comes out in
// ascending timestamp order, ties in registration order (docs/semantics.md 3.1/3.2;
// the tie rule is tidemark's deterministic choice where Flink uses heap order).
//
// Why not one binary heap of timers plus a global dedup set, as Flink does:
// operators register one timer per record (usually `timestamp + delay`), so a
// queue holds ~10^6 timers, and every add/poll would then pay two cache-missing
// log(n) heap walks plus a probe into a table far larger than the cache. Real
// streams, however, put many timers on few distinct timestamps (millisecond
// resolution, windows ending on the same boundary), and new timers cluster at
// the newest timestamps while firing happens at the oldest. So timers are
// grouped into one bucket per distinct timestamp:
//
//   bucket_of_   hash map timestamp -> bucket id (only timestamps with live
//                timers).
//   heap_        min-heap of (timestamp, bucket id), one per bucket; it may hold
//                stale items (bucket emptied by remove(), or a duplicate after a
//                timestamp was emptied and used again). Invariant: the top item,
//                if any, names a live bucket, so peeking needs no lookup.
//   Bucket       timers in registration order (a vector with a read cursor
//                `head` and tombstones for removed timers), plus, once it has
//                more than kLinearScanLimit slots, a hash set of slot indices
//                keyed by (key, namespace) for dedup and remove. The set stores
//                4-byte indices and hashes through the slot vector, so keys are
//                stored once.
//   free_        emptied buckets, kept with their vector and set capacity, so a
//                steady state (buckets created at the head of time, drained at
//                the tail) allocates nothing.
//
// Costs (B = distinct pending timestamps, m = timers in one bucket):
//   add        O(1) expected; O(log B) more when it creates a bucket. The last
//              bucket added to is cached, so a run of timers on one timestamp
//              skips the timestamp lookup, and each bucket remembers its last
//              timer, so adding that one again costs one comparison.
//   remove     O(1) expected, amortized (tombstone; a bucket is compacted when
//              tombstones outnumber live timers, and released when empty).
//   poll/peek  O(1) expected within a bucket; O(log B) amortized to move on to
//              the next bucket (including popping stale heap items, whose
//              number is kept below 2 * B + 64 by rebuilding the heap).
//   memory     one slot per timer plus a hash-set slot (~4-8 bytes) for timers
//              in buckets beyond kLinearScanLimit; retired buckets keep their
//              capacity unless it exceeds kMaxRetainedSlots.
// The worst case is every timer on its own timestamp: then each timer pays for
// a whole bucket (~200 bytes, a few extra cache misses) on top of a heap item,
// and the queue runs at roughly half the speed of a plain binary heap with a
// dedup set (measured at 10^6 pending timers). From about ten timers per
// timestamp on it is faster than that, and about ten times faster at a
// thousand per timestamp.
// Timers added while a bucket is being drained are appended behind its cursor
// (same timestamp: they fire in the same loop) or become the new heap top
// (earlier timestamp), so callers can add from inside a firing loop.
//
// K and N must be copyable, equality-comparable and hashable by absl::Hash
// (an AbslHashValue overload or std::hash).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "tidemark/core/time.h"

namespace tidemark::internal {

/// One timer: fires for `key` in namespace `ns` at `timestamp`.
template <class K, class N>
struct TimerEntry {
  K key;
  N ns;
  Timestamp timestamp;

  friend bool operator==(const TimerEntry&, const TimerEntry&) = default;
};

/// A set of timers of one time domain, polled in (timestamp, registration)
/// order. Not thread-safe: it belongs to one task.
template <class K, class N>
class TimerQueue {
 public:
  TimerQueue() = default;
  TimerQueue(const TimerQueue&) = delete;
  TimerQueue& operator=(const TimerQueue&) = delete;
  TimerQueue(TimerQueue&&) = default;
  TimerQueue& operator=(TimerQueue&&) = default;
  ~TimerQueue() = default;

  /// Add the timer; false (and no change of its place in line) if it exists.
  bool add(const K& key, const N& ns, Timestamp timestamp) {
    const bool is_cached = has_cached_bucket_ && cached_timestamp_ == timestamp;
    std::uint32_t id = cached_bucket_;
    if (!is_cached) {
      auto it = bucket_of_.find(timestamp);
      if (it == bucket_of_.end()) {
        id = openBucket(timestamp);
        buckets_[id]->append(key, ns);
        ++size_;
        return true;
      }
      id = it->second;
      cacheBucket(timestamp, id);
    }
    if (!buckets_[id]->append(key, ns)) return false;
    ++size_;
    return true;
  }

  /// Remove the timer; false if it does not exist.
  bool remove(const K& key, const N& ns, Timestamp timestamp) {
    const std::optional<std::uint32_t> id = findBucket(timestamp);
    if (!id) return false;
    Bucket& bucket = *buckets_[*id];
    const std::optional<std::uint32_t> slot = bucket.find(key, ns);
    if (!slot) return false;
    bucket.kill(*slot);
    --size_;
    if (bucket.live == 0) {
      releaseBucket(*id);
    } else {
      bucket.maybeCompact();
    }
    return true;
  }

  bool contains(const K& key, const N& ns, Timestamp timestamp) const {
    const std::optional<std::uint32_t> id = findBucket(timestamp);
    return id && buckets_[*id]->find(key, ns).has_value();
  }

  /// The earliest timestamp of a live timer.
  std::optional<Timestamp> peekTimestamp() const {
    if (heap_.empty()) return std::nullopt;
    return heap_.front().timestamp;
  }

  /// Remove and return the first timer in (timestamp, registration) order if
  /// its timestamp is <= `t`.
  std::optional<TimerEntry<K, N>> pollAtOrBefore(Timestamp t) {
    if (heap_.empty() || heap_.front().timestamp > t) return std::nullopt;
    const std::uint32_t id = heap_.front().bucket;
    Bucket& bucket = *buckets_[id];
    while (!bucket.slots[bucket.head].live) ++bucket.head;
    const auto slot = static_cast<std::uint32_t>(bucket.head);
    ++bucket.head;
    bucket.kill(slot);
    --size_;
    Slot& taken = bucket.slots[slot];
    std::optional<TimerEntry<K, N>> result(
        std::in_place, TimerEntry<K, N>{std::move(taken.key), std::move(taken.ns), bucket.timestamp});
    if (bucket.live == 0) releaseBucket(id);
    return result;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  /// Call `f(const K&, const N&, Timestamp)` for every live timer, in the order
  /// they would fire, so re-adding them in visit order restores the same queue.
  template <class F>
  void forEach(F&& f) const {
    std::vector<std::pair<Timestamp, std::uint32_t>> order(bucket_of_.begin(), bucket_of_.end());
    std::sort(order.begin(), order.end());
    for (const auto& [timestamp, id] : order) {
      const Bucket& bucket = *buckets_[id];
      for (std::size_t i = bucket.head; i < bucket.slots.size(); ++i) {
        const Slot& slot = bucket.slots[i];
        if (slot.live) f(slot.key, slot.ns, timestamp);
      }
    }
  }

 private:
  // Below this many slots a bucket finds timers by scanning; most buckets of
  // sparse timestamps hold one or two timers and never pay for a hash set.
  static constexpr std::size_t kLinearScanLimit = 8;
  // Tombstones are compacted away only past this count, so tiny buckets never
  // churn.
  static constexpr std::size_t kMinCompaction = 32;
  // A retired bucket that grew past this many slots gives its memory back, so
  // one burst on a single timestamp does not pin memory forever.
  static constexpr std::size_t kMaxRetainedSlots = std::size_t{1} << 16;
  // The heap is rebuilt once stale items exceed live buckets by this margin.
  static constexpr std::size_t kHeapSlack = 64;

  struct Slot {
    K key;
    [[no_unique_address]] N ns;
    bool live;
  };

  struct KeyRef {
    const K& key;
    const N& ns;

    template <class H>
    friend H AbslHashValue(H h, const KeyRef& ref) {
      return H::combine(std::move(h), ref.key, ref.ns);
    }
  };

  // The hash set holds slot indices but hashes and compares the slots' keys,
  // so a lookup by (key, ns) needs no copy of the key. It points at the slot
  // vector, which is why a Bucket never moves.
  struct SlotHash {
    using is_transparent = void;
    const std::vector<Slot>* slots;
    std::size_t operator()(std::uint32_t i) const {
      const Slot& slot = (*slots)[i];
      return (*this)(KeyRef{slot.key, slot.ns});
    }
    std::size_t operator()(const KeyRef& ref) const { return absl::Hash<KeyRef>{}(ref); }
  };
  struct SlotEq {
    using is_transparent = void;
    const std::vector<Slot>* slots;
    bool operator()(std::uint32_t a, std::uint32_t b) const {
      return a == b || (*this)(a, KeyRef{(*slots)[b].key, (*slots)[b].ns});
    }
    bool operator()(std::uint32_t a, const KeyRef& b) const {
      const Slot& slot = (*slots)[a];
      return slot.key == b.key && slot.ns == b.ns;
    }
    bool operator()(const KeyRef& a, std::uint32_t b) const { return (*this)(b, a); }
  };
  using SlotIndex = absl::flat_hash_set<std::uint32_t, SlotHash, SlotEq>;

  struct Bucket {
    Timestamp timestamp = 0;
    bool active = false;
    // Whether `index` holds every live slot (else lookups scan [head, end)).
    bool indexed = false;
    std::size_t head = 0;
    std::size_t live = 0;
    std::size_t last_appended = 0;
    std::vector<Slot> slots;
    SlotIndex index{0, SlotHash{&slots}, SlotEq{&slots}};

    Bucket() = default;
    Bucket(const Bucket&) = delete;
    Bucket& operator=(const Bucket&) = delete;

    std::optional<std::uint32_t> find(const K& key, const N& ns) const {
      if (indexed) {
        auto it = index.find(KeyRef{key, ns});
        if (it == index.end()) return std::nullopt;
        return *it;
      }
      for (std::size_t i = head; i < slots.size(); ++i) {
        const Slot& slot = slots[i];
        if (slot.live && slot.key == key && slot.ns == ns) return static_cast<std::uint32_t>(i);
      }
      return std::nullopt;
    }

    // Appends unless the timer is present; false if it was.
    bool append(const K& key, const N& ns) {
      if (isLastAppended(key, ns) || find(key, ns)) return false;
      const auto i = static_cast<std::uint32_t>(slots.size());
      slots.push_back(Slot{key, ns, true});
      last_appended = i;
      ++live;
      if (indexed) {
        index.insert(i);
      } else if (slots.size() - head > kLinearScanLimit) {
        buildIndex();
      }
      return true;
    }

    // Whether (key, ns) is the live timer appended last. Window operators
    // register the same timer twice per element (the trigger's, then the
    // cleanup timer, which coincide unless there is allowed lateness), so
    // this spares the second add a hash probe. The index is only a hint: it
    // may point past the end or at another timer after a compaction, which
    // the comparison rejects.
    bool isLastAppended(const K& key, const N& ns) const {
      if (last_appended >= slots.size()) return false;
      const Slot& slot = slots[last_appended];
      return slot.live && slot.key == key && slot.ns == ns;
    }

    // Marks a live slot dead; the caller may then move its key out.
    void kill(std::uint32_t i) {
      if (indexed) index.erase(i);
      slots[i].live = false;
      --live;
    }

    void buildIndex() {
      indexed = true;
      for (std::size_t i = head; i < slots.size(); ++i) {
        if (slots[i].live) index.insert(static_cast<std::uint32_t>(i));
      }
    }

    // Squeezes out consumed and removed slots once they outnumber live ones,
    // keeping order; amortized O(1) per remove.
    void maybeCompact() {
      const std::size_t dead = slots.size() - live;
      if (dead <= live || dead < kMinCompaction) return;
      // Erasing one by one keeps the set's capacity (clear() would free it).
      if (indexed) {
        for (std::size_t i = head; i < slots.size(); ++i) {
          if (slots[i].live) index.erase(static_cast<std::uint32_t>(i));
        }
        indexed = false;
      }
      std::size_t out = 0;
      for (std::size_t i = head; i < slots.size(); ++i) {
        if (!slots[i].live) continue;
        if (out != i) slots[out] = std::move(slots[i]);
        ++out;
      }
      slots.erase(slots.begin() + static_cast<std::ptrdiff_t>(out), slots.end());
      head = 0;
      if (slots.size() > kLinearScanLimit) buildIndex();
    }

    // Called when live == 0, so the index is already empty.
    void reset() {
      active = false;
      indexed = false;
      head = 0;
      if (slots.capacity() > kMaxRetainedSlots) {
        std::vector<Slot>().swap(slots);
        index = SlotIndex(0, SlotHash{&slots}, SlotEq{&slots});
      } else {
        slots.clear();
      }
    }
  };

  struct HeapItem {
    Timestamp timestamp;
    std::uint32_t bucket;
  };
  // std::*_heap build a max-heap; inverting the order gives a min-heap. A
  // function object rather than a function pointer, so it gets inlined.
  struct Later {
    bool operator()(const HeapItem& a, const HeapItem& b) const { return a.timestamp > b.timestamp; }
  };

  std::optional<std::uint32_t> findBucket(Timestamp timestamp) const {
    if (has_cached_bucket_ && cached_timestamp_ == timestamp) return cached_bucket_;
    auto it = bucket_of_.find(timestamp);
    if (it == bucket_of_.end()) return std::nullopt;
    return it->second;
  }

  void cacheBucket(Timestamp timestamp, std::uint32_t id) {
    has_cached_bucket_ = true;
    cached_timestamp_ = timestamp;
    cached_bucket_ = id;
  }

  std::uint32_t openBucket(Timestamp timestamp) {
    std::uint32_t id;
    if (!free_.empty()) {
      id = free_.back();
      free_.pop_back();
    } else {
      id = static_cast<std::uint32_t>(buckets_.size());
      buckets_.push_back(std::make_unique<Bucket>());
    }
    Bucket& bucket = *buckets_[id];
    bucket.timestamp = timestamp;
    bucket.active = true;
    bucket_of_.emplace(timestamp, id);
    heap_.push_back(HeapItem{timestamp, id});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
    cacheBucket(timestamp, id);
    return id;
  }

  void releaseBucket(std::uint32_t id) {
    Bucket& bucket = *buckets_[id];
    bucket_of_.erase(bucket.timestamp);
    bucket.reset();
    free_.push_back(id);
    if (has_cached_bucket_ && cached_bucket_ == id) has_cached_bucket_ = false;
    if (heap_.size() > 2 * bucket_of_.size() + kHeapSlack) {
      rebuildHeap();
    } else {
      dropStaleTop();
    }
  }

  bool isLive(const HeapItem& item) const {
    const Bucket& bucket = *buckets_[item.bucket];
    return bucket.active && bucket.timestamp == item.timestamp;
  }

  void dropStaleTop() {
    while (!heap_.empty() && !isLive(heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      heap_.pop_back();
    }
  }

  void rebuildHeap() {
    heap_.clear();
    for (const auto& [timestamp, id] : bucket_of_) heap_.push_back(HeapItem{timestamp, id});
    std::make_heap(heap_.begin(), heap_.end(), Later{});
  }

  absl::flat_hash_map<Timestamp, std::uint32_t> bucket_of_;
  std::vector<HeapItem> heap_;
  // Buckets are individually allocated because each one's hash set points
  // into it.
  std::vector<std::unique_ptr<Bucket>> buckets_;
  std::vector<std::uint32_t> free_;
  std::size_t size_ = 0;
  bool has_cached_bucket_ = false;
  Timestamp cached_timestamp_ = 0;
  std::uint32_t cached_bucket_ = 0;
};

}  // namespace tidemark::internal
