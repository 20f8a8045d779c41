// `tidemark examples`: the scenario programs, what each shows and how to run it.
#pragma once

#include <CLI/CLI.hpp>

namespace tidemark::cli {

/// Adds the subcommand to `app`; it runs when the user names it.
void addExamplesCommand(CLI::App& app);

}  // namespace tidemark::cli
