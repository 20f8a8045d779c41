#include "tidemark/connectors/text_file_source.h"

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <fmt/format.h>

namespace tidemark {

void TextFileSource::run(SourceContext<std::string>& ctx) {
  errno = 0;
  std::ifstream file(path_, std::ios::in | std::ios::binary);
  // Opening a directory succeeds on POSIX and only the first read fails;
  // saying why at open time is clearer than a read error.
  std::error_code status_error;
  if (file.is_open() && std::filesystem::is_directory(path_, status_error)) {
    file.close();
    errno = EISDIR;
  }
  if (!file.is_open()) {
    const int error = errno;
    const std::string reason =
        error != 0 ? std::error_code(error, std::generic_category()).message() : std::string("unknown error");
    throw std::runtime_error(fmt::format("readTextFile({}): cannot open: {}", path_, reason));
  }

  std::uint64_t lines = 0;
  std::string line;
  while (!ctx.isCancelled() && std::getline(file, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ctx.collect(std::move(line));
    line.clear();  // a moved-from string is valid but unspecified
    ++lines;
  }
  if (file.bad()) {
    throw std::runtime_error(
        fmt::format("readTextFile({}): read error after {} {}", path_, lines, lines == 1 ? "line" : "lines"));
  }
}

}  // namespace tidemark
