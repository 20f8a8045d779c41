#include "tidemark/serialization/key_bytes_order.h"

#include <algorithm>

namespace tidemark::internal {

void sortByKeyBytes(std::vector<KeyBytesEntry>& entries) {
  std::sort(entries.begin(), entries.end(), [](const KeyBytesEntry& a, const KeyBytesEntry& b) { return a.first < b.first; });
}

}  // namespace tidemark::internal
