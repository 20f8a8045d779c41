// The exception that carries a user function's failure out of a task.
#pragma once

#include <stdexcept>
#include <string>

namespace tidemark::internal {

/// Thrown when an operator's user code throws: the message names the operator,
/// the subtask and the element being processed, then the original error.
/// Wrapping happens once, at the innermost operator; outer operators of the
/// same chain let it pass unchanged.
class OperatorFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A failure of the program itself (a state type without a serializer in a
/// checkpointed job): every attempt would fail the same way, so the job fails
/// without asking its restart strategy.
class InvalidProgramFailure : public OperatorFailure {
 public:
  using OperatorFailure::OperatorFailure;
};

/// Thrown inside a task when the job was cancelled, to unwind user code
/// (e.g. a source's run loop) quickly. Never reported as the job's failure.
class TaskCancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "task cancelled"; }
};

/// Build the OperatorFailure message for the exception being handled.
std::string describeFailure(const std::string& operator_description, const std::string& what_was_processed);

/// Run `body()` (user code of an operator). An exception from it becomes an
/// OperatorFailure naming the operator, `who()`, and what was processed,
/// `what()`. Both are called only on failure: this wraps every record on the
/// hot path, where even building a name would cost. An OperatorFailure from
/// deeper in the chain, or a cancellation, passes unchanged. This is the one
/// place that gives a failure its operator and element.
template <class Who, class What, class Body>
decltype(auto) callNamingFailures(Who&& who, What&& what, Body&& body) {
  try {
    return body();
  } catch (const OperatorFailure&) {
    throw;
  } catch (const TaskCancelled&) {
    throw;
  } catch (...) {
    throw OperatorFailure(describeFailure(who(), what()));
  }
}

}  // namespace tidemark::internal
