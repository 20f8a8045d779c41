// OperatorSubtaskState: the state of one operator subtask as a test harness
// snapshots it. It holds the bytes a checkpoint would store, so a test that
// restores from it goes through the same encoding as a real restore.
//
// Example:
//   tidemark::OperatorSubtaskState state = harness.snapshot(1);
//   tidemark::KeyedOneInputStreamOperatorTestHarness restored(Count{}, selector);
//   restored.initializeState(state);
//   restored.open();
#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace tidemark {

class OperatorSubtaskState {
 public:
  explicit OperatorSubtaskState(std::string bytes) : bytes_(std::move(bytes)) {}

  const std::string& bytes() const { return bytes_; }
  std::size_t size() const { return bytes_.size(); }

 private:
  std::string bytes_;
};

}  // namespace tidemark
