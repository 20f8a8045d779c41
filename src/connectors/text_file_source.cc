#include "tidemark/connectors/text_file_source.h"

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "tidemark/connectors/file_input.h"

namespace tidemark {

void TextFileSource::run(SourceContext<std::string>& ctx) {
  std::error_code error;
  std::ifstream file = openFileForReading(path_, error);
  if (error) throw std::runtime_error(fmt::format("readTextFile({}): cannot open: {}", path_, error.message()));

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
