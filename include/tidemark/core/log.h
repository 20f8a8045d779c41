// Where tidemark's log lines go: what a job did that a user should know of
// but that is no error, such as a restore that passed over a corrupt
// checkpoint. By default each line goes to standard error as
// "tidemark WARNING: <message>"; setLogHandler() sends them elsewhere (the
// application's logger, or a test that checks them).
//
// Lines are few (never one per record), so the handler is behind a mutex:
// any thread may log, and a handler is called by one thread at a time.
#pragma once

#include <functional>
#include <string_view>

namespace tidemark {

enum class LogLevel { INFO, WARNING };

/// "INFO" or "WARNING".
std::string_view logLevelName(LogLevel level);

using LogHandler = std::function<void(LogLevel, std::string_view message)>;

/// Sends every later log line to `handler` (an empty one restores the
/// default, standard error). Returns the handler it replaces.
LogHandler setLogHandler(LogHandler handler);

/// Hands `message` to the current handler.
void logMessage(LogLevel level, std::string_view message);

}  // namespace tidemark
