#include "tidemark/internal/runtime/task.h"

#include <stdexcept>

#include <fmt/format.h>

namespace tidemark::internal {

Task::Task(std::string name, int subtask_index, int parallelism)
    : name_(std::move(name)), subtask_index_(subtask_index), parallelism_(parallelism) {}

std::string Task::description() const {
  return fmt::format("{} (subtask {}/{})", name_, subtask_index_ + 1, parallelism_);
}

OperatorBase& Task::addOperator(std::unique_ptr<OperatorBase> op) {
  operators_.push_back(std::move(op));
  return *operators_.back();
}

void Task::open() {
  for (; opened_ < operators_.size(); ++opened_) {
    OperatorBase& op = *operators_[opened_];
    callNamingFailures([&op] { return op.context().description(); }, [] { return std::string("open()"); }, [&] { op.open(); });
  }
}

SourceOperatorBase& Task::sourceOperator() {
  auto* source = dynamic_cast<SourceOperatorBase*>(operators_.front().get());
  if (source == nullptr) throw std::logic_error(description() + " is not a source task");
  return *source;
}

InputProcessor::Result Task::processInput() {
  bool all_ended = true;
  for (std::size_t k = 0; k < inputs_.size(); ++k) {
    const std::size_t i = (next_input_ + k) % inputs_.size();
    const auto result = inputs_[i]->processOneBatch();
    if (result == InputProcessor::Result::PROCESSED) {
      next_input_ = (i + 1) % inputs_.size();
      return result;
    }
    if (result != InputProcessor::Result::ENDED) all_ended = false;
  }
  return all_ended ? InputProcessor::Result::ENDED : InputProcessor::Result::NOTHING_AVAILABLE;
}

void Task::finish() {
  for (auto& op : operators_) {
    callNamingFailures(
        [&op] { return op->context().description(); }, [] { return std::string("the end of its input"); }, [&] { op->finish(); });
  }
  for (auto* writer : writers_) writer->sendEndOfInput();
  finished_ = true;
}

void Task::close() noexcept {
  for (std::size_t i = 0; i < opened_; ++i) {
    try {
      operators_[i]->close();
    } catch (...) {
    }
  }
  opened_ = 0;
  finished_ = true;
}

void Task::flushOutputs() {
  for (auto* writer : writers_) writer->flush();
}

bool Task::outputsHaveSpace() const {
  for (auto* writer : writers_) {
    if (!writer->hasSpace()) return false;
  }
  return true;
}

}  // namespace tidemark::internal
