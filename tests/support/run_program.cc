#include "support/run_program.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <gtest/gtest.h>

extern char** environ;

namespace tidemark::testing_support {
namespace {

/// A new empty file under the test temp directory, its name unique and ending
/// in "-tag"; the program's output goes there.
std::string tempPath(const char* tag) {
  std::string name = fmt::format("{}tidemark-test-XXXXXX-{}", ::testing::TempDir(), tag);
  const int fd = ::mkstemps(name.data(), static_cast<int>(std::strlen(tag)) + 1);
  if (fd < 0) throw std::runtime_error(fmt::format("cannot create {}: {}", name, std::strerror(errno)));
  ::close(fd);
  return name;
}

}  // namespace

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

namespace {

/// Start `program` with stdin from /dev/null, stderr to `err_path` and
/// stdout as `add_stdout` arranges it.
pid_t spawn(const std::string& program, const std::vector<std::string>& args, const std::string& err_path,
            const std::function<void(posix_spawn_file_actions_t&)>& add_stdout) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  add_stdout(actions);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  // Whoever runs the tests may ignore SIGINT (a background job does); the
  // program must see the signals a test sends with their default action.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawn_error = posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0) throw std::runtime_error(fmt::format("cannot start {}", program));
  return pid;
}

/// Wait for `pid`: its exit code, or 128 + N if signal N killed it.
int waitForExit(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

ProgramResult runProgram(const std::string& program, const std::vector<std::string>& args) {
  const std::string out_path = tempPath("out");
  const std::string err_path = tempPath("err");
  const pid_t pid = spawn(program, args, err_path, [&](posix_spawn_file_actions_t& actions) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  });
  ProgramResult result;
  result.exit_code = waitForExit(pid);
  result.out = readFile(out_path);
  result.err = readFile(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return result;
}

RunningProgram::RunningProgram(const std::string& program, const std::vector<std::string>& args)
    : err_path_(tempPath("err")) {
  int out_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  try {
    pid_ = spawn(program, args, err_path_, [&](posix_spawn_file_actions_t& actions) {
      posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
    });
  } catch (...) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    throw;
  }
  ::close(out_pipe[1]);
  stdout_fd_ = out_pipe[0];
}

RunningProgram::~RunningProgram() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
  std::remove(err_path_.c_str());
}

std::string RunningProgram::readLine(int give_up_after_ms) {
  while (true) {
    const auto newline = pending_.find('\n');
    if (newline != std::string::npos) {
      std::string line = pending_.substr(0, newline);
      pending_.erase(0, newline + 1);
      return line;
    }
    pollfd pfd{stdout_fd_, POLLIN, 0};
    if (::poll(&pfd, 1, give_up_after_ms) <= 0) return {};
    char buffer[4096];
    const ssize_t n = ::read(stdout_fd_, buffer, sizeof buffer);
    if (n <= 0) return {};
    pending_.append(buffer, static_cast<std::size_t>(n));
  }
}

void RunningProgram::signal(int signal_number) const { ::kill(pid_, signal_number); }

ProgramResult RunningProgram::wait() {
  ProgramResult result;
  result.out = std::exchange(pending_, {});
  char buffer[4096];
  for (ssize_t n; (n = ::read(stdout_fd_, buffer, sizeof buffer)) > 0;) {
    result.out.append(buffer, static_cast<std::size_t>(n));
  }
  result.exit_code = waitForExit(std::exchange(pid_, -1));
  result.err = readFile(err_path_);
  return result;
}

std::string examplePath(const std::string& name) { return fmt::format("{}/{}", TIDEMARK_EXAMPLES_DIR, name); }

std::string testDataPath(const std::string& name) { return fmt::format("{}/{}", TIDEMARK_TEST_DATA_DIR, name); }

}  // namespace tidemark::testing_support
