// `tidemark nexmark`: runs Nexmark queries on the built-in generator and
// reports throughput, latency (rate-limited runs) and peak memory.
//
//   tidemark nexmark --query q5 --events 20000000 --parallelism 2
//   tidemark nexmark --query q0 --events 5000000 --rate 1000000     (latency)
//   tidemark nexmark --all --json
#pragma once

#include <CLI/CLI.hpp>

namespace tidemark::cli {

/// Adds the subcommand to `app`. Its callback throws CLI::RuntimeError with
/// exit code 1 when a job fails (after printing why) and 2 on a usage error.
void addNexmarkCommand(CLI::App& app);

}  // namespace tidemark::cli
