#include "tidemark/internal/core/operator_failure.h"

#include <exception>

#include <fmt/format.h>

namespace tidemark::internal {

std::string describeFailure(const std::string& operator_description, const std::string& what_was_processed) {
  std::string cause = "unknown exception";
  try {
    throw;
  } catch (const std::exception& e) {
    cause = e.what();
  } catch (...) {
  }
  return fmt::format("{} failed while processing {}: {}", operator_description, what_was_processed, cause);
}

}  // namespace tidemark::internal
