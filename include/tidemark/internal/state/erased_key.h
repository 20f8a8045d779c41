// ErasedKey: a key of any type behind one type, so that state whose user code
// does not know the stream's key type (a Trigger<T, W> has no K) can still be
// kept per key in a HeapKeyedStateBackend<ErasedKey>.
//
// Contract:
// - borrow(key) refers to a key owned elsewhere and must not outlive it; it
//   is what the operator makes current for every element, so making a key
//   current allocates nothing.
// - A state table stores owned() copies (see storedKey() in state_table.h):
//   the key is cloned once, when its first entry is created.
// - Copying an owning key clones it; copying a borrowed key borrows again.
// - Two keys are equal only when they hold the same type and equal values.
#pragma once

#include <cstddef>
#include <utility>

#include "tidemark/internal/state/state_table.h"

namespace tidemark::internal {

class ErasedKey {
 public:
  template <class K>
  static ErasedKey borrow(const K& key) {
    return ErasedKey(&key, &opsFor<K>(), false);
  }

  ErasedKey(const ErasedKey& other)
      : value_(other.owns_ ? other.ops_->clone(other.value_) : other.value_), ops_(other.ops_), owns_(other.owns_) {}
  ErasedKey(ErasedKey&& other) noexcept
      : value_(std::exchange(other.value_, nullptr)), ops_(other.ops_), owns_(std::exchange(other.owns_, false)) {}
  ErasedKey& operator=(ErasedKey other) noexcept {
    swap(other);
    return *this;
  }
  ~ErasedKey() {
    if (owns_) ops_->destroy(value_);
  }

  /// A copy that owns its value.
  ErasedKey owned() const { return ErasedKey(ops_->clone(value_), ops_, true); }

  /// The value, when the caller knows its type.
  template <class K>
  const K& as() const {
    return *static_cast<const K*>(value_);
  }

  friend bool operator==(const ErasedKey& a, const ErasedKey& b) {
    return a.ops_ == b.ops_ && a.ops_->equal(a.value_, b.value_);
  }
  template <class H>
  friend H AbslHashValue(H h, const ErasedKey& k) {
    return H::combine(std::move(h), k.ops_->hash(k.value_));
  }

 private:
  struct Ops {
    std::size_t (*hash)(const void*);
    bool (*equal)(const void*, const void*);
    const void* (*clone)(const void*);
    void (*destroy)(const void*);
  };

  template <class K>
  static const Ops& opsFor() {
    static constexpr Ops ops{
        [](const void* k) { return hashStatePart(*static_cast<const K*>(k)); },
        [](const void* a, const void* b) { return *static_cast<const K*>(a) == *static_cast<const K*>(b); },
        [](const void* k) -> const void* { return new K(*static_cast<const K*>(k)); },
        [](const void* k) { delete static_cast<const K*>(k); },
    };
    return ops;
  }

  ErasedKey(const void* value, const Ops* ops, bool owns) : value_(value), ops_(ops), owns_(owns) {}

  void swap(ErasedKey& other) noexcept {
    std::swap(value_, other.value_);
    std::swap(ops_, other.ops_);
    std::swap(owns_, other.owns_);
  }

  const void* value_;
  const Ops* ops_;
  bool owns_;
};

}  // namespace tidemark::internal
