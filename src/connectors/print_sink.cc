#include "tidemark/connectors/print_sink.h"

namespace tidemark::internal {

void writeLine(std::FILE* stream, const std::string& line) {
  // fwrite holds the stream's lock for the whole call: lines stay whole. The
  // flush is what a stopped job's pipe would otherwise lose (see the header).
  std::fwrite(line.data(), 1, line.size(), stream);
  std::fflush(stream);
}

}  // namespace tidemark::internal
