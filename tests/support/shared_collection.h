// A collect sink's records kept across jobs, for failure tests that restore
// a job in a new environment: the restored job adds to what the failed one
// collected, after takeBackAfter() removed what the failed one collected
// after the checkpoint it restores (as a restart in one job does).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/tidemark.h"

namespace tidemark::testing_support {

class SharedCollection {
 public:
  /// A sink collecting `stream` here, each value printed by `print`. The
  /// first call fixes the value type; later jobs must collect the same type.
  template <class T>
  DataStreamSink<T> collect(const DataStream<T>& stream, std::function<std::string(const T&)> print) {
    if (!records_) {
      auto records = std::make_shared<CollectedRecords<T>>();
      records_ = records;
      lines_ = [records, print = std::move(print)] {
        std::vector<std::string> lines;
        for (const T& value : records->values()) lines.push_back(print(value));
        return lines;
      };
      take_back_after_ = [records](std::int64_t checkpoint_id) { records->takeBackForAttempt(1, checkpoint_id); };
    }
    return stream.addSink(CollectSinkFunction<T>(std::static_pointer_cast<CollectedRecords<T>>(records_)));
  }

  /// What was collected, printed, in arrival order.
  std::vector<std::string> lines() const { return lines_ ? lines_() : std::vector<std::string>{}; }

  /// Removes what was collected after checkpoint `checkpoint_id` was taken (0: everything).
  void takeBackAfter(std::int64_t checkpoint_id) {
    if (take_back_after_) take_back_after_(checkpoint_id);
  }

 private:
  std::shared_ptr<void> records_;
  std::function<std::vector<std::string>()> lines_;
  std::function<void(std::int64_t)> take_back_after_;
};

}  // namespace tidemark::testing_support
