// Snapshot bytes by key group. A keyed snapshot is one block of bytes per
// key group, so that a restore at another parallelism takes only the groups
// it owns. Entries are gathered by the key group of their key; each group
// that has any becomes one block: the entry count, then the entries in an
// order the caller sets (never a hash table's iteration order, so that equal
// state makes equal bytes).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/serialization/data_output.h"

namespace tidemark::internal {

template <class Entry>
class KeyGroupBlocks {
 public:
  void add(int key_group, Entry entry) { groups_[key_group].push_back(std::move(entry)); }

  /// One block per group, by group: `order(entries)` sorts a group's
  /// entries, `write(entry, out)` writes one.
  template <class Order, class Write>
  std::map<int, std::string> write(Order&& order, Write&& write_entry) {
    std::map<int, std::string> blocks;
    for (auto& [group, entries] : groups_) {
      order(entries);
      DataOutput out;
      out.writeVarUint(entries.size());
      for (const Entry& entry : entries) write_entry(entry, out);
      blocks.emplace(group, out.takeBytes());
    }
    return blocks;
  }

 private:
  std::map<int, std::vector<Entry>> groups_;
};

/// For write(): entries that are already in the order to write.
inline constexpr auto kAsGathered = [](const auto&) {};

}  // namespace tidemark::internal
