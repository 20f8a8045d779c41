// HugePageAllocator: a standard allocator that backs large blocks (2 MiB and
// up) with transparent huge pages, for hash tables that are read at random
// and outgrow the cache.
//
// Why: a table of a million keys spans ~8,000 ordinary 4 KiB pages, far more
// than the TLB holds, so a random probe pays a page-table walk on top of the
// cache miss. With 2 MiB pages the same table needs ~16 TLB entries. The
// kernel is only asked (madvise(MADV_HUGEPAGE)); where it declines, or on a
// machine with transparent huge pages disabled, the memory is ordinary.
//
// Small blocks go to operator new, so a small table costs nothing extra;
// large ones are mapped from the kernel and unmapped when freed.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>

namespace tidemark::internal {

inline constexpr std::size_t kHugePageSize = std::size_t{2} << 20;

template <class T>
class HugePageAllocator {
 public:
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePageSize) return static_cast<T*>(::operator new(bytes, std::align_val_t{alignof(T)}));
    return static_cast<T*>(mapAligned(roundUp(bytes)));
  }

  void deallocate(T* block, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePageSize) {
      ::operator delete(block, std::align_val_t{alignof(T)});
    } else {
      ::munmap(block, roundUp(bytes));
    }
  }

  template <class U>
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator<U>&) noexcept {
    return true;
  }

 private:
  static std::size_t roundUp(std::size_t bytes) { return (bytes + kHugePageSize - 1) / kHugePageSize * kHugePageSize; }

  // Straight from the kernel (not malloc): a freed table goes back at once
  // instead of fragmenting the heap with 2 MiB-aligned holes. The mapping is
  // over-sized by one huge page and trimmed to an aligned range.
  static void* mapAligned(std::size_t bytes) {
    const std::size_t mapped = bytes + kHugePageSize;
    void* raw = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (start + kHugePageSize - 1) / kHugePageSize * kHugePageSize;
    if (aligned > start) ::munmap(raw, aligned - start);
    const std::uintptr_t end = start + mapped;
    if (end > aligned + bytes) ::munmap(reinterpret_cast<void*>(aligned + bytes), end - (aligned + bytes));
    void* block = reinterpret_cast<void*>(aligned);
    ::madvise(block, bytes, MADV_HUGEPAGE);  // advice only: failure leaves ordinary pages
    return block;
  }
};

}  // namespace tidemark::internal
