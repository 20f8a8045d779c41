// Run a program built by this project and capture what it printed.
#pragma once

#include <string>
#include <vector>

namespace tidemark::testing_support {

struct ProgramResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Run `program` (a path) with `args`, wait for it, return its exit code,
/// stdout and stderr.
ProgramResult runProgram(const std::string& program, const std::vector<std::string>& args);

/// A program started with its stdout on a pipe (so it is not a terminal, as
/// in `program | cat`), read line by line while it runs.
class RunningProgram {
 public:
  RunningProgram(const std::string& program, const std::vector<std::string>& args);
  ~RunningProgram();
  RunningProgram(const RunningProgram&) = delete;
  RunningProgram& operator=(const RunningProgram&) = delete;

  /// The next line it printed (without '\n'); empty when stdout ended or
  /// nothing came within `give_up_after_ms`, a bound that only keeps a
  /// broken test from hanging.
  std::string readLine(int give_up_after_ms = 60000);
  /// Send it a signal (kill(2)).
  void signal(int signal_number) const;
  /// Wait for it to end: its exit code (128 + N if killed by signal N), the
  /// rest of its stdout, and its stderr.
  ProgramResult wait();

 private:
  int pid_ = -1;
  int stdout_fd_ = -1;
  std::string pending_;
  std::string err_path_;
};

/// The text of a file.
std::string readFile(const std::string& path);

/// The path of an example program built alongside the tests.
std::string examplePath(const std::string& name);

/// The path of a file under tests/data.
std::string testDataPath(const std::string& name);

}  // namespace tidemark::testing_support
