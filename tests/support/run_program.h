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

/// The text of a file.
std::string readFile(const std::string& path);

/// The path of an example program built alongside the tests.
std::string examplePath(const std::string& name);

/// The path of a file under tests/data.
std::string testDataPath(const std::string& name);

/// Write `content` to a fresh file under the test temp directory (its name
/// carries the process id, as ctest runs tests in parallel) and return its path.
std::string writeTempFile(const std::string& stem, const std::string& content);

}  // namespace tidemark::testing_support
