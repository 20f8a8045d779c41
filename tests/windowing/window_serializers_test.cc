// The windows' serializers: round trips, the bytes, and corrupt input.
#include "tidemark/windowing/window_serializers.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace tidemark {
namespace {

TEST(WindowSerializersTest, WindowsRoundTrip) {
  const std::vector<TimeWindow> windows{{0, 10000}, {-5000, 5000}, {kMinWatermark, kMaxWatermark}};
  EXPECT_EQ(deserializeFromBytes<std::vector<TimeWindow>>(serializeToBytes(windows)), windows);
  EXPECT_EQ(deserializeFromBytes<GlobalWindow>(serializeToBytes(GlobalWindow::get())), GlobalWindow::get());
  EXPECT_EQ(serializeToBytes(TimeWindow{1, 2}), std::string("\x01\0\0\0\0\0\0\0\x02\0\0\0\0\0\0\0", 16));
  EXPECT_EQ(serializeToBytes(GlobalWindow::get()), std::string(1, '\0'));
  EXPECT_EQ((TypeSerializer<std::pair<std::string, TimeWindow>>::signature()), "pair<string,TimeWindow{i64,i64}>");
}

TEST(WindowSerializersTest, CorruptWindowsAreRefused) {
  try {
    deserializeFromBytes<TimeWindow>(std::string(12, '\0'));
    FAIL() << "a truncated window was read";
  } catch (const SerializationError& e) {
    EXPECT_STREQ(e.what(), "TimeWindow end at offset 8 needs 8 bytes, 4 left of 12");
  }
  try {
    deserializeFromBytes<std::vector<GlobalWindow>>(std::string("\x01\x05", 2));
    FAIL() << "a global window that is not 0 was read";
  } catch (const SerializationError& e) {
    EXPECT_STREQ(e.what(), "GlobalWindow at offset 1 is not 0");
  }
}

}  // namespace
}  // namespace tidemark
