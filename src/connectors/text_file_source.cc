#include "tidemark/connectors/text_file_source.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "tidemark/connectors/file_input.h"

namespace tidemark {

void TextFileSource::initializeState(FunctionInitializationContext& context) {
  position_state_ = &context.getOperatorStateStore().getListState(ListStateDescriptor<Position>("text-file-position"));
  for (const Position& restored : position_state_->get()) position_ = restored;
}

void TextFileSource::snapshotState(const FunctionSnapshotContext&) { position_state_->update({position_}); }

void TextFileSource::run(SourceContext<std::string>& ctx) {
  std::error_code error;
  std::ifstream file = openFileForReading(path_, error);
  if (error) throw std::runtime_error(fmt::format("readTextFile({}): cannot open: {}", path_, error.message()));
  if (position_.offset > 0) {
    const std::uintmax_t size = std::filesystem::file_size(path_, error);
    if (error) throw std::runtime_error(fmt::format("readTextFile({}): cannot read its size: {}", path_, error.message()));
    if (position_.offset > size) {
      throw std::runtime_error(fmt::format("readTextFile({}): the restored offset {} is beyond the file's {} bytes",
                                           path_, position_.offset, size));
    }
    file.seekg(static_cast<std::streamoff>(position_.offset));
  }

  std::string line;
  while (!ctx.isCancelled() && std::getline(file, line)) {
    // Counted before the '\r' goes: the offset is the file's, not the line's.
    const std::uint64_t bytes = line.size() + (file.eof() ? 0 : 1);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::lock_guard lock(ctx.getCheckpointLock());
    ctx.collect(std::move(line));
    position_.offset += bytes;
    ++position_.lines;
    line.clear();  // a moved-from string is valid but unspecified
  }
  if (file.bad()) {
    throw std::runtime_error(fmt::format("readTextFile({}): read error after {} {}", path_, position_.lines,
                                         position_.lines == 1 ? "line" : "lines"));
  }
}

}  // namespace tidemark
