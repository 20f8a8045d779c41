// Counts heap allocations of the whole process. alloc_counter.cc replaces the
// global operator new and delete (every form), so this only works in a
// program that links it: tidemark-bench, not the tests.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tidemark::bench {

struct AllocationCounts {
  std::uint64_t allocations = 0;
  std::uint64_t deallocations = 0;
  std::uint64_t bytes = 0;
};

/// Totals since the program started (relaxed reads: exact once the threads
/// that allocate have been joined, a close estimate while they run).
AllocationCounts allocationCounts();

/// While armed, every allocation calls tidemark_bench_on_allocation(size), an
/// empty function to set a debugger breakpoint on.
void setAllocationTrap(bool armed);

}  // namespace tidemark::bench

extern "C" void tidemark_bench_on_allocation(std::size_t size);
