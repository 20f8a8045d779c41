// Keys -> key groups -> subtasks.
//
// Keyed state and timers are partitioned into `maxParallelism` key groups, the
// unit in which state can later be redistributed when parallelism changes. A
// key's group depends only on a stable hash of the key and on maxParallelism
// (never on the parallelism), and each subtask owns one contiguous range of
// groups, as in Flink.
//
// The hash must be stable across processes and runs (state snapshots and
// rescaling depend on it), so tidemark does not use std::hash or absl::Hash,
// which may differ between builds or be seeded per process. Built-in support:
// integral and enum types, std::string / std::string_view / const char*,
// std::pair and std::tuple of supported types. A user key type opts in either
// with a member `std::uint64_t stableHash() const` or by specializing
// `tidemark::KeyHash<T>`.
//
// Example:
//   int group = tidemark::assignToKeyGroup(std::string("Mary"), 128);
//   int subtask = tidemark::computeOperatorIndexForKeyGroup(128, 2, group);
#pragma once

#include <bit>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tidemark {

/// The default number of key groups (StreamExecutionEnvironment::setMaxParallelism).
inline constexpr int kDefaultMaxParallelism = 128;
/// The largest supported number of key groups (Flink's limit, 2^15).
inline constexpr int kUpperBoundMaxParallelism = 1 << 15;

namespace internal {

/// Final mix of MurmurHash3 (fmix64): spreads every input bit over the output.
constexpr std::uint64_t mix64(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

/// Combine a running hash with the next element's hash (order-sensitive).
constexpr std::uint64_t combineHash(std::uint64_t seed, std::uint64_t next) {
  return mix64(seed ^ (next + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)));
}

/// A stable 64-bit hash of bytes (FNV-1a, then mixed).
constexpr std::uint64_t hashBytes(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return mix64(h ^ bytes.size());
}

}  // namespace internal

/// Customization point: specialize to give a key type a stable hash.
template <class T, class Enable = void>
struct KeyHash;

template <class T>
struct KeyHash<T, std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>>> {
  constexpr std::uint64_t operator()(T value) const {
    return internal::mix64(static_cast<std::uint64_t>(value));
  }
};

template <>
struct KeyHash<std::string> {
  std::uint64_t operator()(const std::string& s) const { return internal::hashBytes(s); }
};

template <>
struct KeyHash<std::string_view> {
  std::uint64_t operator()(std::string_view s) const { return internal::hashBytes(s); }
};

template <>
struct KeyHash<const char*> {
  std::uint64_t operator()(const char* s) const { return internal::hashBytes(std::string_view(s)); }
};

template <class T>
concept HasStableHashMember = requires(const T& t) {
  { t.stableHash() } -> std::convertible_to<std::uint64_t>;
};

template <HasStableHashMember T>
struct KeyHash<T> {
  std::uint64_t operator()(const T& t) const { return t.stableHash(); }
};

/// True when tidemark knows how to hash K stably (see the file comment).
template <class K>
concept StablyHashable = requires(const K& k) {
  { KeyHash<K>{}(k) } -> std::convertible_to<std::uint64_t>;
};

template <StablyHashable A, StablyHashable B>
struct KeyHash<std::pair<A, B>> {
  std::uint64_t operator()(const std::pair<A, B>& p) const {
    return internal::combineHash(KeyHash<A>{}(p.first), KeyHash<B>{}(p.second));
  }
};

template <StablyHashable... Ts>
struct KeyHash<std::tuple<Ts...>> {
  std::uint64_t operator()(const std::tuple<Ts...>& t) const {
    std::uint64_t h = 0x84222325cbf29ce4ULL;
    std::apply([&h](const Ts&... parts) { ((h = internal::combineHash(h, KeyHash<Ts>{}(parts))), ...); }, t);
    return h;
  }
};

/// The stable hash of a key (see KeyHash).
template <StablyHashable K>
std::uint64_t stableKeyHash(const K& key) {
  return KeyHash<K>{}(key);
}

/// The key group of a key hash, in [0, maxParallelism).
inline int keyGroupForHash(std::uint64_t key_hash, int max_parallelism) {
  return static_cast<int>(internal::mix64(key_hash) % static_cast<std::uint64_t>(max_parallelism));
}

/// The key group of a key, in [0, maxParallelism).
template <StablyHashable K>
int assignToKeyGroup(const K& key, int max_parallelism) {
  return keyGroupForHash(stableKeyHash(key), max_parallelism);
}

/// The subtask (operator index) that owns a key group.
inline int computeOperatorIndexForKeyGroup(int max_parallelism, int parallelism, int key_group) {
  return static_cast<int>(static_cast<std::int64_t>(key_group) * parallelism / max_parallelism);
}

/// assignToKeyGroup and computeOperatorIndexForKeyGroup for one max
/// parallelism, for the per-record paths (keyBy's partitioner, the keyed
/// state backend). With a power-of-two max parallelism (the default, 128)
/// the two 64-bit divisions become a mask and a shift; the results are the
/// same as the free functions'.
class KeyGroupAssigner {
 public:
  /// `max_parallelism` > 0.
  explicit KeyGroupAssigner(int max_parallelism)
      : max_parallelism_(max_parallelism),
        shift_(std::has_single_bit(static_cast<unsigned>(max_parallelism))
                   ? std::countr_zero(static_cast<unsigned>(max_parallelism))
                   : -1) {}

  int maxParallelism() const { return max_parallelism_; }

  template <StablyHashable K>
  int keyGroupOf(const K& key) const {
    const std::uint64_t mixed = internal::mix64(stableKeyHash(key));
    const auto groups = static_cast<std::uint64_t>(max_parallelism_);
    return static_cast<int>(shift_ >= 0 ? mixed & (groups - 1) : mixed % groups);
  }

  /// `key_group` in [0, maxParallelism()), `parallelism` > 0.
  int operatorIndexOf(int key_group, int parallelism) const {
    const std::int64_t scaled = static_cast<std::int64_t>(key_group) * parallelism;
    return static_cast<int>(shift_ >= 0 ? scaled >> shift_ : scaled / max_parallelism_);
  }

 private:
  int max_parallelism_;
  int shift_;  // log2(max_parallelism), or -1 when it is not a power of two
};

/// A contiguous, inclusive range of key groups [start, end]; empty when end < start.
struct KeyGroupRange {
  int start = 0;
  int end = -1;

  int size() const { return end >= start ? end - start + 1 : 0; }
  bool contains(int key_group) const { return key_group >= start && key_group <= end; }
  friend bool operator==(const KeyGroupRange&, const KeyGroupRange&) = default;
};

/// The key groups a subtask owns: the inverse of computeOperatorIndexForKeyGroup.
inline KeyGroupRange computeKeyGroupRangeForOperatorIndex(int max_parallelism, int parallelism,
                                                         int operator_index) {
  const std::int64_t start =
      (static_cast<std::int64_t>(operator_index) * max_parallelism + parallelism - 1) / parallelism;
  const std::int64_t end =
      (static_cast<std::int64_t>(operator_index + 1) * max_parallelism - 1) / parallelism;
  return KeyGroupRange{static_cast<int>(start), static_cast<int>(end)};
}

}  // namespace tidemark
