// What a completed checkpoint's `_metadata` file says: the checkpoint's id,
// when it was triggered, the job's max parallelism, and for every subtask
// state it holds the operator, the subtask, the operator's parallelism, and
// the file with its size and checksum, so that a restore reads only files it
// can trust and knows how the state was split before it redistributes it.
//
// On disk: "TMCK", the format version (u32), the fields below, then the
// CRC-32 of every byte before it (u32). decodeMetadata() refuses another
// magic, another version (version 1 had no parallelism), a wrong checksum and
// cut or trailing bytes, naming the file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "tidemark/core/time.h"

namespace tidemark::internal {

inline constexpr std::string_view kCheckpointMagic = "TMCK";
inline constexpr std::uint32_t kCheckpointFormatVersion = 2;

/// One subtask's state of one operator that ran at `parallelism`: in `file`,
/// of `size` bytes with CRC-32 `crc32`.
struct StateFileEntry {
  std::string operator_id;
  std::int32_t subtask = 0;
  std::int32_t parallelism = 0;
  std::string file;  // relative to the checkpoint's directory
  std::uint64_t size = 0;
  std::uint32_t crc32 = 0;

  auto fields() { return std::tie(operator_id, subtask, parallelism, file, size, crc32); }
  friend bool operator==(const StateFileEntry&, const StateFileEntry&) = default;
};

struct CheckpointMetadata {
  std::int64_t checkpoint_id = 0;
  Timestamp trigger_time = 0;  // processing time at the trigger, ms
  std::int32_t max_parallelism = 0;  // the job's number of key groups
  std::vector<StateFileEntry> states;

  auto fields() { return std::tie(checkpoint_id, trigger_time, max_parallelism, states); }
  friend bool operator==(const CheckpointMetadata&, const CheckpointMetadata&) = default;
};

/// The CRC-32 (zlib's, the one gzip and PNG use) of `bytes`.
std::uint32_t crc32Of(std::string_view bytes);

/// The bytes of the `_metadata` file for `metadata`.
std::string encodeMetadata(const CheckpointMetadata& metadata);

/// The metadata in `bytes`, read from `file` (which names it in errors).
/// Throws SerializationError: "checkpoint metadata <file>: ...".
CheckpointMetadata decodeMetadata(std::string_view bytes, const std::filesystem::path& file);

}  // namespace tidemark::internal
