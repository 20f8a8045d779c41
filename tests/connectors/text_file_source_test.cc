// readTextFile, in real time and in simulated time (a file source never
// waits, so it must behave the same in both).
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/scratch_directory.h"
#include "support/source_replay.h"
#include "tidemark/connectors/text_file_source.h"
#include "tidemark/testing/source_function_harness.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using testing_support::ScratchDirectory;

class TextFileSourceTest : public ::testing::TestWithParam<bool> {
 protected:
  std::string writeFile(const std::string& name, const std::string& content) const {
    return scratch_.writeFile(name, content);
  }

  StreamExecutionEnvironment environment() const {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env.setParallelism(1);
    if (GetParam()) env.enableSimulatedTime();
    return env;
  }

  std::vector<std::string> readAll(const std::string& path) const {
    auto env = environment();
    auto out = env.readTextFile(path).collectToMemory();
    env.execute("read text file");
    return out->values();
  }

  std::string failureOf(const std::string& path) const {
    auto env = environment();
    env.readTextFile(path).collectToMemory();
    try {
      env.execute("read text file");
    } catch (const JobExecutionException& e) {
      return e.what();
    }
    ADD_FAILURE() << "the job did not fail";
    return "";
  }

  ScratchDirectory scratch_{"text-file"};
};

TEST_P(TextFileSourceTest, LinesAreExact) {
  const std::string path = writeFile("lines.txt", "first\nsecond line\r\n\n  spaced  \nlast");
  EXPECT_THAT(readAll(path), ElementsAre("first", "second line", "", "  spaced  ", "last"));
}

TEST_P(TextFileSourceTest, TrailingNewlineAddsNoEmptyLine) {
  const std::string path = writeFile("trailing.txt", "a\nb\n");
  EXPECT_THAT(readAll(path), ElementsAre("a", "b"));
}

TEST_P(TextFileSourceTest, ManyLinesKeepTheirOrder) {
  std::string content;
  for (int i = 0; i < 10'000; ++i) fmt::format_to(std::back_inserter(content), "{}\n", i);
  const std::string path = writeFile("many.txt", content);
  const std::vector<std::string> lines = readAll(path);
  ASSERT_EQ(lines.size(), 10'000u);
  for (int i = 0; i < 10'000; ++i) ASSERT_EQ(lines[static_cast<std::size_t>(i)], std::to_string(i));
}

TEST_P(TextFileSourceTest, EmptyFileEmitsNothing) {
  const std::string path = writeFile("empty.txt", "");
  EXPECT_TRUE(readAll(path).empty());
}

TEST_P(TextFileSourceTest, MissingFileFailsTheJob) {
  const std::string path = (scratch_.path() / "no-such-file.txt").string();
  const std::string message = failureOf(path);
  EXPECT_THAT(message, HasSubstr(fmt::format("readTextFile({}): cannot open: No such file or directory", path)));
  EXPECT_THAT(message, HasSubstr("Text File Source"));
}

TEST_P(TextFileSourceTest, DirectoryFailsTheJob) {
  EXPECT_THAT(failureOf(scratch_.path().string()),
              HasSubstr(fmt::format("readTextFile({}): cannot open: ", scratch_.path().string())));
}

INSTANTIATE_TEST_SUITE_P(Time, TextFileSourceTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& param_info) {
                           return param_info.param ? std::string("Simulated") : std::string("Real");
                         });

// Its position: the byte offset of the next line, in checkpoints.

TEST(TextFileSourcePositionTest, RestoredAfterAnyLineItReadsOnFromTheNextOne) {
  ScratchDirectory scratch("text-file");
  // "\r\n" and "\n" endings, an empty line, and a last line without an ending.
  const std::string path = scratch.writeFile("lines.txt", "alpha\r\nbeta\n\ngamma\r\ndelta");
  testing_support::expectRestoreAtEveryRecordReplaysExactly<std::string>(TextFileSource(path), 5);
}

TEST(TextFileSourcePositionTest, ASnapshotAfterTheLastLineRestoresToNothingMore) {
  ScratchDirectory scratch("text-file");
  const std::string path = scratch.writeFile("lines.txt", "a\nb\n");
  EXPECT_EQ(testing_support::runWithRestoreAfter<std::string>(TextFileSource(path), 2),
            (testing_support::Lines{"Record(a, no timestamp)", "Record(b, no timestamp)",
                                    "Watermark(9223372036854775807)"}));
}

TEST(TextFileSourcePositionTest, ARestoredOffsetBeyondTheFileFailsNamingTheFile) {
  ScratchDirectory scratch("text-file");
  const std::string path = scratch.writeFile("lines.txt", "first line\nsecond line\n");
  SourceFunctionTestHarness<std::string> first(TextFileSource{path});
  first.open();
  const OperatorSubtaskState state = first.runUntilSnapshot(2, 1);
  scratch.writeFile("lines.txt", "cut\n");  // the file was replaced by a shorter one

  SourceFunctionTestHarness<std::string> second(TextFileSource{path});
  second.initializeState(state);
  second.open();
  EXPECT_THAT([&] { second.run(); },
              ::testing::ThrowsMessage<std::runtime_error>(HasSubstr(
                  fmt::format("readTextFile({}): the restored offset 23 is beyond the file's 4 bytes", path))));
}

}  // namespace
}  // namespace tidemark
