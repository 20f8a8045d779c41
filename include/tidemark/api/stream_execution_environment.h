// StreamExecutionEnvironment: where a job is defined, configured and run.
//
// Sources are created here; transformations on the returned streams build the
// job graph; execute() plans the graph into parallel tasks, runs it and
// returns when every task has finished (a bounded job) or throws
// JobExecutionException when the job fails (a user function threw, a socket
// refused, ...). The message names the operator, the subtask and the element.
//
// Time: by default tasks run on real threads against the wall clock. With
// enableSimulatedTime(start) the same job runs in simulated time: a virtual
// processing-time clock starting at `start` and a deterministic scheduler
// (see runtime/simulated_executor.h for the exact rules), so outputs that
// depend on timing are exact and identical run after run.
//
// Example:
//   auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
//   env.setParallelism(2).enableSimulatedTime();
//   env.fromElements<int>({1, 2, 3}).map([](int x) { return x * 2; }).print();
//   env.execute("double");
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tidemark/api/data_stream.h"
#include "tidemark/core/failure_injection.h"
#include "tidemark/core/job_execution_result.h"
#include "tidemark/core/restart_strategy.h"
#include "tidemark/connectors/collection_source.h"
#include "tidemark/connectors/scripted_source.h"
#include "tidemark/internal/operators/source_operator.h"

namespace tidemark {

class ExecutionConfig {
 public:
  /// Periodic watermark emission interval in ms (default 200); 0 disables it.
  ExecutionConfig& setAutoWatermarkInterval(Duration millis);
  Duration getAutoWatermarkInterval() const { return auto_watermark_interval_; }

 private:
  Duration auto_watermark_interval_ = 200;
};

class StreamExecutionEnvironment {
 public:
  /// An environment for this process: parallelism defaults to the number of cores.
  static StreamExecutionEnvironment getExecutionEnvironment();
  static StreamExecutionEnvironment createLocalEnvironment(int parallelism);

  StreamExecutionEnvironment& setParallelism(int parallelism);
  int getParallelism() const { return settings_.parallelism; }
  /// The number of key groups (default 128): the upper bound of parallelism for keyed state.
  StreamExecutionEnvironment& setMaxParallelism(int max_parallelism);
  int getMaxParallelism() const { return settings_.max_parallelism; }
  /// Flush partly filled batches after at most this many ms (default 100);
  /// 0 sends every record at once; -1 sends only full batches.
  StreamExecutionEnvironment& setBufferTimeout(Duration millis);
  Duration getBufferTimeout() const { return settings_.buffer_timeout; }
  /// Whether SIGINT and SIGTERM cancel a running job (default: yes) instead
  /// of killing the process: the sources stop, every operator and sink
  /// closes, and execute() throws JobCancellationException. Only a signal
  /// whose action is still the default one is taken over, and only while a
  /// job runs; a second signal kills the process as before.
  StreamExecutionEnvironment& setCancelOnSignals(bool cancel);
  bool isCancelOnSignals() const { return settings_.cancel_on_signals; }
  /// Run in simulated time, the virtual clock starting at `start_instant` ms.
  StreamExecutionEnvironment& enableSimulatedTime(Timestamp start_instant = 0);
  bool isSimulatedTime() const { return settings_.simulated_start.has_value(); }

  /// Take a checkpoint every `interval` ms of processing time (the
  /// simulated clock in simulated time). See docs/fault-tolerance.md.
  StreamExecutionEnvironment& enableCheckpointing(Duration interval,
                                                  CheckpointingMode mode = CheckpointingMode::EXACTLY_ONCE);
  CheckpointConfig& getCheckpointConfig() { return settings_.checkpoint; }
  const CheckpointConfig& getCheckpointConfig() const { return settings_.checkpoint; }

  /// Start from a checkpoint or savepoint: its directory (`chk-<id>`), or a
  /// checkpoint storage directory, meaning its latest completed checkpoint.
  /// Operators are matched by uid (or their generated id: the same program
  /// gets the same ids).
  StreamExecutionEnvironment& setRestorePath(std::string path);
  const std::string& getRestorePath() const { return settings_.restore_path; }
  /// Whether state of an operator that this job lacks is skipped (true) or
  /// fails the restore (false, the default).
  StreamExecutionEnvironment& setAllowNonRestoredState(bool allow);

  /// What the job does when a task fails (tidemark/core/restart_strategy.h).
  /// Without one: restart without limit when checkpointing, else fail.
  StreamExecutionEnvironment& setRestartStrategy(RestartStrategyConfiguration strategy);
  /// The strategy set, or the default that applies to this environment now.
  RestartStrategyConfiguration getRestartStrategy() const;

  /// Fail the job on purpose, once, to test its recovery
  /// (tidemark/core/failure_injection.h). May be called several times.
  StreamExecutionEnvironment& injectFailure(FailureInjection failure);

  ExecutionConfig& getConfig() { return config_; }
  const ExecutionConfig& getConfig() const { return config_; }

  /// A bounded, non-parallel source of the given values.
  template <class T>
  DataStreamSource<T> fromElements(std::initializer_list<T> values) {
    return fromCollection(std::vector<T>(values));
  }
  template <class T>
  DataStreamSource<T> fromCollection(std::vector<T> values) {
    return addSource(FromCollectionSource<T>(std::move(values)), "Collection Source");
  }

  /// A user source. Non-parallel unless it derives from ParallelSourceFunction.
  template <class S>
    requires std::is_base_of_v<SourceFunction<typename S::OutputType>, S>
  DataStreamSource<typename S::OutputType> addSource(S source, std::string name = "Custom Source") {
    using T = typename S::OutputType;
    auto node = std::make_unique<internal::SourceNode<T>>([source]() {
      return std::unique_ptr<internal::OperatorBase>(
          std::make_unique<internal::SourceOperator<T>>(std::make_unique<S>(source)));
    });
    node->non_parallel = !std::is_base_of_v<ParallelSourceFunction<T>, S>;
    const int id = graph_->add(std::move(node), std::move(name)).id;
    return DataStreamSource<T>(graph_, id);
  }

  /// Lines from a TCP server (non-parallel). The job fails if the connection is
  /// refused or breaks; the input ends when the server closes the connection.
  /// With `max_retry` (-1: forever) it reconnects that often first, as in
  /// Flink; SocketTextSource has the retry delay and an idle read timeout.
  DataStreamSource<std::string> socketTextStream(const std::string& host, int port, char delimiter = '\n',
                                                 long max_retry = 0);

  /// The lines of a text file (non-parallel, bounded). A missing file fails the job.
  DataStreamSource<std::string> readTextFile(const std::string& path);

  /// Plan and run the job. Returns when it finished; throws
  /// JobExecutionException if it failed and InvalidProgramException if the
  /// graph is invalid (listing every problem).
  JobExecutionResult execute(const std::string& job_name = "tidemark job");

 private:
  StreamExecutionEnvironment();

  std::shared_ptr<internal::StreamGraph> graph_;
  internal::ExecutionSettings settings_;
  ExecutionConfig config_;
};

}  // namespace tidemark
