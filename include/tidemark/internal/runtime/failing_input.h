// The input of an operator subtask that a FailureInjection::afterRecords
// targets: it lets the chosen number of records through, then throws at the
// next one. Only that subtask's inputs are wrapped, so no other operator
// pays for the count. Both inputs of a two-input operator share one count.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "tidemark/internal/operators/output.h"

namespace tidemark::internal {

/// The count and the once-per-job flag of one afterRecords injection.
class InjectedFailureCount {
 public:
  /// `fired` outlives every restart of the job, so the failure happens once.
  InjectedFailureCount(std::uint64_t records, std::string description, std::atomic<bool>& fired)
      : records_(records), description_(std::move(description)), fired_(fired) {}

  /// Before each record: throws instead once `records` went through.
  void beforeRecord() {
    if (passed_ < records_) {
      ++passed_;
      return;
    }
    if (fired_.exchange(true)) return;
    throw std::runtime_error("injected failure " + description_);
  }

 private:
  std::uint64_t records_;
  std::uint64_t passed_ = 0;
  std::string description_;
  std::atomic<bool>& fired_;
};

template <class T>
class FailingInput final : public Input<T> {
 public:
  FailingInput(Input<T>& target, InjectedFailureCount& count) : target_(target), count_(count) {}
  void processElement(StreamRecord<T>& record) override {
    count_.beforeRecord();
    target_.processElement(record);
  }
  void processWatermark(Timestamp watermark) override { target_.processWatermark(watermark); }
  void processWatermarkStatus(WatermarkStatus status) override { target_.processWatermarkStatus(status); }

 private:
  Input<T>& target_;
  InjectedFailureCount& count_;
};

}  // namespace tidemark::internal
