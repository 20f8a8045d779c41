// Operator state in a snapshot: the lists a subtask's functions keep without
// keys (Flink's operator ListState), and how they move when the parallelism
// changes.
//
// Contract:
// - Each list holds its elements as separate byte strings, so that lists can
//   be redistributed without knowing the element type; element_signature
//   names the type for the check on restore.
// - SPLIT_DISTRIBUTE (getListState): restored at the same parallelism, each
//   subtask gets back exactly the elements it wrote. At another parallelism
//   the elements of all old subtasks are joined in subtask order and each new
//   subtask takes a contiguous share; the first (total % parallelism)
//   subtasks take one element more.
// - UNION (getUnionListState): every new subtask gets the elements of all old
//   subtasks, in subtask order.
// - Two old subtasks that disagree about a list (its distribution or its
//   element type) are a StateMigrationException naming the list.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {

enum class OperatorStateDistribution : std::uint8_t { SPLIT_DISTRIBUTE, UNION };

/// "split" or "union", for messages.
const char* distributionName(OperatorStateDistribution distribution);

struct OperatorListStateSnapshot {
  std::string name;
  OperatorStateDistribution distribution = OperatorStateDistribution::SPLIT_DISTRIBUTE;
  std::string element_signature;
  std::vector<std::string> elements;

  auto fields() { return std::tie(name, distribution, element_signature, elements); }
};

/// The operator state of one subtask, with where it ran.
struct OperatorStateSnapshot {
  std::int32_t subtask_index = 0;
  std::int32_t parallelism = 1;
  std::vector<OperatorListStateSnapshot> lists;  // sorted by name

  auto fields() { return std::tie(subtask_index, parallelism, lists); }
};

/// The lists subtask `index` of `parallelism` restores from the snapshots of
/// the old subtasks (see the contract), sorted by name.
std::vector<OperatorListStateSnapshot> redistributeOperatorState(std::span<const OperatorStateSnapshot> old,
                                                                 int index, int parallelism);

}  // namespace tidemark::internal
