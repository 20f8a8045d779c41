#include "tidemark/internal/state/operator_state_snapshot.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>

#include <fmt/format.h>

#include "tidemark/core/job_execution_result.h"

namespace tidemark::internal {
namespace {

/// One list as the old subtasks hold it: its shape and, per old subtask in
/// subtask order, its elements.
struct JoinedList {
  const OperatorListStateSnapshot* first = nullptr;
  std::vector<const OperatorListStateSnapshot*> parts;
};

void requireSameShape(const OperatorListStateSnapshot& first, const OperatorListStateSnapshot& other) {
  if (first.distribution != other.distribution || first.element_signature != other.element_signature) {
    throw StateMigrationException(fmt::format(
        "operator state '{}' differs between the snapshots restored: a {} list of {} in one, a {} list of {} in "
        "another",
        first.name, distributionName(first.distribution), first.element_signature,
        distributionName(other.distribution), other.element_signature));
  }
}

std::vector<const OperatorStateSnapshot*> inSubtaskOrder(std::span<const OperatorStateSnapshot> old) {
  std::vector<const OperatorStateSnapshot*> ordered;
  for (const OperatorStateSnapshot& snapshot : old) ordered.push_back(&snapshot);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto* a, const auto* b) { return a->subtask_index < b->subtask_index; });
  for (std::size_t i = 1; i < ordered.size(); ++i) {
    if (ordered[i]->subtask_index == ordered[i - 1]->subtask_index) {
      throw StateMigrationException(
          fmt::format("two snapshots restored are both of subtask {}", ordered[i]->subtask_index + 1));
    }
  }
  return ordered;
}

std::map<std::string, JoinedList> joinByName(const std::vector<const OperatorStateSnapshot*>& ordered) {
  std::map<std::string, JoinedList> joined;
  for (const OperatorStateSnapshot* snapshot : ordered) {
    for (const OperatorListStateSnapshot& list : snapshot->lists) {
      JoinedList& entry = joined[list.name];
      if (entry.first == nullptr) {
        entry.first = &list;
      } else {
        requireSameShape(*entry.first, list);
      }
      entry.parts.push_back(&list);
    }
  }
  return joined;
}

/// Elements [begin, end) of the parts joined in order.
std::vector<std::string> slice(const JoinedList& list, std::size_t begin, std::size_t end) {
  std::vector<std::string> elements;
  std::size_t at = 0;
  for (const OperatorListStateSnapshot* part : list.parts) {
    for (const std::string& element : part->elements) {
      if (at >= begin && at < end) elements.push_back(element);
      ++at;
    }
  }
  return elements;
}

std::size_t totalElements(const JoinedList& list) {
  std::size_t total = 0;
  for (const OperatorListStateSnapshot* part : list.parts) total += part->elements.size();
  return total;
}

/// The elements of a split list that subtask `index` of `parallelism` takes.
std::vector<std::string> splitShare(const JoinedList& list, const std::vector<const OperatorStateSnapshot*>& ordered,
                                    int index, int parallelism) {
  const bool same_parallelism = std::all_of(ordered.begin(), ordered.end(),
                                            [&](const auto* snapshot) { return snapshot->parallelism == parallelism; });
  if (same_parallelism) {
    // Each subtask gets back what it wrote, as if nothing had happened.
    for (std::size_t i = 0; i < ordered.size(); ++i) {
      if (ordered[i]->subtask_index != index) continue;
      for (const OperatorListStateSnapshot& own : ordered[i]->lists) {
        if (own.name == list.first->name) return own.elements;
      }
    }
    return {};
  }
  const std::size_t total = totalElements(list);
  const auto n = static_cast<std::size_t>(parallelism);
  const auto i = static_cast<std::size_t>(index);
  const std::size_t base = total / n;
  const std::size_t extra = total % n;
  const std::size_t begin = i * base + std::min(i, extra);
  return slice(list, begin, begin + base + (i < extra ? 1 : 0));
}

}  // namespace

const char* distributionName(OperatorStateDistribution distribution) {
  return distribution == OperatorStateDistribution::UNION ? "union" : "split";
}

std::vector<OperatorListStateSnapshot> redistributeOperatorState(std::span<const OperatorStateSnapshot> old,
                                                                 int index, int parallelism) {
  const std::vector<const OperatorStateSnapshot*> ordered = inSubtaskOrder(old);
  std::vector<OperatorListStateSnapshot> lists;
  for (const auto& [name, list] : joinByName(ordered)) {
    OperatorListStateSnapshot share{name, list.first->distribution, list.first->element_signature, {}};
    share.elements = list.first->distribution == OperatorStateDistribution::UNION
                         ? slice(list, 0, totalElements(list))
                         : splitShare(list, ordered, index, parallelism);
    lists.push_back(std::move(share));
  }
  return lists;
}

}  // namespace tidemark::internal
