// tidemark: Flink's DataStream model for C++ programs. Include this one header
// for the whole public API.
#pragma once

#include "tidemark/api/connected_streams.h"
#include "tidemark/api/data_stream.h"
#include "tidemark/api/job_execution_result.h"
#include "tidemark/api/keyed_stream.h"
#include "tidemark/api/output_tag.h"
#include "tidemark/api/stream_execution_environment.h"
#include "tidemark/api/watermark_strategy.h"
#include "tidemark/connectors/collect_sink.h"
#include "tidemark/connectors/print_sink.h"
#include "tidemark/connectors/scripted_source.h"
#include "tidemark/core/key_group.h"
#include "tidemark/core/time.h"
#include "tidemark/functions/keyed_process_function.h"
#include "tidemark/functions/process_function.h"
#include "tidemark/functions/simple_functions.h"
#include "tidemark/functions/sink_function.h"
#include "tidemark/functions/source_function.h"
