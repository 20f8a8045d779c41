#include "tidemark/internal/runtime/job_runner.h"

#include <atomic>
#include <chrono>
#include <climits>
#include <deque>
#include <csignal>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tidemark/core/log.h"
#include "tidemark/internal/runtime/checkpoint_coordinator.h"
#include "tidemark/internal/runtime/job_context.h"
#include "tidemark/internal/runtime/operator_time_service.h"
#include "tidemark/internal/runtime/real_time_executor.h"
#include "tidemark/internal/runtime/restart_policy.h"
#include "tidemark/internal/runtime/signal_cancellation.h"
#include "tidemark/internal/runtime/simulated_executor.h"
#include "tidemark/serialization/type_serializer.h"

namespace tidemark::internal {
namespace {

/// The two executors behind one face, so planning does not care which runs.
class Executor {
 public:
  explicit Executor(const ExecutionSettings& settings) {
    if (settings.simulated_start) {
      simulated_ = std::make_unique<SimulatedExecutor>(*settings.simulated_start);
    } else {
      real_ = std::make_unique<RealTimeExecutor>(settings.buffer_timeout);
    }
  }
  bool simulated() const { return simulated_ != nullptr; }
  /// The processing time now, on the job's clock.
  Timestamp now() const { return simulated_ ? simulated_->now() : wallClockMillis(); }
  std::unique_ptr<ProcessingTimeService> createTimeService(Task& task) {
    return simulated_ ? simulated_->createTimeService(task) : real_->createTimeService(task);
  }
  BackpressureListener* backpressureListenerFor(Task& task) {
    return simulated_ ? simulated_->backpressureListenerFor(task) : nullptr;
  }
  void run(const std::vector<Task*>& tasks, JobContext& job) {
    if (simulated_) {
      simulated_->run(tasks, job);
    } else {
      real_->run(tasks, job);
    }
  }

 private:
  std::unique_ptr<SimulatedExecutor> simulated_;
  std::unique_ptr<RealTimeExecutor> real_;
};

/// A planned job: resolved parallelism and partitioning, chains, tasks, channels.
/// A checkpoint in messages: its directory, or its id when it is in memory.
std::string restoreName(const CompletedCheckpoint& checkpoint) {
  if (checkpoint.directory.empty()) return fmt::format("checkpoint {} (in memory)", checkpoint.checkpoint_id);
  return checkpoint.directory.string();
}

/// The newest checkpoint in the storage directory `directory` that passes
/// every check; each newer one that does not is passed over with a warning.
CompletedCheckpoint newestIntactCheckpoint(const std::filesystem::path& directory) {
  std::vector<std::string> skipped;
  std::optional<CompletedCheckpoint> checkpoint = FileCheckpointStorage(directory).latest(&skipped);
  if (!checkpoint) {
    if (skipped.empty()) throw CheckpointStorageError(fmt::format("{} holds no completed checkpoint", directory.string()));
    throw CheckpointStorageError(
        fmt::format("{} holds no intact checkpoint: {}", directory.string(), fmt::join(skipped, "; ")));
  }
  for (const std::string& error : skipped) {
    logMessage(LogLevel::WARNING, fmt::format("restoring from {}: skipped a checkpoint that is not intact: {}",
                                              directory.string(), error));
  }
  if (!skipped.empty()) {
    logMessage(LogLevel::WARNING, fmt::format("restoring from {}: restoring the newest intact checkpoint, {}",
                                              directory.string(), checkpoint->directory.string()));
  }
  return std::move(*checkpoint);
}

/// Key groups are what keyed state is split by: their number cannot change.
void requireSameMaxParallelism(const CompletedCheckpoint& checkpoint, const ExecutionSettings& settings) {
  if (checkpoint.max_parallelism == settings.max_parallelism) return;
  throw std::invalid_argument(fmt::format(
      "{} was taken with max parallelism {} and this job has max parallelism {}: the max parallelism cannot "
      "change across a restore (setMaxParallelism({}))",
      checkpoint.directory.string(), checkpoint.max_parallelism, settings.max_parallelism,
      checkpoint.max_parallelism));
}

/// The checkpoint `settings.restore_path` names. An explicit checkpoint must
/// be intact; "the latest in a directory" falls back to the newest intact one.
CompletedCheckpoint checkpointToRestore(const ExecutionSettings& settings) {
  const std::filesystem::path path(settings.restore_path);
  try {
    std::optional<CompletedCheckpoint> checkpoint;
    if (std::filesystem::exists(path / "_metadata")) {
      checkpoint = readCheckpoint(path);
    } else if (std::filesystem::is_directory(path)) {
      checkpoint = newestIntactCheckpoint(path);
    } else {
      throw CheckpointStorageError(fmt::format("{} is neither a checkpoint nor a checkpoint directory", path.string()));
    }
    requireSameMaxParallelism(*checkpoint, settings);
    return std::move(*checkpoint);
  } catch (const std::exception& error) {
    throw JobExecutionException(fmt::format("cannot restore from {}: {}", path.string(), error.what()));
  }
}

/// One attempt of a job: the first, or one after a restart.
struct Attempt {
  int number = 0;
  /// One flag per injected failure, set when it fired: it fires once per job.
  std::deque<std::atomic<bool>>* injection_fired = nullptr;
};

class JobPlan {
 public:
  JobPlan(const StreamGraph& graph, const ExecutionSettings& settings, Attempt attempt)
      : graph_(graph), settings_(settings), attempt_(attempt), executor_(settings) {}

  /// Plans the job; restored from `checkpoint` when it is set.
  void build(const CompletedCheckpoint* checkpoint) {
    if (checkpoint != nullptr) decodeRestoredState(*checkpoint);
    resolveParallelism();
    resolvePartitioning();
    resolveInjectedFailures();
    throwIfInvalid();
    buildChains();
    createTasks();
    createChannels();
    for (std::size_t n = 0; n < graph_.size(); ++n) wireOutputs(static_cast<int>(n));
    wireInputs();
    refuseUnmatchedRestoredState();
  }

  /// Runs the planned job; `coordinator` (null without checkpointing)
  /// serves this attempt.
  void run(JobContext& job, CheckpointCoordinator* coordinator) {
    if (coordinator != nullptr) {
      coordinator->beginAttempt(job);
      const Timestamp start = executor_.now();
      for (auto& task : tasks_) task->enableCheckpointing(*coordinator, coordinator->registerTask(*task));
      for (auto& task : tasks_) {
        if (task->isSource()) task->scheduleCheckpointTriggers(start);
      }
    }
    armInjectedFailuresAtTime();
    for (auto& channel : channels_) {
      ChannelBase* c = channel.get();
      job.onCancel([c] { c->cancel(); });
    }
    std::vector<Task*> tasks;
    for (auto& task : tasks_) tasks.push_back(task.get());
    executor_.run(tasks, job);
  }

  /// The processing time now, on the job's clock.
  Timestamp now() const { return executor_.now(); }
  /// When this attempt restored its state (-1: it did not), and from where.
  Timestamp restoreTimestamp() const { return restore_timestamp_; }
  const std::string& restoredFrom() const { return restored_from_; }

  std::vector<OperatorMetrics> metrics() const {
    std::vector<OperatorMetrics> result;
    for (std::size_t n = 0; n < graph_.size(); ++n) {
      OperatorMetrics m{graph_.node(static_cast<int>(n)).name, parallelism_[n], 0, {}};
      CounterReport report;
      for (auto* op : operators_[n]) {
        m.records_in += op->recordsIn();
        op->reportCounters(report);
      }
      m.counters = report.counters();
      result.push_back(m);
    }
    return result;
  }

 private:
  const StreamNode& node(int id) const { return graph_.node(id); }

  void resolveParallelism() {
    for (std::size_t n = 0; n < graph_.size(); ++n) {
      const StreamNode& sn = node(static_cast<int>(n));
      int p = sn.parallelism > 0 ? sn.parallelism : (sn.non_parallel ? 1 : settings_.parallelism);
      if (sn.parallelism == 0 || sn.parallelism < -1) {
        problems_.push_back(fmt::format("operator '{}': parallelism {} must be at least 1", sn.name, sn.parallelism));
        p = 1;
      }
      if (sn.non_parallel && p != 1) {
        problems_.push_back(fmt::format("operator '{}' is not parallel: its parallelism must be 1, not {}", sn.name, p));
      }
      if (p > settings_.max_parallelism) {
        problems_.push_back(fmt::format("operator '{}': parallelism {} exceeds the max parallelism {}", sn.name, p,
                                        settings_.max_parallelism));
      }
      parallelism_.push_back(p);
    }
  }

  void resolvePartitioning() {
    partitioning_.resize(graph_.size());
    for (std::size_t n = 0; n < graph_.size(); ++n) {
      const StreamNode& target = node(static_cast<int>(n));
      for (const StreamEdge& edge : target.inputs) {
        const bool same = parallelism_[static_cast<std::size_t>(edge.source_node)] == parallelism_[n];
        PartitionerKind kind = edge.partitioning.value_or(same ? PartitionerKind::FORWARD : PartitionerKind::REBALANCE);
        if (kind == PartitionerKind::FORWARD && !same) {
          problems_.push_back(fmt::format(
              "forward partitioning from '{}' (parallelism {}) to '{}' (parallelism {}) needs equal parallelism",
              node(edge.source_node).name, parallelism_[static_cast<std::size_t>(edge.source_node)], target.name,
              parallelism_[n]));
        }
        partitioning_[n].push_back(kind);
      }
    }
  }

  void throwIfInvalid() const {
    std::vector<std::string> problems = problems_;
    if (graph_.size() == 0) problems.push_back("the job has no operators: define a source and a sink first");
    if (settings_.max_parallelism < 1 || settings_.max_parallelism > kUpperBoundMaxParallelism) {
      problems.push_back(fmt::format("max parallelism {} is not in [1, {}]", settings_.max_parallelism,
                                     kUpperBoundMaxParallelism));
    }
    if (problems.empty()) return;
    std::string message = fmt::format("the job is invalid ({} problem{}):", problems.size(), problems.size() > 1 ? "s" : "");
    for (const auto& p : problems) message += "\n  - " + p;
    throw InvalidProgramException(message);
  }

  bool chainedToUpstream(int n) const {
    const StreamNode& sn = node(n);
    if (sn.num_inputs != 1 || sn.inputs.size() != 1 || !sn.chaining_allowed) return false;
    const StreamEdge& edge = sn.inputs.front();
    const auto un = static_cast<std::size_t>(edge.source_node);
    return partitioning_[static_cast<std::size_t>(n)].front() == PartitionerKind::FORWARD &&
           parallelism_[un] == parallelism_[static_cast<std::size_t>(n)] && node(edge.source_node).chaining_allowed;
  }

  void buildChains() {
    head_.resize(graph_.size());
    for (std::size_t n = 0; n < graph_.size(); ++n) {
      const int id = static_cast<int>(n);
      head_[n] = chainedToUpstream(id) ? head_[static_cast<std::size_t>(node(id).inputs.front().source_node)] : id;
      chain_members_[head_[n]].push_back(id);
    }
  }

  void createTasks() {
    operators_.resize(graph_.size());
    tasks_of_.resize(graph_.size());
    for (auto& [head, members] : chain_members_) {
      std::string name;
      for (int m : members) name += (name.empty() ? "" : " -> ") + node(m).name;
      const int p = parallelism_[static_cast<std::size_t>(head)];
      for (int subtask = 0; subtask < p; ++subtask) {
        auto task = std::make_unique<Task>(name, subtask, p);
        task->setTimeService(executor_.createTimeService(*task));
        for (int m : members) addOperator(*task, m, subtask);
        tasks_.push_back(std::move(task));
      }
    }
  }

  /// The id an operator's state has in checkpoints: its uid, or one made of
  /// its place in the graph and its name (the same program, the same ids).
  std::string operatorId(int n) const {
    const StreamNode& sn = node(n);
    return sn.uid.empty() ? fmt::format("auto-{}-{}", n, sn.name) : sn.uid;
  }

  /// Decodes every subtask's snapshot of `checkpoint`.
  void decodeRestoredState(const CompletedCheckpoint& checkpoint) {
    for (const auto& [operator_id, subtasks] : checkpoint.states) {
      for (const auto& [subtask, bytes] : subtasks) {
        try {
          restored_[operator_id].push_back(deserializeFromBytes<OperatorSnapshot>(bytes));
        } catch (const std::exception& error) {
          throw JobExecutionException(fmt::format("cannot restore from {}: the state of operator '{}' subtask {} in {}: {}",
                                                  restoreSource(checkpoint), operator_id, subtask + 1,
                                                  restoreName(checkpoint), error.what()));
        }
      }
    }
    restored_from_ = restoreName(checkpoint);
    restore_timestamp_ = executor_.now();
  }

  /// What the user asked to restore from, or else the checkpoint itself.
  std::string restoreSource(const CompletedCheckpoint& checkpoint) const {
    return settings_.restore_path.empty() || attempt_.number > 0 ? restoreName(checkpoint) : settings_.restore_path;
  }

  /// The first node named `name`, or -1.
  int nodeNamed(const std::string& name) const {
    for (std::size_t n = 0; n < graph_.size(); ++n) {
      if (node(static_cast<int>(n)).name == name) return static_cast<int>(n);
    }
    return -1;
  }

  /// Finds each injected failure's operator subtask; an afterRecords one gets its count.
  void resolveInjectedFailures() {
    for (std::size_t i = 0; i < settings_.injected_failures.size(); ++i) {
      const FailureInjection& failure = settings_.injected_failures[i];
      const int n = nodeNamed(failure.operatorName());
      if (n < 0) {
        problems_.push_back(fmt::format("injectFailure({}): the job has no operator named '{}'", failure.describe(),
                                        failure.operatorName()));
        continue;
      }
      const int p = parallelism_[static_cast<std::size_t>(n)];
      if (failure.subtask() >= p) {
        problems_.push_back(fmt::format("injectFailure({}): operator '{}' has {} subtask{}", failure.describe(),
                                        failure.operatorName(), p, p == 1 ? "" : "s"));
        continue;
      }
      if (failure.kind() == FailureInjection::Kind::AFTER_RECORDS) {
        if (node(n).num_inputs == 0) {
          problems_.push_back(fmt::format("injectFailure({}): '{}' is a source and receives no records; name an "
                                          "operator it feeds",
                                          failure.describe(), failure.operatorName()));
          continue;
        }
        injected_counts_[{n, failure.subtask()}] = std::make_unique<InjectedFailureCount>(
            failure.records(), failure.describe(), (*attempt_.injection_fired)[i]);
      }
    }
  }

  /// An atTime injection is a timer of the task that holds its operator subtask.
  void armInjectedFailuresAtTime() {
    for (std::size_t i = 0; i < settings_.injected_failures.size(); ++i) {
      const FailureInjection& failure = settings_.injected_failures[i];
      if (failure.kind() != FailureInjection::Kind::AT_TIME) continue;
      std::atomic<bool>* fired = &(*attempt_.injection_fired)[i];
      if (fired->load()) continue;
      const auto n = static_cast<std::size_t>(nodeNamed(failure.operatorName()));
      Task& task = *tasks_of_[n][static_cast<std::size_t>(failure.subtask())];
      task.timeService().registerTimer(failure.instant(), [fired, what = failure.describe()](Timestamp) {
        if (!fired->exchange(true)) throw std::runtime_error("injected failure " + what);
      });
    }
  }

  /// Input `input` of node `n`'s subtask `subtask`, behind a FailingInput
  /// when an afterRecords injection targets that subtask.
  InputBase& inputFor(int n, OperatorBase& op, int input, Task& task, int subtask, const TypeOps& type) {
    InputBase& plain = node(n).inputOf(op, input, task);
    auto count = injected_counts_.find({n, subtask});
    if (count == injected_counts_.end()) return plain;
    return type.createFailingInput(task, plain, *count->second);
  }

  /// A restored operator state that no operator of this job takes.
  void refuseUnmatchedRestoredState() const {
    if (settings_.allow_non_restored_state) return;
    std::set<std::string> ids;
    for (std::size_t n = 0; n < graph_.size(); ++n) ids.insert(operatorId(static_cast<int>(n)));
    for (const auto& [operator_id, snapshots] : restored_) {
      if (ids.count(operator_id) != 0) continue;
      throw JobExecutionException(fmt::format(
          "cannot restore from {}: it holds state of operator '{}', which this job does not have (give the "
          "operator the same uid, or setAllowNonRestoredState(true) to skip that state)",
          restored_from_, operator_id));
    }
  }

  void addOperator(Task& task, int n, int subtask) {
    const StreamNode& sn = node(n);
    const int p = parallelism_[static_cast<std::size_t>(n)];
    OperatorContext context;
    context.name = sn.name;
    context.subtask_index = subtask;
    context.parallelism = p;
    context.max_parallelism = settings_.max_parallelism;
    context.key_group_range = computeKeyGroupRangeForOperatorIndex(settings_.max_parallelism, p, subtask);
    context.auto_watermark_interval = settings_.auto_watermark_interval;
    context.checkpointing_enabled = settings_.checkpoint.isCheckpointingEnabled();
    context.attempt_number = attempt_.number;
    context.time_service = &task.own(std::make_unique<OperatorTimeService>(task.timeService(), context.description()));
    auto op = sn.createOperator();
    op->setup(std::move(context));
    const std::string id = operatorId(n);
    if (auto restored = restored_.find(id); restored != restored_.end()) op->initializeState(restored->second);
    operators_[static_cast<std::size_t>(n)].push_back(&task.addOperator(std::move(op), id));
    tasks_of_[static_cast<std::size_t>(n)].push_back(&task);
  }

  /// channels_of_[target][edge][producer][consumer], for edges between tasks.
  void createChannels() {
    const bool blocking = !executor_.simulated();
    channels_of_.resize(graph_.size());
    for (std::size_t t = 0; t < graph_.size(); ++t) {
      const StreamNode& target = node(static_cast<int>(t));
      channels_of_[t].resize(target.inputs.size());
      if (head_[t] != static_cast<int>(t)) continue;  // chained: no channels
      for (std::size_t e = 0; e < target.inputs.size(); ++e) {
        const StreamEdge& edge = target.inputs[e];
        const int producers = parallelism_[static_cast<std::size_t>(edge.source_node)];
        channels_of_[t][e].assign(static_cast<std::size_t>(producers),
                                  std::vector<ChannelBase*>(static_cast<std::size_t>(parallelism_[t]), nullptr));
        for (int u = 0; u < producers; ++u) {
          for (int d = 0; d < parallelism_[t]; ++d) {
            if (partitioning_[t][e] == PartitionerKind::FORWARD && u != d) continue;
            channels_.push_back(edge.element_type->createChannel(settings_.channel_capacity_batches, blocking));
            channels_of_[t][e][static_cast<std::size_t>(u)][static_cast<std::size_t>(d)] = channels_.back().get();
          }
        }
      }
    }
  }

  /// The output feeding one edge from producer subtask `u`.
  OutputBase& outputForEdge(std::size_t t, std::size_t e, int u) {
    const StreamNode& target = node(static_cast<int>(t));
    const StreamEdge& edge = target.inputs[e];
    const auto un = static_cast<std::size_t>(edge.source_node);
    Task& task = *tasks_of_[un][static_cast<std::size_t>(u)];
    if (head_[t] != static_cast<int>(t)) {
      OperatorBase& op = *operators_[t][static_cast<std::size_t>(u)];
      InputBase& input = inputFor(static_cast<int>(t), op, edge.target_input, task, u, *edge.element_type);
      return edge.element_type->createChainingOutput(task, input, op);
    }
    std::vector<ChannelBase*> channels;
    for (ChannelBase* c : channels_of_[t][e][static_cast<std::size_t>(u)]) {
      if (c != nullptr) channels.push_back(c);
    }
    const bool flush_every = !executor_.simulated() && settings_.buffer_timeout == 0;
    BackpressureListener* backpressure = executor_.backpressureListenerFor(task);
    if (partitioning_[t][e] == PartitionerKind::KEY_GROUP) {
      return edge.keyed_writer(task, channels, settings_.max_parallelism, flush_every, backpressure);
    }
    return edge.element_type->createWriter(task, partitioning_[t][e], channels, u, flush_every, backpressure);
  }

  void wireOutputs(int n) {
    const auto nn = static_cast<std::size_t>(n);
    for (int u = 0; u < parallelism_[nn]; ++u) {
      std::map<int, std::vector<OutputBase*>> by_tag;  // -1: main output
      std::map<int, const TypeOps*> tag_types;
      for (std::size_t t = nn + 1; t < graph_.size(); ++t) {
        const StreamNode& target = node(static_cast<int>(t));
        for (std::size_t e = 0; e < target.inputs.size(); ++e) {
          if (target.inputs[e].source_node != n) continue;
          by_tag[target.inputs[e].side_output_tag].push_back(&outputForEdge(t, e, u));
          tag_types[target.inputs[e].side_output_tag] = target.inputs[e].element_type;
        }
      }
      OperatorBase& op = *operators_[nn][static_cast<std::size_t>(u)];
      Task& task = *tasks_of_[nn][static_cast<std::size_t>(u)];
      const auto& main = by_tag[-1];
      const TypeOps& main_type = *node(n).output_type;
      op.setMainOutput(main.empty()       ? &main_type.createDiscardingOutput(task)
                       : main.size() == 1 ? main.front()
                                          : &main_type.createBroadcastingOutput(task, main));
      for (auto& [tag, outputs] : by_tag) {
        if (tag < 0) continue;
        op.setSideOutput(tag, outputs.size() == 1 ? outputs.front()
                                                  : &tag_types[tag]->createBroadcastingOutput(task, outputs));
      }
    }
  }

  void wireInputs() {
    for (std::size_t t = 0; t < graph_.size(); ++t) {
      const StreamNode& target = node(static_cast<int>(t));
      if (head_[t] != static_cast<int>(t) || target.num_inputs == 0) continue;
      for (int d = 0; d < parallelism_[t]; ++d) {
        Task& task = *tasks_of_[t][static_cast<std::size_t>(d)];
        OperatorBase& op = *operators_[t][static_cast<std::size_t>(d)];
        for (int input = 0; input < target.num_inputs; ++input) {
          std::vector<ChannelBase*> channels;
          const TypeOps* type = nullptr;
          for (std::size_t e = 0; e < target.inputs.size(); ++e) {
            if (target.inputs[e].target_input != input) continue;
            type = target.inputs[e].element_type;
            for (auto& per_producer : channels_of_[t][e]) {
              ChannelBase* c = per_producer[static_cast<std::size_t>(d)];
              if (c == nullptr) continue;
              type->setConsumer(*c, &task.wakeup());
              channels.push_back(c);
            }
          }
          if (type == nullptr) {
            throw InvalidProgramException(fmt::format("operator '{}' has nothing connected to input {}", target.name, input + 1));
          }
          auto processor =
              type->createInputProcessor(channels, inputFor(static_cast<int>(t), op, input, task, d, *type), op);
          if (auto restored = restored_.find(operatorId(static_cast<int>(t))); restored != restored_.end()) {
            restoreInputValve(processor->valve(), restored->second, d, parallelism_[t], input);
          }
          task.addInput(std::move(processor));
        }
      }
    }
  }

  const StreamGraph& graph_;
  const ExecutionSettings& settings_;
  Attempt attempt_;
  Executor executor_;
  std::vector<std::string> problems_;
  std::vector<int> parallelism_;
  std::vector<std::vector<PartitionerKind>> partitioning_;
  std::vector<int> head_;
  std::map<int, std::vector<int>> chain_members_;
  std::vector<std::unique_ptr<Task>> tasks_;
  std::vector<std::vector<OperatorBase*>> operators_;
  std::vector<std::vector<Task*>> tasks_of_;
  std::vector<std::unique_ptr<ChannelBase>> channels_;
  std::vector<std::vector<std::vector<std::vector<ChannelBase*>>>> channels_of_;
  std::map<std::string, std::vector<OperatorSnapshot>> restored_;  // operator id -> every old subtask's snapshot
  std::string restored_from_;
  Timestamp restore_timestamp_ = -1;
  std::map<std::pair<int, int>, std::unique_ptr<InjectedFailureCount>> injected_counts_;  // (node, subtask)
};

const char* signalName(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

}  // namespace

RestartStrategyConfiguration effectiveRestartStrategy(const ExecutionSettings& settings) {
  if (settings.restart_strategy) return *settings.restart_strategy;
  if (settings.checkpoint.isCheckpointingEnabled()) return RestartStrategies::fixedDelayRestart(INT_MAX, 1000);
  return RestartStrategies::noRestart();
}

JobExecutionResult runJob(const StreamGraph& graph, const ExecutionSettings& settings, const std::string& job_name) {
  std::optional<CompletedCheckpoint> restore;
  if (!settings.restore_path.empty()) restore = checkpointToRestore(settings);
  std::unique_ptr<CheckpointCoordinator> coordinator;
  if (settings.checkpoint.isCheckpointingEnabled()) {
    coordinator = std::make_unique<CheckpointCoordinator>(settings.checkpoint, settings.max_parallelism);
    if (restore) coordinator->restoresFrom(*restore);
  }
  RestartPolicy restarts(effectiveRestartStrategy(settings));
  std::deque<std::atomic<bool>> injection_fired(settings.injected_failures.size());
  std::vector<JobFailure> failures;
  ExecutionSettings attempt_settings = settings;
  Timestamp restore_timestamp = -1;
  std::string restored_from;
  std::chrono::nanoseconds runtime{0};
  for (int attempt = 0;; ++attempt) {
    JobPlan plan(graph, attempt_settings, Attempt{attempt, &injection_fired});
    plan.build(restore ? &*restore : nullptr);
    if (plan.restoreTimestamp() >= 0) {
      restore_timestamp = plan.restoreTimestamp();
      restored_from = plan.restoredFrom();
    }
    JobContext job;
    std::optional<CancelOnSignals> signals;
    if (settings.cancel_on_signals) signals.emplace(job);
    const auto start = std::chrono::steady_clock::now();
    plan.run(job, coordinator.get());
    runtime += std::chrono::steady_clock::now() - start;
    const int signal = signals ? signals->signal() : 0;
    signals.reset();
    const std::optional<std::string> failure = signal == 0 ? job.failure() : std::nullopt;
    const Timestamp failed_at = plan.now();
    const bool restart = failure && job.failureIsRestartable() && restarts.restartAfterFailureAt(failed_at);
    if (coordinator) {
      coordinator->jobEnded(failure ? JobEnd::FAILED : signal != 0 ? JobEnd::CANCELLED : JobEnd::FINISHED);
    }
    if (restart) {
      failures.push_back(JobFailure{failed_at, *failure});
      if (coordinator) {
        if (auto latest = coordinator->latestCompleted()) restore = std::move(latest);
      }
      logMessage(LogLevel::WARNING,
                 fmt::format("job '{}' failed at {} ms and restarts (restart {}, {}) {} ms later from {}: {}", job_name,
                             failed_at, failures.size(), restarts.strategy().describe(), restarts.delay(),
                             restore ? restoreName(*restore) : std::string("the beginning"), *failure));
      if (attempt_settings.simulated_start) {
        attempt_settings.simulated_start = failed_at + restarts.delay();
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(restarts.delay()));
      }
      continue;
    }
    CheckpointStatistics checkpoints = coordinator ? coordinator->statistics() : CheckpointStatistics{};
    checkpoints.last_checkpoint_restore_timestamp = restore_timestamp;
    checkpoints.restored_checkpoint_path = restored_from;
    checkpoints.num_restarts = failures.size();
    if (failure) {
      std::string restarted;
      if (!job.failureIsRestartable()) {
        restarted = " (not restarted: the program is invalid)";
      } else if (!failures.empty()) {
        restarted = fmt::format(" (after {} restart{}; {} allows no more)", failures.size(),
                                failures.size() == 1 ? "" : "s", restarts.strategy().describe());
      }
      throw JobExecutionException(fmt::format("job '{}' failed{}: {}", job_name, restarted, *failure));
    }
    if (signal != 0) {
      throw JobCancellationException(
          fmt::format("job '{}' was cancelled by {}: its sources stopped, and its operators and sinks were closed",
                      job_name, signalName(signal)),
          signal);
    }
    return JobExecutionResult(job_name, runtime, plan.metrics(), checkpoints, std::move(failures));
  }
}

}  // namespace tidemark::internal
