// Replacement global operator new/delete that count. Relaxed atomics: the
// totals only need to be right once the job's threads are joined, and an
// ordered increment would tax every allocation of every thread.
//
// To find who allocates on a hot path, arm the trap for the steady state
// (tidemark-bench --trap-steady-allocations) and run under gdb with
// `break tidemark_bench_on_allocation`: every stop is one allocation, with
// the culprit a few frames up. heaptrack works too, but cannot separate the
// steady state from setup.
#include "alloc_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

// Out of line and with C linkage so that a debugger can break on it by name.
extern "C" __attribute__((noinline)) void tidemark_bench_on_allocation(std::size_t size) {
  asm volatile("" : : "r"(size) : "memory");
}

namespace {

std::atomic<std::uint64_t> g_allocations{0};
std::atomic<std::uint64_t> g_deallocations{0};
std::atomic<std::uint64_t> g_bytes{0};
std::atomic<bool> g_trap{false};

void count(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  g_bytes.fetch_add(size, std::memory_order_relaxed);
  if (g_trap.load(std::memory_order_relaxed)) tidemark_bench_on_allocation(size);
}

// Loops on the new-handler as the standard operator new does.
void* allocate(std::size_t size, std::size_t alignment) {
  if (size == 0) size = 1;
  while (true) {
    void* p = nullptr;
    if (alignment <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      p = std::malloc(size);
    } else if (::posix_memalign(&p, alignment, size) != 0) {
      p = nullptr;
    }
    if (p != nullptr) {
      count(size);
      return p;
    }
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) return nullptr;
    handler();
  }
}

void* allocateOrThrow(std::size_t size, std::size_t alignment) {
  void* p = allocate(size, alignment);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void* allocateNoThrow(std::size_t size, std::size_t alignment) noexcept {
  try {
    return allocate(size, alignment);
  } catch (...) {
    return nullptr;
  }
}

void release(void* p) noexcept {
  if (p == nullptr) return;
  g_deallocations.fetch_add(1, std::memory_order_relaxed);
  std::free(p);
}

constexpr std::size_t kDefault = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

}  // namespace

namespace tidemark::bench {

AllocationCounts allocationCounts() {
  return AllocationCounts{g_allocations.load(std::memory_order_relaxed),
                          g_deallocations.load(std::memory_order_relaxed),
                          g_bytes.load(std::memory_order_relaxed)};
}

void setAllocationTrap(bool armed) { g_trap.store(armed, std::memory_order_relaxed); }

}  // namespace tidemark::bench

void* operator new(std::size_t size) { return allocateOrThrow(size, kDefault); }
void* operator new[](std::size_t size) { return allocateOrThrow(size, kDefault); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocateNoThrow(size, kDefault); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocateNoThrow(size, kDefault); }
void* operator new(std::size_t size, std::align_val_t al) {
  return allocateOrThrow(size, static_cast<std::size_t>(al));
}
void* operator new[](std::size_t size, std::align_val_t al) {
  return allocateOrThrow(size, static_cast<std::size_t>(al));
}
void* operator new(std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return allocateNoThrow(size, static_cast<std::size_t>(al));
}
void* operator new[](std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return allocateNoThrow(size, static_cast<std::size_t>(al));
}

void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
