// Opening a file to read, with the reason it cannot be read decided at open
// time: a directory opens on POSIX and only the first read fails, which would
// read as an empty input. TextFileSource and the example programs word the
// error for their own context from the same answer.
#pragma once

#include <fstream>
#include <string>
#include <system_error>

namespace tidemark {

/// `path` opened for reading bytes. When it cannot be read the stream is
/// closed and `error` says why: std::errc::is_a_directory for a directory,
/// else the error of the failed open (no such file, permission denied, ...).
std::ifstream openFileForReading(const std::string& path, std::error_code& error);

}  // namespace tidemark
