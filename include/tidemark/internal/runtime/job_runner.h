// execute(): plan a logical graph into tasks and channels, run it, report.
#pragma once

#include <string>

#include "tidemark/core/job_execution_result.h"
#include "tidemark/internal/runtime/stream_graph.h"

namespace tidemark::internal {

/// The restart strategy `settings` sets, or else the default: restart
/// without limit when checkpointing, otherwise never.
RestartStrategyConfiguration effectiveRestartStrategy(const ExecutionSettings& settings);

/// Plan and run `graph`; after a failure, restart as the restart strategy
/// says. Throws InvalidProgramException (listing every problem) for an
/// invalid graph and JobExecutionException when the job fails for good.
JobExecutionResult runJob(const StreamGraph& graph, const ExecutionSettings& settings, const std::string& job_name);

}  // namespace tidemark::internal
