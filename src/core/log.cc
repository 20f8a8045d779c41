#include "tidemark/core/log.h"

#include <cstdio>
#include <mutex>
#include <utility>

namespace tidemark {

namespace {

void writeToStandardError(LogLevel level, std::string_view message) {
  const std::string_view name = logLevelName(level);
  std::fprintf(stderr, "tidemark %.*s: %.*s\n", static_cast<int>(name.size()), name.data(),
               static_cast<int>(message.size()), message.data());
}

struct Logger {
  std::mutex mutex;
  LogHandler handler;  // empty: standard error
};

Logger& logger() {
  static Logger instance;
  return instance;
}

}  // namespace

std::string_view logLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::INFO:
      return "INFO";
    case LogLevel::WARNING:
      return "WARNING";
  }
  return "UNKNOWN";
}

LogHandler setLogHandler(LogHandler handler) {
  Logger& log = logger();
  std::lock_guard<std::mutex> lock(log.mutex);
  return std::exchange(log.handler, std::move(handler));
}

void logMessage(LogLevel level, std::string_view message) {
  Logger& log = logger();
  std::lock_guard<std::mutex> lock(log.mutex);
  if (log.handler) {
    log.handler(level, message);
  } else {
    writeToStandardError(level, message);
  }
}

}  // namespace tidemark
