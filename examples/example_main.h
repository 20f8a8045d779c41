// What every example program (and the `tidemark` command) shares about its
// command line and how it ends, so that all of them follow one convention:
//
//   exit 0     the job finished (or --help was asked for)
//   exit 1     the job failed; stderr says why
//   exit 2     a usage error: a bad, unknown or conflicting argument
//   128 + N    the job was cancelled by signal N (130 for Ctrl-C, 143 for
//              SIGTERM), after its sources stopped and its sinks flushed
//
// Numbers on the command line follow one rule, strictDecimal(): decimal
// digits with an optional leading '-', within the option's range; "abc",
// "0x10", "1e3", " 5" and a value out of range are refused with the option's
// name and the reason.
#pragma once

#include <charconv>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <system_error>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "tidemark/connectors/file_input.h"
#include "tidemark/tidemark.h"

namespace examples {

inline constexpr int kExitJobFailed = 1;
inline constexpr int kExitUsage = 2;

/// Whether `text` is an optional '-' and then decimal digits only.
inline bool isDecimalText(const std::string& text) {
  const std::size_t first_digit = !text.empty() && text[0] == '-' ? 1 : 0;
  if (text.size() == first_digit) return false;
  for (std::size_t i = first_digit; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

/// A CLI11 check that the text is a decimal integer of type T in [min, max].
template <class T>
CLI::Validator strictDecimal(T min = std::numeric_limits<T>::min(), T max = std::numeric_limits<T>::max()) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        if (!isDecimalText(text)) return fmt::format("'{}' is not a number (decimal digits only)", text);
        T value{};
        const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        // An unsigned T refuses the '-' itself: that too is out of range.
        if (error != std::errc() || stop != text.data() + text.size() || value < min || value > max) {
          return fmt::format("{} is not in [{}, {}]", text, min, max);
        }
        return {};
      },
      fmt::format("INT in [{}, {}]", min, max));
}

/// Parse the command line. A usage error is printed and gives kExitUsage;
/// --help gives 0. nullopt: go on and run.
inline std::optional<int> parseArguments(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }
  return std::nullopt;
}

/// --script FILE, --host and --port of a program that reads one text server
/// in real time. The socket options mean nothing in a simulated or scripted
/// run: with --simulated or --script they are refused, not ignored.
inline void addTextServerOptions(CLI::App& app, CLI::Option* simulated, std::string& host, int& port,
                                 std::string& script) {
  CLI::Option* script_option =
      app.add_option("--script", script, "play this script instead of reading a socket: lines '<ms>,<line>'");
  app.add_option("--host", host, "host of the text server (real time)")->excludes(simulated)->excludes(script_option);
  app.add_option("--port", port, "port of the text server (real time)")
      ->check(strictDecimal(1, 65535))
      ->excludes(simulated)
      ->excludes(script_option);
}

/// Open a file the example reads (`what` names it in errors: "script",
/// "orders file"). A directory, a missing or an unreadable file is an error
/// that says which and why, instead of reading as an empty input.
inline std::ifstream openInput(const std::string& path, const std::string& what) {
  std::error_code error;
  std::ifstream in = tidemark::openFileForReading(path, error);
  if (error) {
    const std::string reason =
        error == std::errc::is_a_directory ? std::string("it is a directory") : error.message();
    throw std::runtime_error(fmt::format("cannot read {} '{}': {}", what, path, reason));
  }
  return in;
}

/// Run `job` (defines and executes the job) and turn how it ended into the
/// exit status above, printing what went wrong.
template <class Job>
int runExample(Job&& job) {
  try {
    job();
  } catch (const tidemark::JobCancellationException& e) {
    std::cerr << e.what() << '\n';
    return e.signal() > 0 ? 128 + e.signal() : kExitJobFailed;
  } catch (const std::exception& e) {
    std::cerr << e.what() << '\n';
    return kExitJobFailed;
  }
  return 0;
}

}  // namespace examples
