// OperatorStateStore: the state of a function without keys, one set of lists
// per parallel subtask (Flink's operator state). A CheckpointedFunction gets
// it in initializeState().
//
// Contract:
// - getListState(descriptor): a list that is split when the parallelism
//   changes: each new subtask takes a contiguous share of all old subtasks'
//   elements; at the same parallelism each subtask gets back its own.
// - getUnionListState(descriptor): every subtask gets all old subtasks'
//   elements; the function picks what it needs (by its subtask index).
// - The element type needs a TypeSerializer (docs/serialization.md); without
//   one the program does not compile.
// - Asking twice for one name returns the same list; asking for one name with
//   another element type or distribution is an InvalidProgramException, and
//   restoring a list of another element type or distribution a
//   StateMigrationException; both name the operator and the list.
// - A restored list nobody asks for goes into the next snapshot unchanged.
// - Not thread-safe: only the subtask's task thread uses it.
//
// Example:
//   void initializeState(tidemark::FunctionInitializationContext& ctx) override {
//     offsets_ = &ctx.getOperatorStateStore().getListState(tidemark::ListStateDescriptor<std::int64_t>("offset"));
//     for (std::int64_t offset : offsets_->get()) offset_ = offset;
//   }
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tidemark/internal/state/operator_list_state.h"
#include "tidemark/internal/state/operator_state_snapshot.h"
#include "tidemark/serialization/type_serializer.h"
#include "tidemark/state/list_state.h"
#include "tidemark/state/state_descriptor.h"

namespace tidemark {

class OperatorStateStore {
 public:
  /// `restored`: the lists this subtask restores (see redistributeOperatorState).
  OperatorStateStore(std::string operator_name, std::vector<internal::OperatorListStateSnapshot> restored);
  OperatorStateStore(const OperatorStateStore&) = delete;
  OperatorStateStore& operator=(const OperatorStateStore&) = delete;

  template <class T>
  ListState<T>& getListState(const ListStateDescriptor<T>& descriptor) {
    return list<T>(descriptor.getName(), internal::OperatorStateDistribution::SPLIT_DISTRIBUTE);
  }

  template <class T>
  ListState<T>& getUnionListState(const ListStateDescriptor<T>& descriptor) {
    return list<T>(descriptor.getName(), internal::OperatorStateDistribution::UNION);
  }

  /// Runtime use: every list, sorted by name, as a snapshot holds it.
  std::vector<internal::OperatorListStateSnapshot> snapshotLists() const;

 private:
  struct Registered {
    std::string name;
    internal::OperatorStateDistribution distribution;
    std::string element_signature;
    std::unique_ptr<internal::OperatorListStateBase> state;
  };

  template <class T>
  ListState<T>& list(const std::string& name, internal::OperatorStateDistribution distribution) {
    static_assert(Serializable<T>,
                  "operator state needs a TypeSerializer for its element type: give the type a member "
                  "`auto fields() { return std::tie(a, b); }` or specialize tidemark::TypeSerializer "
                  "(docs/serialization.md)");
    const std::string signature = TypeSerializer<T>::signature();
    if (Registered* existing = findRegistered(name, distribution, signature)) {
      return static_cast<internal::OperatorListState<T>&>(*existing->state);
    }
    std::unique_ptr<internal::OperatorListState<T>> state;
    if (const auto restored = takeRestored(name, distribution, signature)) {
      state = internal::OperatorListState<T>::fromBytes(restored->elements, describe(name));
    } else {
      state = std::make_unique<internal::OperatorListState<T>>();
    }
    auto& typed = *state;
    registered_.push_back(Registered{name, distribution, signature, std::move(state)});
    return typed;
  }

  /// The list registered as `name`, null if none; throws if it was registered otherwise.
  Registered* findRegistered(const std::string& name, internal::OperatorStateDistribution distribution,
                             const std::string& signature);
  /// The restored list `name`, removed from the restored ones; throws if its shape differs.
  std::unique_ptr<internal::OperatorListStateSnapshot> takeRestored(const std::string& name,
                                                                    internal::OperatorStateDistribution distribution,
                                                                    const std::string& signature);
  /// "operator state 'name' of operator 'op'", for messages.
  std::string describe(const std::string& name) const;

  std::string operator_name_;
  std::vector<Registered> registered_;
  std::vector<internal::OperatorListStateSnapshot> restored_;
};

}  // namespace tidemark
