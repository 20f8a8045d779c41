#include "tidemark/internal/operators/stream_operator.h"

#include <stdexcept>
#include <typeindex>

#include <fmt/format.h>

#include "tidemark/core/describe.h"

namespace tidemark::internal {

void OperatorBase::emitSideOutput(int tag_id, const std::type_info& type, void* record) {
  OutputBase* output = sideOutput(tag_id);
  if (output == nullptr) return;
  if (output->elementType() != std::type_index(type)) {
    // The runtime's failure report names the operator and the element.
    throw std::logic_error(fmt::format("emitted {} to a side output whose stream carries {}: two OutputTags share "
                                       "an id but not a type",
                                       demangle(type.name()), demangle(output->elementType().name())));
  }
  output->collectErased(record);
}

}  // namespace tidemark::internal
