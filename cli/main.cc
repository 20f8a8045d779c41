// tidemark: the command-line entry point.
//
//   tidemark nexmark --query q5 --events 20000000     run a Nexmark query
//   tidemark nexmark --all --json                      every query, JSON lines
//   tidemark examples                                   the scenario programs
//
// Exit status: 0 on success, 1 when a job failed, 2 on a usage error, 128 + N
// when signal N cancelled the job (see examples/example_main.h).
#include <functional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "examples_command.h"
#include "nexmark_command.h"

int main(int argc, char** argv) {
  CLI::App app{"tidemark: Flink's DataStream model (event time, watermarks, keyed state, timers, windows, CEP) "
               "as a native C++ stream processor"};
  app.require_subcommand(1);
  tidemark::cli::addNexmarkCommand(app);
  tidemark::cli::addExamplesCommand(app);
  // CLI11 would report a misspelt command as a missing one.
  if (argc > 1 && argv[1][0] != '-') {
    const CLI::App& const_app = app;
    std::string allowed;
    bool known = false;
    for (const CLI::App* command : const_app.get_subcommands(std::function<bool(const CLI::App*)>{})) {
      allowed += (allowed.empty() ? "" : ", ") + command->get_name();
      known = known || command->get_name() == argv[1];
    }
    if (!known) {
      fmt::print(stderr, "tidemark: unknown command '{}'; allowed: {} (see --help)\n", argv[1], allowed);
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // the command printed why
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return 0;
}
