// Putting entries in the order of their keys' bytes, for snapshots whose
// bytes must not depend on a hash table's iteration order (absl salts each
// table's order with where its memory lies). Not a template, so that each
// state and container type does not instantiate its own sort.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tidemark::internal {

/// An entry's key as bytes, and the entry.
using KeyBytesEntry = std::pair<std::string, const void*>;

/// Sorts by the key bytes (keys are distinct, so the order is total).
void sortByKeyBytes(std::vector<KeyBytesEntry>& entries);

}  // namespace tidemark::internal
