// What a completed checkpoint's `_metadata` file says: the checkpoint's id,
// when it was triggered, and for every subtask state it holds the operator,
// the subtask, and the file with its size and checksum, so that a restore
// reads only files it can trust.
//
// On disk: "TMCK", the format version (u32), the fields below, then the
// CRC-32 of every byte before it (u32). readMetadata() refuses another magic,
// another version, a wrong checksum and cut or trailing bytes, naming the file.
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
inline constexpr std::uint32_t kCheckpointFormatVersion = 1;

/// One subtask's state of one operator: in `file`, of `size` bytes with CRC-32 `crc32`.
struct StateFileEntry {
  std::string operator_id;
  std::int32_t subtask = 0;
  std::string file;  // relative to the checkpoint's directory
  std::uint64_t size = 0;
  std::uint32_t crc32 = 0;

  auto fields() { return std::tie(operator_id, subtask, file, size, crc32); }
  friend bool operator==(const StateFileEntry&, const StateFileEntry&) = default;
};

struct CheckpointMetadata {
  std::int64_t checkpoint_id = 0;
  Timestamp trigger_time = 0;  // processing time at the trigger, ms
  std::vector<StateFileEntry> states;

  auto fields() { return std::tie(checkpoint_id, trigger_time, states); }
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
