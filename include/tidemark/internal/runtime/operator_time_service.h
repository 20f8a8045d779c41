// The processing-time service an operator sees: the task's service, with each
// callback wrapped so that an exception names the operator that registered it.
#pragma once

#include <utility>

#include <fmt/format.h>

#include "tidemark/internal/core/operator_failure.h"
#include "tidemark/internal/time/processing_time_service.h"

namespace tidemark::internal {

class OperatorTimeService final : public ProcessingTimeService {
 public:
  OperatorTimeService(ProcessingTimeService& task_service, std::string operator_description)
      : task_service_(task_service), operator_description_(std::move(operator_description)) {}

  Timestamp currentProcessingTime() const override { return task_service_.currentProcessingTime(); }

  void registerTimer(Timestamp t, Callback callback) override {
    task_service_.registerTimer(t, [this, cb = std::move(callback)](Timestamp now) {
      callNamingFailures(
          [this] { return operator_description_; }, [now] { return fmt::format("processing time {}", now); }, [&] { cb(now); });
    });
  }

 private:
  ProcessingTimeService& task_service_;
  std::string operator_description_;
};

}  // namespace tidemark::internal
