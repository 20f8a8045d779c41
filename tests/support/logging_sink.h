// A sink for checkpointing tests that behaves like a transactional one.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tidemark/tidemark.h"

namespace tidemark::testing_support {

/// What the sinks of one test saw, by sink subtask.
struct SinkLog {
  std::map<int, std::vector<std::string>> lines;
  std::map<int, std::vector<std::int64_t>> completed;  // notifyCheckpointComplete ids
  std::size_t cut = 0;                                 // lines a restore took back

  std::vector<std::string> sortedLines() const {
    std::vector<std::string> all;
    for (const auto& [subtask, ls] : lines) all.insert(all.end(), ls.begin(), ls.end());
    std::sort(all.begin(), all.end());
    return all;
  }
};

/// Appends to the log; its snapshot keeps how many lines it wrote, and a
/// restore cuts its lines back to that, as a transactional sink drops what
/// it wrote after the checkpoint it restores.
class LoggingSink : public SinkFunction<std::string>, public CheckpointedFunction, public CheckpointListener {
 public:
  explicit LoggingSink(std::shared_ptr<SinkLog> log) : log_(std::move(log)) {}

  void initializeState(FunctionInitializationContext& ctx) override {
    subtask_ = getRuntimeContext().getIndexOfThisSubtask();
    written_ = &ctx.getOperatorStateStore().getListState(ListStateDescriptor<std::uint64_t>("written"));
    for (std::uint64_t written : written_->get()) {
      auto& lines = log_->lines[subtask_];
      ASSERT_LE(written, lines.size());
      log_->cut += lines.size() - written;
      lines.resize(written);
    }
  }
  void snapshotState(const FunctionSnapshotContext&) override { written_->update({log_->lines[subtask_].size()}); }
  void notifyCheckpointComplete(std::int64_t checkpoint_id) override { log_->completed[subtask_].push_back(checkpoint_id); }
  void invoke(const std::string& line, const Context&) override { log_->lines[subtask_].push_back(line); }

 private:
  std::shared_ptr<SinkLog> log_;
  int subtask_ = 0;
  ListState<std::uint64_t>* written_ = nullptr;
};

}  // namespace tidemark::testing_support
