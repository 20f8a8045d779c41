#include "tidemark/internal/core/unserializable_type.h"

#include <fmt/format.h>

#include "tidemark/core/job_execution_result.h"

namespace tidemark::internal {

void throwUnserializableType(std::string_view what, std::string_view part, std::string_view type) {
  throw InvalidProgramException(fmt::format(
      "{} cannot be snapshotted: its {} type {} has no TypeSerializer (give it a member "
      "`auto fields() {{ return std::tie(a, b); }}` or specialize tidemark::TypeSerializer)",
      what, part, type));
}

}  // namespace tidemark::internal
