#include "tidemark/connectors/file/rolling_policy.h"

#include <stdexcept>
#include <string>

namespace tidemark {

namespace {

Duration requirePositive(Duration value, const char* what) {
  if (value <= 0) {
    throw std::invalid_argument(std::string("DefaultRollingPolicy: the ") + what + " must be positive, not " +
                                std::to_string(value) + " ms");
  }
  return value;
}

}  // namespace

DefaultRollingPolicy::Builder& DefaultRollingPolicy::Builder::withMaxPartSize(std::uint64_t bytes) {
  if (bytes == 0) throw std::invalid_argument("DefaultRollingPolicy: the maximum part size must be positive, not 0");
  max_part_size_ = bytes;
  return *this;
}

DefaultRollingPolicy::Builder& DefaultRollingPolicy::Builder::withRolloverInterval(Duration interval) {
  rollover_interval_ = requirePositive(interval, "rollover interval");
  return *this;
}

DefaultRollingPolicy::Builder& DefaultRollingPolicy::Builder::withInactivityInterval(Duration interval) {
  inactivity_interval_ = requirePositive(interval, "inactivity interval");
  return *this;
}

std::shared_ptr<const RollingPolicy> DefaultRollingPolicy::Builder::build() const {
  return std::make_shared<const DefaultRollingPolicy>(max_part_size_, rollover_interval_, inactivity_interval_);
}

DefaultRollingPolicy::DefaultRollingPolicy(std::uint64_t max_part_size, Duration rollover_interval,
                                           Duration inactivity_interval)
    : max_part_size_(max_part_size), rollover_interval_(rollover_interval), inactivity_interval_(inactivity_interval) {}

bool DefaultRollingPolicy::shouldRollOnCheckpoint(const PartFileInfo& part) const {
  return part.size >= max_part_size_;
}

bool DefaultRollingPolicy::shouldRollOnEvent(const PartFileInfo& part) const { return part.size >= max_part_size_; }

bool DefaultRollingPolicy::shouldRollOnProcessingTime(const PartFileInfo& part, Timestamp now) const {
  return now - part.creation_time >= rollover_interval_ || now - part.last_update_time >= inactivity_interval_;
}

std::shared_ptr<const RollingPolicy> OnCheckpointRollingPolicy::build() {
  return std::make_shared<const OnCheckpointRollingPolicy>();
}

}  // namespace tidemark
