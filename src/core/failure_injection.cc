#include "tidemark/core/failure_injection.h"

#include <fmt/format.h>

namespace tidemark {

std::string FailureInjection::describe() const {
  if (kind_ == Kind::AT_TIME) {
    return fmt::format("at {} ms in operator '{}' (subtask {})", instant_, operator_name_, subtask_ + 1);
  }
  return fmt::format("after {} record{} of operator '{}' (subtask {})", records_, records_ == 1 ? "" : "s",
                     operator_name_, subtask_ + 1);
}

}  // namespace tidemark
