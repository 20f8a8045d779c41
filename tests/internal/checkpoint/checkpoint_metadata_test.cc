// The `_metadata` format: what is written reads back, its bytes are pinned
// (a change to them is a new format version), and every way a file can be
// wrong is refused naming the file.
#include "tidemark/internal/checkpoint/checkpoint_metadata.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "tidemark/serialization/serialization_error.h"

namespace tidemark::internal {
namespace {

using ::testing::ThrowsMessage;

const std::filesystem::path kFile = "/checkpoints/chk-7/_metadata";

CheckpointMetadata twoStates() {
  return {7, 1'700'000'000'000, 128, {{"Window", 0, 2, "state-0", 3, crc32Of("abc")}, {"Window", 1, 2, "state-1", 0, 0}}};
}

std::string hex(const std::string& bytes) {
  std::string out;
  for (const unsigned char byte : bytes) out += fmt::format("{:02x}", byte);
  return out;
}

TEST(CheckpointMetadataTest, WhatIsWrittenReadsBack) {
  EXPECT_EQ(decodeMetadata(encodeMetadata(twoStates()), kFile), twoStates());
}

TEST(CheckpointMetadataTest, Crc32IsZlibs) {
  EXPECT_EQ(crc32Of(""), 0u);
  EXPECT_EQ(crc32Of("123456789"), 0xCBF43926u);  // the check value of CRC-32 (ISO-HDLC)
}

TEST(CheckpointMetadataTest, TheBytesOfFormatVersionTwoArePinned) {
  const CheckpointMetadata one_state{3, 1000, 128, {{"op", 1, 2, "state-0", 2, 0x01020304}}};
  // "TMCK", version 2, id 3 (i64), trigger time 1000 (i64), max parallelism 128 (i32), 1 entry:
  // "op", subtask 1 (i32), parallelism 2 (i32), "state-0", size 2 (u64), crc 0x01020304;
  // then the CRC-32 of all that.
  EXPECT_EQ(hex(encodeMetadata(one_state)),
            "544d434b" "02000000" "0300000000000000" "e803000000000000" "80000000" "01" "026f70" "01000000"
            "02000000" "0773746174652d30" "0200000000000000" "04030201" "5c59c1c8");
}

TEST(CheckpointMetadataTest, FormatVersionOneIsRefused) {
  // Version 1 did not record parallelism, without which a restore cannot redistribute state.
  std::string bytes = encodeMetadata(twoStates());
  bytes[4] = 1;
  EXPECT_THAT([&] { decodeMetadata(bytes, kFile); },
              ThrowsMessage<SerializationError>(
                  "checkpoint metadata /checkpoints/chk-7/_metadata: format version 1; this build reads version 2"));
}

TEST(CheckpointMetadataTest, AnotherMagicIsNotACheckpoint) {
  std::string bytes = encodeMetadata(twoStates());
  bytes[0] = 'X';
  EXPECT_THAT([&] { decodeMetadata(bytes, kFile); },
              ThrowsMessage<SerializationError>(
                  "checkpoint metadata /checkpoints/chk-7/_metadata: not a tidemark checkpoint (it does not start "
                  "with \"TMCK\")"));
}

TEST(CheckpointMetadataTest, AnotherFormatVersionIsRefusedNamingBoth) {
  std::string bytes = encodeMetadata(twoStates());
  bytes[4] = 9;
  EXPECT_THAT([&] { decodeMetadata(bytes, kFile); },
              ThrowsMessage<SerializationError>(
                  "checkpoint metadata /checkpoints/chk-7/_metadata: format version 9; this build reads version 2"));
}

TEST(CheckpointMetadataTest, AnyFlippedByteAfterTheHeaderFailsTheChecksum) {
  const std::string good = encodeMetadata(twoStates());
  for (std::size_t i = 8; i < good.size(); ++i) {
    std::string bytes = good;
    bytes[i] = static_cast<char>(bytes[i] ^ 0x10);
    EXPECT_THAT([&] { decodeMetadata(bytes, kFile); },
                ThrowsMessage<SerializationError>("checkpoint metadata /checkpoints/chk-7/_metadata: the checksum "
                                                  "does not match: the file is corrupt"))
        << "byte " << i;
  }
}

TEST(CheckpointMetadataTest, AFileCutShortIsRefused) {
  const std::string good = encodeMetadata(twoStates());
  EXPECT_THAT([&] { decodeMetadata(good.substr(0, 10), kFile); },
              ThrowsMessage<SerializationError>(
                  "checkpoint metadata /checkpoints/chk-7/_metadata: 10 bytes, too few for a checkpoint's metadata"));
  for (std::size_t size = 12; size < good.size(); ++size) {
    EXPECT_THROW(decodeMetadata(good.substr(0, size), kFile), SerializationError) << size << " bytes";
  }
}

TEST(CheckpointMetadataTest, BytesThatPassTheChecksumButDoNotParseAreRefusedNamingTheFile) {
  // A well-formed header and checksum around a body that is not metadata.
  std::string bytes = "TMCK";
  bytes += std::string("\x02\x00\x00\x00", 4);
  bytes += "\x05";  // a checkpoint id, then nothing
  const std::uint32_t crc = crc32Of(bytes);
  for (int shift = 0; shift < 32; shift += 8) bytes += static_cast<char>((crc >> shift) & 0xff);
  EXPECT_THAT([&] { decodeMetadata(bytes, kFile); },
              ThrowsMessage<SerializationError>(::testing::StartsWith(
                  "checkpoint metadata /checkpoints/chk-7/_metadata: ")));
}

}  // namespace
}  // namespace tidemark::internal
