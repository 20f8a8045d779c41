// Partitioners: which downstream subtask receives a record.
//
// Each is a small value type with `int select(const T& value, int channels)`;
// the record writer is a template over it, so choosing a channel is an inline
// call, not a virtual one. Broadcast is marked by kBroadcast and handled by the
// writer (every channel gets a copy).
#pragma once

#include "tidemark/core/key_group.h"

namespace tidemark::internal {

enum class PartitionerKind { FORWARD, REBALANCE, KEY_GROUP, BROADCAST, GLOBAL };

/// Subtask i sends to subtask i: the only channel of a forward edge.
struct ForwardPartitioner {
  static constexpr bool kBroadcast = false;
  template <class T>
  int select(const T&, int) const {
    return 0;
  }
};

/// Everything to the first subtask.
struct GlobalPartitioner {
  static constexpr bool kBroadcast = false;
  template <class T>
  int select(const T&, int) const {
    return 0;
  }
};

/// Round robin. Each producer subtask starts at its own index, so parallel
/// producers do not all hit subtask 0 first (and runs stay deterministic).
struct RebalancePartitioner {
  static constexpr bool kBroadcast = false;
  explicit RebalancePartitioner(int producer_subtask = 0) : next_(producer_subtask) {}
  template <class T>
  int select(const T&, int channels) {
    const int channel = next_ % channels;
    next_ = channel + 1;
    return channel;
  }

 private:
  int next_;
};

struct BroadcastPartitioner {
  static constexpr bool kBroadcast = true;
  template <class T>
  int select(const T&, int) const {
    return 0;
  }
};

/// keyBy: key -> key group -> the subtask owning that group.
template <class KeySelector>
struct KeyGroupPartitioner {
  static constexpr bool kBroadcast = false;
  KeyGroupPartitioner(KeySelector selector, int max_parallelism)
      : selector_(std::move(selector)), key_groups_(max_parallelism) {}
  template <class T>
  int select(const T& value, int channels) const {
    return key_groups_.operatorIndexOf(key_groups_.keyGroupOf(selector_(value)), channels);
  }

 private:
  KeySelector selector_;
  KeyGroupAssigner key_groups_;
};

}  // namespace tidemark::internal
