// Shared fixtures for the keyed state tests: a window-like namespace, a key
// type that only has a stable hash, and helpers to find keys by key group.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "tidemark/core/key_group.h"

namespace tidemark::internal::testing {

inline constexpr int kMaxParallelism = 128;

/// A stand-in for TimeWindow: state namespaces must be hashable and comparable.
struct TestWindow {
  long start = 0;
  long end = 0;

  auto fields() { return std::tie(start, end); }
  friend bool operator==(const TestWindow&, const TestWindow&) = default;
  template <class H>
  friend H AbslHashValue(H h, const TestWindow& w) {
    return H::combine(std::move(h), w.start, w.end);
  }
};

/// A user key that opts into key groups with stableHash() but has no AbslHashValue,
/// so the state table must fall back to the stable hash.
struct UserId {
  std::uint64_t id = 0;

  std::uint64_t stableHash() const { return id * 31 + 7; }
  friend bool operator==(const UserId&, const UserId&) = default;
};

/// The first non-negative int key whose group satisfies `pred`.
template <class Pred>
int findIntKey(Pred pred, int start = 0) {
  for (int key = start; key < 1'000'000; ++key) {
    if (pred(assignToKeyGroup(key, kMaxParallelism))) {
      return key;
    }
  }
  throw std::runtime_error("no key found");
}

}  // namespace tidemark::internal::testing
