// What a failed job left in its checkpoint storage, for failure tests that
// restore it in a new environment.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "tidemark/internal/checkpoint/file_checkpoint_storage.h"

namespace tidemark::testing_support {

/// The id of the latest completed checkpoint in `storage`; 0 when there is none (restore nothing).
inline std::int64_t latestCompletedCheckpoint(const std::filesystem::path& storage) {
  const std::vector<std::int64_t> kept = internal::FileCheckpointStorage(storage).completedCheckpoints();
  return kept.empty() ? 0 : kept.back();
}

}  // namespace tidemark::testing_support
