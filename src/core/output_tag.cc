#include "tidemark/core/output_tag.h"

#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"

namespace tidemark::internal {

int internTagId(std::string_view id) {
  static std::mutex mutex;
  static absl::flat_hash_map<std::string, int> ids;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = ids.try_emplace(std::string(id), static_cast<int>(ids.size()));
  return it->second;
}

}  // namespace tidemark::internal
