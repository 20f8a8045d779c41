#include "tidemark/internal/operators/stream_operator.h"

#include <memory>
#include <stdexcept>
#include <utility>
#include <typeindex>

#include <fmt/format.h>

#include "tidemark/core/describe.h"

namespace tidemark::internal {

OperatorSnapshot OperatorBase::snapshot(std::int64_t checkpoint_id, Timestamp checkpoint_timestamp) {
  OperatorSnapshot taken = snapshotState(checkpoint_id);
  snapshotInputCombination(taken);
  if (checkpointed_function_ != nullptr) {
    checkpointed_function_->snapshotState(FunctionSnapshotContext(checkpoint_id, checkpoint_timestamp));
  }
  taken.operator_state.subtask_index = context_.subtask_index;
  taken.operator_state.parallelism = context_.parallelism;
  // Restored lists that no function asked for are kept, as they came.
  taken.operator_state.lists =
      operator_state_store_ != nullptr ? operator_state_store_->snapshotLists() : restored_operator_state_;
  return taken;
}

void OperatorBase::initializeState(std::vector<OperatorSnapshot> snapshots) {
  restoreInputCombination(ownSnapshot(snapshots, context_.subtask_index, context_.parallelism),
                          restoredWatermark(snapshots));
  std::vector<OperatorStateSnapshot> operator_states;
  operator_states.reserve(snapshots.size());
  for (OperatorSnapshot& snapshot : snapshots) operator_states.push_back(std::move(snapshot.operator_state));
  restored_operator_state_ = redistributeOperatorState(operator_states, context_.subtask_index, context_.parallelism);
  restored_checkpoint_id_ = snapshots.empty() ? 0 : snapshots.front().checkpoint_id;
  restored_ = std::move(snapshots);
  is_restored_ = true;
}

OperatorStateStore& OperatorBase::operatorStateStore() {
  if (operator_state_store_ == nullptr) {
    operator_state_store_ = std::make_unique<OperatorStateStore>(context_.name, std::move(restored_operator_state_));
    restored_operator_state_.clear();
  }
  return *operator_state_store_;
}

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
