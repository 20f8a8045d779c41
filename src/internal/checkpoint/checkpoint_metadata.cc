#include "tidemark/internal/checkpoint/checkpoint_metadata.h"

#include <zlib.h>

#include <algorithm>
#include <cstddef>

#include <fmt/format.h>

#include "tidemark/serialization/data_input.h"
#include "tidemark/serialization/data_output.h"
#include "tidemark/serialization/serialization_error.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {

namespace {

constexpr std::size_t kVersionBytes = sizeof(std::uint32_t);
constexpr std::size_t kChecksumBytes = sizeof(std::uint32_t);

}  // namespace

std::uint32_t crc32Of(std::string_view bytes) {
  uLong crc = ::crc32(0L, Z_NULL, 0);
  // zlib takes a length of type uInt: feed it at most 1 GiB at a time.
  constexpr std::size_t kChunk = std::size_t{1} << 30;
  while (!bytes.empty()) {
    const std::size_t chunk = std::min(bytes.size(), kChunk);
    crc = ::crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(chunk));
    bytes.remove_prefix(chunk);
  }
  return static_cast<std::uint32_t>(crc);
}

std::string encodeMetadata(const CheckpointMetadata& metadata) {
  DataOutput out;
  out.writeBytes(kCheckpointMagic);
  out.writeFixed(kCheckpointFormatVersion);
  serializeTo(metadata, out);
  out.writeFixed(crc32Of(out.bytes()));
  return out.takeBytes();
}

CheckpointMetadata decodeMetadata(std::string_view bytes, const std::filesystem::path& file) {
  const auto failure = [&](std::string_view why) {
    return SerializationError(fmt::format("checkpoint metadata {}: {}", file.string(), why));
  };
  if (bytes.size() < kCheckpointMagic.size() + kVersionBytes + kChecksumBytes) {
    throw failure(fmt::format("{} bytes, too few for a checkpoint's metadata", bytes.size()));
  }
  if (bytes.substr(0, kCheckpointMagic.size()) != kCheckpointMagic) {
    throw failure(fmt::format("not a tidemark checkpoint (it does not start with \"{}\")", kCheckpointMagic));
  }
  DataInput version_in(bytes.substr(kCheckpointMagic.size(), kVersionBytes));
  const auto version = version_in.readFixed<std::uint32_t>("the format version");
  if (version != kCheckpointFormatVersion) {
    throw failure(fmt::format("format version {}; this build reads version {}", version, kCheckpointFormatVersion));
  }
  const std::string_view checked = bytes.substr(0, bytes.size() - kChecksumBytes);
  DataInput checksum_in(bytes.substr(checked.size()));
  if (checksum_in.readFixed<std::uint32_t>("the checksum") != crc32Of(checked)) {
    throw failure("the checksum does not match: the file is corrupt");
  }
  try {
    DataInput in(checked.substr(kCheckpointMagic.size() + kVersionBytes));
    CheckpointMetadata metadata = deserializeFrom<CheckpointMetadata>(in);
    in.expectEnd("the checkpoint metadata");
    return metadata;
  } catch (const SerializationError& error) {
    throw failure(error.what());
  }
}

}  // namespace tidemark::internal
