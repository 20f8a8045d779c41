#include "tidemark/api/stream_execution_environment.h"

#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "tidemark/connectors/socket_text_source.h"
#include "tidemark/connectors/text_file_source.h"
#include "tidemark/internal/runtime/job_runner.h"

namespace tidemark {

ExecutionConfig& ExecutionConfig::setAutoWatermarkInterval(Duration millis) {
  if (millis < 0) throw std::invalid_argument(fmt::format("auto watermark interval {} ms is negative", millis));
  auto_watermark_interval_ = millis;
  return *this;
}

StreamExecutionEnvironment::StreamExecutionEnvironment() : graph_(std::make_shared<internal::StreamGraph>()) {}

StreamExecutionEnvironment StreamExecutionEnvironment::getExecutionEnvironment() {
  const unsigned cores = std::thread::hardware_concurrency();
  return createLocalEnvironment(cores == 0 ? 1 : static_cast<int>(cores));
}

StreamExecutionEnvironment StreamExecutionEnvironment::createLocalEnvironment(int parallelism) {
  StreamExecutionEnvironment env;
  env.setParallelism(parallelism);
  return env;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::setParallelism(int parallelism) {
  if (parallelism < 1) throw std::invalid_argument(fmt::format("parallelism {} must be at least 1", parallelism));
  settings_.parallelism = parallelism;
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::setMaxParallelism(int max_parallelism) {
  if (max_parallelism < 1 || max_parallelism > kUpperBoundMaxParallelism) {
    throw std::invalid_argument(
        fmt::format("max parallelism {} is not in [1, {}]", max_parallelism, kUpperBoundMaxParallelism));
  }
  settings_.max_parallelism = max_parallelism;
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::setBufferTimeout(Duration millis) {
  if (millis < -1) throw std::invalid_argument(fmt::format("buffer timeout {} ms must be -1, 0 or positive", millis));
  settings_.buffer_timeout = millis;
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::setCancelOnSignals(bool cancel) {
  settings_.cancel_on_signals = cancel;
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::enableSimulatedTime(Timestamp start_instant) {
  settings_.simulated_start = start_instant;
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::enableCheckpointing(Duration interval, CheckpointingMode mode) {
  settings_.checkpoint.setCheckpointInterval(interval).setCheckpointingMode(mode);
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::setRestorePath(std::string path) {
  if (path.empty()) throw std::invalid_argument("setRestorePath(\"\"): the path is empty");
  settings_.restore_path = std::move(path);
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::setAllowNonRestoredState(bool allow) {
  settings_.allow_non_restored_state = allow;
  return *this;
}

StreamExecutionEnvironment& StreamExecutionEnvironment::setRestartStrategy(RestartStrategyConfiguration strategy) {
  settings_.restart_strategy = strategy;
  return *this;
}

RestartStrategyConfiguration StreamExecutionEnvironment::getRestartStrategy() const {
  return internal::effectiveRestartStrategy(settings_);
}

StreamExecutionEnvironment& StreamExecutionEnvironment::injectFailure(FailureInjection failure) {
  if (failure.subtask() < 0) {
    throw std::invalid_argument(fmt::format("injectFailure({}): the subtask must be at least 0", failure.describe()));
  }
  settings_.injected_failures.push_back(std::move(failure));
  return *this;
}

DataStreamSource<std::string> StreamExecutionEnvironment::socketTextStream(const std::string& host, int port,
                                                                           char delimiter, long max_retry) {
  // The source rejects a bad port or retry count now, while the job is
  // defined, instead of when it runs.
  return addSource(SocketTextSource(host, port, delimiter).withMaxRetry(max_retry), "Socket Stream");
}

DataStreamSource<std::string> StreamExecutionEnvironment::readTextFile(const std::string& path) {
  return addSource(TextFileSource(path), "Text File Source");
}

JobExecutionResult StreamExecutionEnvironment::execute(const std::string& job_name) {
  internal::ExecutionSettings settings = settings_;
  settings.auto_watermark_interval = config_.getAutoWatermarkInterval();
  return internal::runJob(*graph_, settings, job_name);
}

}  // namespace tidemark
