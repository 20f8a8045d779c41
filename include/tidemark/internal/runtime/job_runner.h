// execute(): plan a logical graph into tasks and channels, run it, report.
#pragma once

#include <string>

#include "tidemark/core/job_execution_result.h"
#include "tidemark/internal/runtime/stream_graph.h"

namespace tidemark::internal {

/// Plan and run `graph`. Throws InvalidProgramException (listing every
/// problem) for an invalid graph and JobExecutionException when the job fails.
JobExecutionResult runJob(const StreamGraph& graph, const ExecutionSettings& settings, const std::string& job_name);

}  // namespace tidemark::internal
