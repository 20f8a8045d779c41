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
// - A snapshot writes an erased key in the format of the type it erases
//   (TypeSerializer<K>), so trigger state restores into any backend keyed by
//   K. A backend of erased keys names that type when it is made
//   (CurrentKeyContext<ErasedKey>::type, below); reading a key back needs it.
#pragma once

#include <cstddef>
#include <string>
#include <typeinfo>
#include <utility>

#include "tidemark/core/describe.h"
#include "tidemark/internal/state/state_table.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {

class ErasedKey {
 public:
  /// What an erased key can do with the value it holds; one per key type.
  struct Ops {
    std::size_t (*hash)(const void*);
    bool (*equal)(const void*, const void*);
    const void* (*clone)(const void*);
    void (*destroy)(const void*);
    std::string (*type_name)();
    /// The three below are null when the key type has no TypeSerializer.
    std::string (*signature)();
    void (*serialize)(const void*, DataOutput&);
    const void* (*deserialize)(DataInput&);
  };

  template <class K>
  static ErasedKey borrow(const K& key) {
    return ErasedKey(&key, &opsFor<K>(), false);
  }

  /// The operations of key type K: what names the type of a backend's keys.
  template <class K>
  static const Ops& opsFor() {
    static constexpr Ops ops{
        [](const void* k) { return hashStatePart(*static_cast<const K*>(k)); },
        [](const void* a, const void* b) { return *static_cast<const K*>(a) == *static_cast<const K*>(b); },
        [](const void* k) -> const void* { return new K(*static_cast<const K*>(k)); },
        [](const void* k) { delete static_cast<const K*>(k); },
        []() { return demangle(typeid(K).name()); },
        serializerOps<K>().signature,
        serializerOps<K>().serialize,
        serializerOps<K>().deserialize,
    };
    return ops;
  }

  /// Read a key of the type `ops` belong to; the result owns its value.
  static ErasedKey read(DataInput& in, const Ops& ops) { return ErasedKey(ops.deserialize(in), &ops, true); }
  void write(DataOutput& out) const { ops_->serialize(value_, out); }

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
  struct SerializerOps {
    std::string (*signature)();
    void (*serialize)(const void*, DataOutput&);
    const void* (*deserialize)(DataInput&);
  };

  template <class K>
  static constexpr SerializerOps serializerOps() {
    if constexpr (Serializable<K>) {
      return {[] { return TypeSerializer<K>::signature(); },
              [](const void* k, DataOutput& out) { TypeSerializer<K>::serialize(*static_cast<const K*>(k), out); },
              [](DataInput& in) -> const void* { return new K(TypeSerializer<K>::deserialize(in)); }};
    } else {
      return {nullptr, nullptr, nullptr};
    }
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

/// A backend of erased keys: its current key, and the type every key erases.
template <>
struct CurrentKeyContext<ErasedKey> {
  std::optional<ErasedKey> key;
  /// key group - range.start; -1 until a key is set.
  int key_group_index = -1;
  /// Set by whoever makes the backend; null only in a backend never snapshotted.
  const ErasedKey::Ops* type = nullptr;
};

template <>
struct KeyFormat<ErasedKey> {
  static constexpr bool kCompiles = true;
  static bool serializable(const CurrentKeyContext<ErasedKey>& context) {
    return context.type != nullptr && context.type->serialize != nullptr;
  }
  static std::string typeName(const CurrentKeyContext<ErasedKey>& context) {
    return context.type != nullptr ? context.type->type_name() : std::string("an erased key of unknown type");
  }
  static std::string signature(const CurrentKeyContext<ErasedKey>& context) {
    return serializable(context) ? context.type->signature() : std::string();
  }
  // Called only once serializable() held.
  static void write(const ErasedKey& key, DataOutput& out, const CurrentKeyContext<ErasedKey>&) { key.write(out); }
  static ErasedKey read(DataInput& in, const CurrentKeyContext<ErasedKey>& context) {
    return ErasedKey::read(in, *context.type);
  }
};

}  // namespace tidemark::internal
