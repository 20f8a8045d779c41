#include "tidemark/connectors/file_input.h"

#include <cerrno>
#include <filesystem>

namespace tidemark {

std::ifstream openFileForReading(const std::string& path, std::error_code& error) {
  error.clear();
  errno = 0;
  std::ifstream file(path, std::ios::in | std::ios::binary);
  std::error_code status_error;
  if (file.is_open() && std::filesystem::is_directory(path, status_error)) {
    file.close();
    error = std::make_error_code(std::errc::is_a_directory);
  } else if (!file.is_open()) {
    // An open that fails without errno (rare) still reports a reason.
    error = errno != 0 ? std::error_code(errno, std::generic_category())
                       : std::make_error_code(std::errc::io_error);
  }
  return file;
}

}  // namespace tidemark
