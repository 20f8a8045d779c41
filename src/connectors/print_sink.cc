#include "tidemark/connectors/print_sink.h"

namespace tidemark::internal {

void writeLine(std::FILE* stream, const std::string& line) {
  // fwrite holds the stream's lock for the whole call: lines stay whole.
  std::fwrite(line.data(), 1, line.size(), stream);
}

}  // namespace tidemark::internal
