// RuntimeContext: what a user function may ask about where it runs, and, on a
// keyed stream, its keyed state.
//
// Keyed state is per key and per operator: the runtime sets the current key
// before every element and timer, and each state object reads and writes the
// current key's value. Create state objects in open() and keep the
// references; they stay valid for the operator's life.
//
// Example:
//   void open() override {
//     count_ = &getRuntimeContext().getState(tidemark::ValueStateDescriptor<int64_t>("count", 0));
//   }
#pragma once

#include <string>

#include "tidemark/functions/keyed_state_backend.h"
#include "tidemark/state/aggregating_state.h"
#include "tidemark/state/list_state.h"
#include "tidemark/state/map_state.h"
#include "tidemark/state/reducing_state.h"
#include "tidemark/state/state_descriptor.h"
#include "tidemark/state/value_state.h"

namespace tidemark {

class RuntimeContext {
 public:
  RuntimeContext() = default;
  RuntimeContext(std::string task_name, int subtask_index, int parallelism, int max_parallelism)
      : task_name_(std::move(task_name)),
        subtask_index_(subtask_index),
        parallelism_(parallelism),
        max_parallelism_(max_parallelism) {}
  virtual ~RuntimeContext() = default;

  const std::string& getTaskName() const { return task_name_; }
  int getIndexOfThisSubtask() const { return subtask_index_; }
  int getNumberOfParallelSubtasks() const { return parallelism_; }
  int getMaxNumberOfParallelSubtasks() const { return max_parallelism_; }

 private:
  std::string task_name_ = "function";
  int subtask_index_ = 0;
  int parallelism_ = 1;
  int max_parallelism_ = 128;
};

/// The runtime context of a function on a keyed stream with key type K.
template <class K>
class KeyedRuntimeContext : public RuntimeContext {
 public:
  KeyedRuntimeContext(RuntimeContext base, KeyedStateBackend<K>& backend)
      : RuntimeContext(std::move(base)), backend_(backend) {}

  template <class V>
  ValueState<V>& getState(const ValueStateDescriptor<V>& descriptor) {
    return backend_.getState(descriptor);
  }
  template <class V>
  ListState<V>& getListState(const ListStateDescriptor<V>& descriptor) {
    return backend_.getListState(descriptor);
  }
  template <class UK, class UV>
  MapState<UK, UV>& getMapState(const MapStateDescriptor<UK, UV>& descriptor) {
    return backend_.getMapState(descriptor);
  }
  template <class V>
  ReducingState<V>& getReducingState(const ReducingStateDescriptor<V>& descriptor) {
    return backend_.getReducingState(descriptor);
  }
  template <class IN, class ACC, class OUT>
  AggregatingState<IN, OUT>& getAggregatingState(const AggregatingStateDescriptor<IN, ACC, OUT>& descriptor) {
    return backend_.getAggregatingState(descriptor);
  }

 private:
  KeyedStateBackend<K>& backend_;
};

}  // namespace tidemark
