// HugePageAllocator: small blocks come from operator new, large ones are
// 2 MiB aligned (what lets the kernel back them with huge pages); both kinds
// are usable memory and go back where they came from (ASan checks the pairing).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "tidemark/internal/core/huge_page_allocator.h"

namespace tidemark::internal {
namespace {

TEST(HugePageAllocatorTest, LargeBlocksAreHugePageAligned) {
  HugePageAllocator<std::uint64_t> allocator;
  const std::size_t n = (kHugePageSize / sizeof(std::uint64_t)) * 3 + 5;  // not a whole number of pages
  std::uint64_t* block = allocator.allocate(n);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % kHugePageSize, 0u);
  std::memset(block, 0xab, n * sizeof(std::uint64_t));  // every byte is ours
  allocator.deallocate(block, n);
}

TEST(HugePageAllocatorTest, SmallBlocksAreOrdinary) {
  HugePageAllocator<std::uint64_t> allocator;
  std::uint64_t* block = allocator.allocate(16);
  block[15] = 42;
  EXPECT_EQ(block[15], 42u);
  allocator.deallocate(block, 16);
}

TEST(HugePageAllocatorTest, BacksAGrowingHashTable) {
  absl::flat_hash_map<std::int64_t, std::int64_t, absl::Hash<std::int64_t>, std::equal_to<std::int64_t>,
                      HugePageAllocator<std::pair<const std::int64_t, std::int64_t>>>
      table;
  for (std::int64_t i = 0; i < 300'000; ++i) table[i] = 2 * i;  // grows past 2 MiB
  std::int64_t sum = 0;
  for (const auto& [key, value] : table) sum += value - 2 * key;
  EXPECT_EQ(sum, 0);
  EXPECT_EQ(table.size(), 300'000u);
}

}  // namespace
}  // namespace tidemark::internal
