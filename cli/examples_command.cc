#include "examples_command.h"

#include <unistd.h>

#include <array>
#include <filesystem>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace tidemark::cli {
namespace {

struct Example {
  std::string_view program;
  std::string_view shows;
  std::string_view run;  // arguments, after the program
};

constexpr std::array<Example, 6> kExamples = {{
    {"s1_event_time_timers", "S1: event-time timers in a keyed process function",
     "--simulated --variant a   (or b; without --simulated: real time, 15 s)"},
    {"s2_union_watermarks", "S2: the watermark after union / keyBy is the minimum of the inputs",
     "--simulated --variant a   (or b; real time: --host/--port1/--port2)"},
    {"s3_late_data", "S3: watermark delay, allowed lateness and a late-data side output",
     "--simulated               (real time: --host/--port, or --script FILE)"},
    {"s4_cep_login_failures", "S4: CEP, three consecutive login failures, out-of-order and late data",
     "--simulated --variant a   (or b; real time: --host/--port, or --script FILE)"},
    {"s5_global_window_trigger", "S5: a global window with a custom processing-time trigger",
     "--simulated               (--orders FILE for other input)"},
    {"readme_example", "the 20-line example of the README", ""},
}};

/// Where the example programs of this build are: next to the `tidemark`
/// binary's directory (build/<preset>/cli/tidemark -> build/<preset>/examples).
std::string examplesDirectory() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return "examples";
  const auto candidate = self.parent_path().parent_path() / "examples";
  return std::filesystem::is_directory(candidate, error) ? candidate.lexically_normal().string() : "examples";
}

void listExamples() {
  const std::string directory = examplesDirectory();
  fmt::print("The scenario examples (docs/scenarios.md walks through each; --help on any of them):\n\n");
  for (const Example& example : kExamples) {
    fmt::print("  {}\n      {}\n      {}/{} {}\n\n", example.program, example.shows, directory, example.program,
               example.run);
  }
  fmt::print("Nexmark benchmark queries: tidemark nexmark --help\n");
}

}  // namespace

void addExamplesCommand(CLI::App& app) {
  CLI::App* command = app.add_subcommand("examples", "list the scenario example programs and how to run them");
  command->callback(listExamples);
}

}  // namespace tidemark::cli
