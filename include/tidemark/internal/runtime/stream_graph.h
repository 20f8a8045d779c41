// The logical job graph that the DataStream API builds and execute() plans.
//
// Nodes are transformations (a source, a one- or two-input operator, a sink);
// edges say which stream (main or side output) feeds which input, and how it
// is partitioned. Node ids follow creation order, which is a topological
// order. The graph is type-erased so that planning is ordinary code; the
// typed parts (creating operators, channels, writers) are factories filled in
// by the typed API, and TypeOps gives per-element-type operations.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tidemark/core/checkpoint_config.h"
#include "tidemark/core/failure_injection.h"
#include "tidemark/core/restart_strategy.h"
#include "tidemark/internal/operators/chaining_output.h"
#include "tidemark/internal/operators/output.h"
#include "tidemark/internal/operators/stream_operator.h"
#include "tidemark/internal/runtime/channel.h"
#include "tidemark/internal/runtime/failing_input.h"
#include "tidemark/internal/runtime/input_processor.h"
#include "tidemark/internal/runtime/partitioner.h"
#include "tidemark/internal/runtime/record_writer.h"
#include "tidemark/internal/runtime/task.h"

namespace tidemark::internal {

/// Operations on streams of one element type, for the planner.
class TypeOps {
 public:
  virtual ~TypeOps() = default;
  virtual std::unique_ptr<ChannelBase> createChannel(std::size_t capacity, bool blocking) const = 0;
  virtual void setConsumer(ChannelBase& channel, TaskWakeup* wakeup) const = 0;
  virtual OutputBase& createChainingOutput(Task& task, InputBase& target, OperatorBase& target_op) const = 0;
  virtual OutputBase& createBroadcastingOutput(Task& task, const std::vector<OutputBase*>& outputs) const = 0;
  virtual OutputBase& createDiscardingOutput(Task& task) const = 0;
  /// A writer for any partitioning but KEY_GROUP (which needs the key selector).
  virtual OutputBase& createWriter(Task& task, PartitionerKind kind, const std::vector<ChannelBase*>& channels,
                                   int producer_subtask, bool flush_every_record,
                                   BackpressureListener* backpressure) const = 0;
  virtual std::unique_ptr<InputProcessor> createInputProcessor(const std::vector<ChannelBase*>& channels,
                                                               InputBase& target, OperatorBase& target_op) const = 0;
  /// `target` behind a FailingInput that counts for `count` (failure injection).
  virtual InputBase& createFailingInput(Task& task, InputBase& target, InjectedFailureCount& count) const = 0;
};

template <class T>
std::vector<Channel<T>*> typedChannels(const std::vector<ChannelBase*>& channels) {
  std::vector<Channel<T>*> typed;
  typed.reserve(channels.size());
  for (auto* channel : channels) typed.push_back(static_cast<Channel<T>*>(channel));
  return typed;
}

/// Create a record writer, register it with the task, return it as an output.
template <class T, class Partitioner>
OutputBase& addWriter(Task& task, const std::vector<ChannelBase*>& channels, Partitioner partitioner,
                      bool flush_every_record, BackpressureListener* backpressure) {
  auto& writer = task.own(std::make_unique<RecordWriter<T, Partitioner>>(
      typedChannels<T>(channels), std::move(partitioner), flush_every_record, backpressure));
  task.addWriter(writer);
  return writer;
}

template <class T>
class TypeOpsImpl final : public TypeOps {
 public:
  std::unique_ptr<ChannelBase> createChannel(std::size_t capacity, bool blocking) const override {
    return std::make_unique<Channel<T>>(capacity, blocking);
  }
  void setConsumer(ChannelBase& channel, TaskWakeup* wakeup) const override {
    static_cast<Channel<T>&>(channel).setConsumerWakeup(wakeup);
  }
  OutputBase& createChainingOutput(Task& task, InputBase& target, OperatorBase& target_op) const override {
    return task.own(std::make_unique<ChainingOutput<T>>(static_cast<Input<T>&>(target), target_op));
  }
  OutputBase& createBroadcastingOutput(Task& task, const std::vector<OutputBase*>& outputs) const override {
    std::vector<Output<T>*> typed;
    for (auto* output : outputs) typed.push_back(static_cast<Output<T>*>(output));
    return task.own(std::make_unique<BroadcastingOutput<T>>(std::move(typed)));
  }
  OutputBase& createDiscardingOutput(Task& task) const override {
    return task.own(std::make_unique<DiscardingOutput<T>>());
  }
  OutputBase& createWriter(Task& task, PartitionerKind kind, const std::vector<ChannelBase*>& channels,
                           int producer_subtask, bool flush_every_record,
                           BackpressureListener* backpressure) const override {
    switch (kind) {
      case PartitionerKind::FORWARD:
        return addWriter<T>(task, channels, ForwardPartitioner{}, flush_every_record, backpressure);
      case PartitionerKind::REBALANCE:
        return addWriter<T>(task, channels, RebalancePartitioner{producer_subtask}, flush_every_record, backpressure);
      case PartitionerKind::BROADCAST:
        return addWriter<T>(task, channels, BroadcastPartitioner{}, flush_every_record, backpressure);
      case PartitionerKind::GLOBAL:
        return addWriter<T>(task, channels, GlobalPartitioner{}, flush_every_record, backpressure);
      case PartitionerKind::KEY_GROUP:
        break;
    }
    throw std::logic_error("a key-group writer needs its key selector");
  }
  std::unique_ptr<InputProcessor> createInputProcessor(const std::vector<ChannelBase*>& channels, InputBase& target,
                                                       OperatorBase& target_op) const override {
    return std::make_unique<ChannelInputProcessor<T>>(typedChannels<T>(channels), static_cast<Input<T>&>(target),
                                                      target_op);
  }
  InputBase& createFailingInput(Task& task, InputBase& target, InjectedFailureCount& count) const override {
    return task.own(std::make_unique<FailingInput<T>>(static_cast<Input<T>&>(target), count));
  }
};

template <class T>
const TypeOps& typeOpsFor() {
  static const TypeOpsImpl<T> ops;
  return ops;
}

/// Creates the writer of a keyed edge: (task, channels, max parallelism,
/// flush every record, backpressure listener) -> output.
using KeyedWriterFactory = std::function<OutputBase&(Task&, const std::vector<ChannelBase*>&, int, bool,
                                                      BackpressureListener*)>;

struct StreamEdge {
  int source_node = -1;
  int side_output_tag = -1;  // -1: the main output
  std::optional<PartitionerKind> partitioning;  // empty: forward if parallelism matches, else rebalance
  KeyedWriterFactory keyed_writer;              // set iff partitioning is KEY_GROUP
  const TypeOps* element_type = nullptr;
  int target_input = 0;
};

class StreamNode {
 public:
  virtual ~StreamNode() = default;

  int id = -1;
  std::string name;
  std::string uid;
  int parallelism = -1;          // -1: the environment's default
  bool non_parallel = false;     // must run with parallelism 1
  bool chaining_allowed = true;
  int num_inputs = 0;
  const TypeOps* output_type = nullptr;
  std::vector<StreamEdge> inputs;

  /// A fresh operator instance for one subtask.
  virtual std::unique_ptr<OperatorBase> createOperator() const = 0;
  /// The Input that input number `input` of `op` is fed through.
  virtual InputBase& inputOf(OperatorBase& op, int input, Task& task) const = 0;
};

template <class OUT>
class SourceNode final : public StreamNode {
 public:
  using Factory = std::function<std::unique_ptr<OperatorBase>()>;
  explicit SourceNode(Factory factory) : factory_(std::move(factory)) { output_type = &typeOpsFor<OUT>(); }
  std::unique_ptr<OperatorBase> createOperator() const override { return factory_(); }
  InputBase& inputOf(OperatorBase&, int, Task&) const override {
    throw std::logic_error("a source has no input");
  }

 private:
  Factory factory_;
};

template <class IN, class OUT>
class OneInputNode final : public StreamNode {
 public:
  using Factory = std::function<std::unique_ptr<OneInputOperator<IN, OUT>>()>;
  explicit OneInputNode(Factory factory) : factory_(std::move(factory)) {
    num_inputs = 1;
    output_type = &typeOpsFor<OUT>();
  }
  std::unique_ptr<OperatorBase> createOperator() const override { return factory_(); }
  /// A fresh operator with its static type (for the test harness).
  std::unique_ptr<OneInputOperator<IN, OUT>> createTypedOperator() const { return factory_(); }
  InputBase& inputOf(OperatorBase& op, int, Task&) const override {
    return static_cast<Input<IN>&>(static_cast<OneInputOperator<IN, OUT>&>(op));
  }

 private:
  Factory factory_;
};

template <class IN1, class IN2, class OUT>
class TwoInputNode final : public StreamNode {
 public:
  using Factory = std::function<std::unique_ptr<TwoInputOperator<IN1, IN2, OUT>>()>;
  explicit TwoInputNode(Factory factory) : factory_(std::move(factory)) {
    num_inputs = 2;
    output_type = &typeOpsFor<OUT>();
  }
  std::unique_ptr<OperatorBase> createOperator() const override { return factory_(); }
  InputBase& inputOf(OperatorBase& op, int input, Task& task) const override {
    auto& two = static_cast<TwoInputOperator<IN1, IN2, OUT>&>(op);
    if (input == 0) return task.own(std::make_unique<FirstInputOf<IN1, IN2, OUT>>(two));
    return task.own(std::make_unique<SecondInputOf<IN1, IN2, OUT>>(two));
  }

 private:
  Factory factory_;
};

/// Settings execute() plans and runs with.
struct ExecutionSettings {
  int parallelism = 1;
  int max_parallelism = kDefaultMaxParallelism;
  Duration auto_watermark_interval = 200;
  Duration buffer_timeout = 100;
  std::size_t channel_capacity_batches = 8;
  std::optional<Timestamp> simulated_start;  // set: run in simulated time
  bool cancel_on_signals = true;             // SIGINT / SIGTERM cancel the job
  CheckpointConfig checkpoint;               // checkpointing is off without an interval
  std::string restore_path;                  // set: restore from this checkpoint (or storage directory)
  bool allow_non_restored_state = false;     // state of operators the job lacks is skipped, not refused
  std::optional<RestartStrategyConfiguration> restart_strategy;  // empty: Flink's default (restart_strategy.h)
  std::vector<FailureInjection> injected_failures;
};

class StreamGraph {
 public:
  template <class Node>
  Node& add(std::unique_ptr<Node> node, std::string name) {
    node->id = static_cast<int>(nodes_.size());
    node->name = std::move(name);
    Node& ref = *node;
    nodes_.push_back(std::move(node));
    return ref;
  }
  StreamNode& node(int id) { return *nodes_.at(static_cast<std::size_t>(id)); }
  const StreamNode& node(int id) const { return *nodes_.at(static_cast<std::size_t>(id)); }
  std::size_t size() const { return nodes_.size(); }

 private:
  std::vector<std::unique_ptr<StreamNode>> nodes_;
};

}  // namespace tidemark::internal
