// TextFileSource: the lines of a text file, behind
// StreamExecutionEnvironment::readTextFile.
//
// run() emits each line without its line ending ("\n" or "\r\n"); a last line
// without a line ending is emitted too, an empty file emits nothing. Then the
// input ends. A file that cannot be opened fails the job with
// "readTextFile(<path>): cannot open: <reason>", and a read error midway with
// "readTextFile(<path>): read error after <n> lines".
//
// It keeps its position in checkpoints (the byte offset of the next line and
// the lines read before it), so a restored job reads on from the next line.
// A restored offset beyond the file's end (the file was replaced or cut)
// fails the job with "readTextFile(<path>): the restored offset <n> is
// beyond the file's <size> bytes".
//
// The source never waits, so it runs the same in real and simulated time.
//
// Example:
//   auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
//   env.setParallelism(1);
//   auto lines = env.addSource(tidemark::TextFileSource("/tmp/orders.csv"), "Text File Source").collectToMemory();
//   env.execute("read");
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "tidemark/functions/checkpointed_function.h"
#include "tidemark/functions/source_function.h"

namespace tidemark {

class TextFileSource final : public SourceFunction<std::string>, public CheckpointedFunction {
 public:
  explicit TextFileSource(std::string path) : path_(std::move(path)) {}

  void initializeState(FunctionInitializationContext& context) override;
  void snapshotState(const FunctionSnapshotContext& context) override;
  void run(SourceContext<std::string>& ctx) override;

  const std::string& path() const { return path_; }

 private:
  struct Position {
    std::uint64_t offset = 0;  // of the next line
    std::uint64_t lines = 0;   // read before it, for messages
    auto fields() { return std::tie(offset, lines); }
  };

  std::string path_;
  Position position_;
  ListState<Position>* position_state_ = nullptr;
};

}  // namespace tidemark
