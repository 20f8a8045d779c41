// A directory of its own per process and test, removed with everything in it
// when the test ends, so parallel ctest runs never share files.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace tidemark::testing_support {

class ScratchDirectory {
 public:
  /// `prefix` names the suite in the directory's name (tidemark-<prefix>-<pid>-<test>).
  explicit ScratchDirectory(std::string_view prefix) {
    std::string test_name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(test_name.begin(), test_name.end(), '/', '-');
    dir_ = std::filesystem::temp_directory_path() / fmt::format("tidemark-{}-{}-{}", prefix, ::getpid(), test_name);
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  const std::filesystem::path& path() const { return dir_; }

  /// Writes `content` to the file `name` in the directory; returns its path.
  std::string writeFile(const std::string& name, const std::string& content) const {
    const std::filesystem::path path = dir_ / name;
    std::ofstream file(path, std::ios::out | std::ios::binary | std::ios::trunc);
    file << content;
    file.close();
    if (!file) throw std::runtime_error("cannot write " + path.string());
    return path.string();
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace tidemark::testing_support
