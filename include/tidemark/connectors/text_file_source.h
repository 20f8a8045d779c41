// TextFileSource: the lines of a text file, behind
// StreamExecutionEnvironment::readTextFile.
//
// run() emits each line without its line ending ("\n" or "\r\n"); a last line
// without a line ending is emitted too, an empty file emits nothing. Then the
// input ends. A file that cannot be opened fails the job with
// "readTextFile(<path>): cannot open: <reason>", and a read error midway with
// "readTextFile(<path>): read error after <n> lines".
//
// The source never waits, so it runs the same in real and simulated time.
//
// Example:
//   auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
//   env.setParallelism(1);
//   auto lines = env.addSource(tidemark::TextFileSource("/tmp/orders.csv"), "Text File Source").collectToMemory();
//   env.execute("read");
#pragma once

#include <string>
#include <utility>

#include "tidemark/functions/source_function.h"

namespace tidemark {

class TextFileSource final : public SourceFunction<std::string> {
 public:
  explicit TextFileSource(std::string path) : path_(std::move(path)) {}

  void run(SourceContext<std::string>& ctx) override;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace tidemark
