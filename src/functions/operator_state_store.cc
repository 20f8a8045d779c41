#include "tidemark/functions/operator_state_store.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "tidemark/core/job_execution_result.h"

namespace tidemark {

using internal::distributionName;
using internal::OperatorListStateSnapshot;
using internal::OperatorStateDistribution;

OperatorStateStore::OperatorStateStore(std::string operator_name, std::vector<OperatorListStateSnapshot> restored)
    : operator_name_(std::move(operator_name)), restored_(std::move(restored)) {}

OperatorStateStore::Registered* OperatorStateStore::findRegistered(const std::string& name,
                                                                   OperatorStateDistribution distribution,
                                                                   const std::string& signature) {
  for (Registered& registered : registered_) {
    if (registered.name != name) continue;
    if (registered.distribution != distribution || registered.element_signature != signature) {
      throw InvalidProgramException(fmt::format("{} was asked for as a {} list of {}, and now as a {} list of {}",
                                                describe(name), distributionName(registered.distribution),
                                                registered.element_signature, distributionName(distribution),
                                                signature));
    }
    return &registered;
  }
  return nullptr;
}

std::unique_ptr<OperatorListStateSnapshot> OperatorStateStore::takeRestored(const std::string& name,
                                                                            OperatorStateDistribution distribution,
                                                                            const std::string& signature) {
  const auto found = std::find_if(restored_.begin(), restored_.end(),
                                  [&](const OperatorListStateSnapshot& list) { return list.name == name; });
  if (found == restored_.end()) return nullptr;
  if (found->distribution != distribution || found->element_signature != signature) {
    throw StateMigrationException(fmt::format("{} was snapshotted as a {} list of {} and is now asked for as a {} list of {}",
                                              describe(name), distributionName(found->distribution),
                                              found->element_signature, distributionName(distribution), signature));
  }
  auto taken = std::make_unique<OperatorListStateSnapshot>(std::move(*found));
  restored_.erase(found);
  return taken;
}

std::string OperatorStateStore::describe(const std::string& name) const {
  return fmt::format("operator state '{}' of operator '{}'", name, operator_name_);
}

std::vector<OperatorListStateSnapshot> OperatorStateStore::snapshotLists() const {
  std::vector<OperatorListStateSnapshot> lists = restored_;  // restored, never asked for: kept as they are
  for (const Registered& registered : registered_) {
    lists.push_back({registered.name, registered.distribution, registered.element_signature,
                     registered.state->serializeElements()});
  }
  std::sort(lists.begin(), lists.end(),
            [](const OperatorListStateSnapshot& a, const OperatorListStateSnapshot& b) { return a.name < b.name; });
  return lists;
}

}  // namespace tidemark
