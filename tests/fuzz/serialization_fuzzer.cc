// libFuzzer harness for the serializers' decode paths (tools/fuzz runs it).
//
// Any bytes are fed to the readers of several nested types. Each read either
// yields a value or throws SerializationError; anything else (another
// exception, a crash, a leak, undefined behaviour, an allocation the input
// cannot justify) is a finding. A value that was read must survive a round
// trip: serialized again and read back, it is equal. The same holds for a
// checkpoint's _metadata file, fed as it is and framed with a valid header
// and checksum (which random bytes would almost never have), so that the
// fuzzer reaches the parser behind the checksum.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tidemark/internal/checkpoint/checkpoint_metadata.h"
#include "tidemark/serialization/absl_serializers.h"
#include "tidemark/serialization/type_serializer.h"
#include "tidemark/windowing/window_serializers.h"

namespace {

struct Event {
  std::string user;
  std::int64_t timestamp = 0;
  std::optional<std::vector<std::uint16_t>> tags;
  auto fields() { return std::tie(user, timestamp, tags); }
  bool operator==(const Event&) const = default;
};

enum class Kind : std::int8_t { A, B };

template <class T>
void decodeAndRoundTrip(std::string_view bytes) {
  T value;
  try {
    value = tidemark::deserializeFromBytes<T>(bytes);
  } catch (const tidemark::SerializationError&) {
    return;  // rejected with an error: what must happen to bad input
  }
  if (!(tidemark::deserializeFromBytes<T>(tidemark::serializeToBytes(value)) == value)) std::abort();
}

void decodeCheckpointMetadata(std::string_view bytes) {
  using tidemark::internal::decodeMetadata;
  std::string framed(tidemark::internal::kCheckpointMagic);
  for (int shift = 0; shift < 32; shift += 8) {
    framed += static_cast<char>((tidemark::internal::kCheckpointFormatVersion >> shift) & 0xff);
  }
  framed += bytes;
  const std::uint32_t crc = tidemark::internal::crc32Of(framed);
  for (int shift = 0; shift < 32; shift += 8) framed += static_cast<char>((crc >> shift) & 0xff);
  for (const std::string_view candidate : {bytes, std::string_view(framed)}) {
    try {
      const auto metadata = decodeMetadata(candidate, "fuzz");
      if (!(decodeMetadata(tidemark::internal::encodeMetadata(metadata), "fuzz") == metadata)) std::abort();
    } catch (const tidemark::SerializationError&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  decodeAndRoundTrip<std::string>(bytes);
  decodeAndRoundTrip<std::vector<std::int64_t>>(bytes);
  decodeAndRoundTrip<std::map<std::string, std::optional<std::int32_t>>>(bytes);
  decodeAndRoundTrip<std::tuple<bool, std::uint8_t, std::vector<std::pair<Kind, std::string>>>>(bytes);
  decodeAndRoundTrip<std::unordered_map<std::uint32_t, std::set<std::string>>>(bytes);
  decodeAndRoundTrip<std::vector<Event>>(bytes);
  decodeAndRoundTrip<std::vector<std::pair<tidemark::TimeWindow, tidemark::GlobalWindow>>>(bytes);
  decodeAndRoundTrip<absl::flat_hash_map<std::string, std::vector<std::tuple<>>>>(bytes);
  decodeCheckpointMetadata(bytes);
  return 0;
}
