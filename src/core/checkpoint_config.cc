#include "tidemark/core/checkpoint_config.h"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace tidemark {
namespace {

void requireAtLeast(const char* setter, std::int64_t value, std::int64_t least) {
  if (value < least) {
    throw std::invalid_argument(fmt::format("CheckpointConfig::{}({}): the value must be at least {}", setter, value, least));
  }
}

}  // namespace

CheckpointConfig& CheckpointConfig::setCheckpointInterval(Duration millis) {
  requireAtLeast("setCheckpointInterval", millis, 1);
  interval_ = millis;
  return *this;
}

CheckpointConfig& CheckpointConfig::setCheckpointingMode(CheckpointingMode mode) {
  mode_ = mode;
  return *this;
}

CheckpointConfig& CheckpointConfig::setCheckpointTimeout(Duration millis) {
  requireAtLeast("setCheckpointTimeout", millis, 1);
  timeout_ = millis;
  return *this;
}

CheckpointConfig& CheckpointConfig::setMinPauseBetweenCheckpoints(Duration millis) {
  requireAtLeast("setMinPauseBetweenCheckpoints", millis, 0);
  min_pause_ = millis;
  return *this;
}

CheckpointConfig& CheckpointConfig::setMaxConcurrentCheckpoints(int max) {
  if (max != 1) {
    throw std::invalid_argument(fmt::format(
        "CheckpointConfig::setMaxConcurrentCheckpoints({}): tidemark runs one checkpoint at a time; only 1 is supported",
        max));
  }
  return *this;
}

CheckpointConfig& CheckpointConfig::setTolerableCheckpointFailureNumber(int number) {
  requireAtLeast("setTolerableCheckpointFailureNumber", number, 0);
  tolerable_failures_ = number;
  return *this;
}

CheckpointConfig& CheckpointConfig::setExternalizedCheckpointRetention(ExternalizedCheckpointRetention retention) {
  retention_ = retention;
  return *this;
}

CheckpointConfig& CheckpointConfig::setMaxRetainedCheckpoints(int number) {
  requireAtLeast("setMaxRetainedCheckpoints", number, 1);
  retained_ = number;
  return *this;
}

CheckpointConfig& CheckpointConfig::setCheckpointStorage(std::string directory) {
  if (directory.empty()) throw std::invalid_argument("CheckpointConfig::setCheckpointStorage(\"\"): the directory is empty");
  storage_ = std::move(directory);
  return *this;
}

}  // namespace tidemark
