#include "tidemark/runtime/partitioner.h"

namespace tidemark::internal {

std::string_view partitionerName(PartitionerKind kind) {
  switch (kind) {
    case PartitionerKind::FORWARD:
      return "FORWARD";
    case PartitionerKind::REBALANCE:
      return "REBALANCE";
    case PartitionerKind::KEY_GROUP:
      return "HASH";
    case PartitionerKind::BROADCAST:
      return "BROADCAST";
    case PartitionerKind::GLOBAL:
      return "GLOBAL";
  }
  return "UNKNOWN";
}

}  // namespace tidemark::internal
