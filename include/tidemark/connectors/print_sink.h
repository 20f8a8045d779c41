// print(): writes each record as a line to stdout (or stderr).
//
// The line format is Flink's: "<prefix>:<k>> value" where k is the subtask
// number (1-based), shown only when the sink runs with parallelism > 1;
// "<prefix>> value" at parallelism 1; just "value" without a prefix. Values
// print with operator<<, pairs and tuples field by field (see Describable in
// core/describe.h); a type that cannot print is a compile error.
//
// Each line is written with one call under the stream's lock, so lines from
// parallel subtasks never interleave, and flushed at once, as Flink prints:
// when stdout is a pipe or a file, every line the job emitted is there even
// if the job is stopped.
#pragma once

#include <cstdio>
#include <sstream>
#include <string>

#include "tidemark/core/describe.h"
#include "tidemark/functions/sink_function.h"

namespace tidemark {

namespace internal {
/// Write one whole line (the text must end with '\n') and flush it.
void writeLine(std::FILE* stream, const std::string& line);
}  // namespace internal

template <class T>
class PrintSinkFunction final : public SinkFunction<T> {
  static_assert(Describable<T>,
                "print() needs `std::ostream& operator<<(std::ostream&, const T&)` for the stream's element type "
                "(declare it beside the type, so that argument-dependent lookup finds it), or a pair or tuple of "
                "such types; or map the stream to text first");

 public:
  explicit PrintSinkFunction(std::string prefix = "", bool to_stderr = false)
      : prefix_(std::move(prefix)), stream_(to_stderr ? stderr : stdout) {}

  void open() override {
    const auto& rc = this->getRuntimeContext();
    std::string p = prefix_;
    if (rc.getNumberOfParallelSubtasks() > 1) {
      p += (p.empty() ? "" : ":") + std::to_string(rc.getIndexOfThisSubtask() + 1);
    }
    line_prefix_ = p.empty() ? "" : p + "> ";
  }

  void invoke(const T& value, const typename SinkFunction<T>::Context&) override {
    // One buffer per thread, reused: printing allocates only while lines grow.
    thread_local std::ostringstream buffer;
    buffer.str(std::string());
    buffer << line_prefix_;
    describeTo(buffer, value);
    buffer << '\n';
    internal::writeLine(stream_, buffer.str());
  }

  void close() override { std::fflush(stream_); }

 private:
  std::string prefix_;
  std::FILE* stream_;
  std::string line_prefix_;
};

}  // namespace tidemark
