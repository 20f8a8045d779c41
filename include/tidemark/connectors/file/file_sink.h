// FileSink: writes a stream into part files under a directory, exactly once
// across failures (Flink's FileSink in row format).
//
//   stream.sinkTo(tidemark::FileSink<std::string>::forRowFormat("/out", tidemark::SimpleStringEncoder<std::string>())
//                     .withRollingPolicy(tidemark::OnCheckpointRollingPolicy::build())
//                     .build());
//
// Contract:
// - Each subtask writes its own parts, <prefix>-<subtask>-<counter><suffix>
//   (OutputFileConfig), in the bucket directory its BucketAssigner names.
//   A part is hidden (.<name>.inprogress) while written, closed as the
//   RollingPolicy says, and takes its final name, atomically, when the first
//   checkpoint after it completes. Readers of the directory see only whole,
//   committed parts.
// - On a restore, the parts of the restored checkpoint are committed (a part
//   being written is cut back to what the checkpoint covers), and every part
//   written after the checkpoint is removed, even one committed for a later
//   checkpoint that the restore went back past. With EXACTLY_ONCE
//   checkpoints the committed parts then hold every record once, as a run
//   without failures would.
// - Without checkpoints, the parts are committed when the input ends.
// - The directory belongs to the sink: a fresh start numbers its parts above
//   every part there, and a restore removes the parts of its own subtasks
//   numbered after the checkpoint.
// - Errors name the sink and the file: a part that cannot be created,
//   written or committed fails the job.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tidemark/connectors/file/bucket_assigner.h"
#include "tidemark/connectors/file/encoder.h"
#include "tidemark/connectors/file/file_sink_state.h"
#include "tidemark/connectors/file/file_sink_writer.h"
#include "tidemark/connectors/file/output_file_config.h"
#include "tidemark/connectors/file/rolling_policy.h"
#include "tidemark/functions/two_phase_commit_sink_function.h"

namespace tidemark {

namespace internal {

/// What the subtasks of one run of a FileSink share across the job's
/// restarts: where each subtask's parts of the run start, so a restart
/// without a checkpoint takes back what an earlier attempt wrote.
class FileSinkRun {
 public:
  void setFirstCounter(int subtask, std::int64_t counter) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (first_counters_.size() <= static_cast<std::size_t>(subtask)) first_counters_.resize(subtask + 1, -1);
    first_counters_[subtask] = counter;
  }
  /// -1 when the subtask has not started in this run.
  std::int64_t firstCounter(int subtask) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<std::size_t>(subtask) < first_counters_.size() ? first_counters_[subtask] : -1;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::int64_t> first_counters_;
};

}  // namespace internal

template <class IN>
class FileSink final : public TwoPhaseCommitSinkFunction<IN, FileSinkTransaction, FileSinkContext> {
  using Base = TwoPhaseCommitSinkFunction<IN, FileSinkTransaction, FileSinkContext>;

 public:
  using Context = typename Base::Context;
  using AssignerFactory = std::function<std::unique_ptr<BucketAssigner<IN>>()>;

  class RowFormatBuilder {
   public:
    template <class E>
      requires std::is_base_of_v<Encoder<IN>, E>
    RowFormatBuilder(std::string base_path, E encoder)
        : encoder_(std::make_shared<const E>(std::move(encoder))),
          assigner_([] { return std::make_unique<BasePathBucketAssigner<IN>>(); }) {
      settings_.base_path = std::move(base_path);
      settings_.rolling = DefaultRollingPolicy::builder().build();
    }
    RowFormatBuilder& withRollingPolicy(std::shared_ptr<const RollingPolicy> policy) {
      settings_.rolling = std::move(policy);
      return *this;
    }
    template <class A>
      requires std::is_base_of_v<BucketAssigner<IN>, A>
    RowFormatBuilder& withBucketAssigner(A assigner) {
      assigner_ = [assigner] { return std::make_unique<A>(assigner); };
      return *this;
    }
    RowFormatBuilder& withOutputFileConfig(OutputFileConfig names) {
      settings_.names = std::move(names);
      return *this;
    }
    /// How often time-based rolling is checked (Flink's default: 60 s).
    RowFormatBuilder& withBucketCheckInterval(Duration interval) {
      settings_.bucket_check_interval = interval;
      return *this;
    }
    /// Throws std::invalid_argument for an empty base path, no rolling
    /// policy or a bucket check interval that is not positive.
    FileSink build() const {
      if (settings_.base_path.empty()) throw std::invalid_argument("FileSink: the base path is empty");
      if (!settings_.rolling) throw std::invalid_argument("FileSink: no rolling policy");
      if (settings_.bucket_check_interval <= 0) {
        throw std::invalid_argument("FileSink: the bucket check interval must be positive, not " +
                                    std::to_string(settings_.bucket_check_interval) + " ms");
      }
      return FileSink(settings_, encoder_, assigner_);
    }

   private:
    internal::FileSinkSettings settings_;
    std::shared_ptr<const Encoder<IN>> encoder_;
    AssignerFactory assigner_;
  };

  template <class E>
  static RowFormatBuilder forRowFormat(std::string base_path, E encoder) {
    return RowFormatBuilder(std::move(base_path), std::move(encoder));
  }

  const std::string& basePath() const { return settings_.base_path; }

  void initializeState(FunctionInitializationContext& init) override {
    const RuntimeContext& runtime = this->getRuntimeContext();
    writer_ = std::make_shared<internal::FileSinkWriter>(
        settings_, runtime.getIndexOfThisSubtask(), runtime.getNumberOfParallelSubtasks(),
        "FileSink '" + runtime.getTaskName() + "' (subtask " + std::to_string(runtime.getIndexOfThisSubtask() + 1) +
            "/" + std::to_string(runtime.getNumberOfParallelSubtasks()) + ") at " + settings_.base_path);
    assigner_ = assigner_factory_();
    Base::initializeState(init);
  }

  void finish() override {
    writer_->closeAll(this->openTransaction());
    Base::finish();
  }

  Duration processingTimeCheckInterval() const override { return settings_.bucket_check_interval; }
  void onProcessingTime(Timestamp now) override { writer_->rollByTime(now, this->openTransaction()); }

 protected:
  FileSinkTransaction beginTransaction() override { return {}; }
  void invoke(FileSinkTransaction& transaction, const IN& value, const Context& context) override {
    bucket_context_.current_processing_time = context.current_processing_time;
    bucket_context_.current_watermark = context.current_watermark;
    bucket_context_.timestamp = context.timestamp;
    const std::string bucket = assigner_->getBucketId(value, bucket_context_);
    buffer_.clear();
    encoder_->encode(value, buffer_);
    writer_->write(bucket, buffer_, context.current_processing_time, transaction);
  }
  void preCommit(FileSinkTransaction& transaction) override { writer_->preCommit(transaction, this->userContext()); }
  void commit(FileSinkTransaction& transaction) override { writer_->commit(transaction); }
  void abort(FileSinkTransaction& transaction) override { writer_->abort(transaction); }

  FileSinkContext initializeUserContext(FunctionInitializationContext& init) override {
    const int subtask = this->getRuntimeContext().getIndexOfThisSubtask();
    if (init.getAttemptNumber() == 0 || run_->firstCounter(subtask) < 0) {
      const std::int64_t first = writer_->firstFreeCounter();
      run_->setFirstCounter(subtask, first);
      return writer_->startAfresh(first, false);
    }
    return writer_->startAfresh(run_->firstCounter(subtask), true);
  }
  FileSinkContext recoverContext(std::vector<typename Base::RestoredContext> restored) override {
    std::vector<FileSinkContext> contexts;
    contexts.reserve(restored.size());
    for (auto& each : restored) contexts.push_back(std::move(each.context));
    return writer_->recover(contexts);
  }

 private:
  FileSink(internal::FileSinkSettings settings, std::shared_ptr<const Encoder<IN>> encoder, AssignerFactory assigner)
      : settings_(std::move(settings)),
        encoder_(std::move(encoder)),
        assigner_factory_(std::move(assigner)),
        run_(std::make_shared<internal::FileSinkRun>()) {}

  internal::FileSinkSettings settings_;
  std::shared_ptr<const Encoder<IN>> encoder_;
  AssignerFactory assigner_factory_;
  std::shared_ptr<internal::FileSinkRun> run_;  // shared by every copy
  // Per subtask, made in initializeState() (the copies of the built sink share none).
  std::shared_ptr<internal::FileSinkWriter> writer_;
  std::shared_ptr<BucketAssigner<IN>> assigner_;
  BucketAssignerContext bucket_context_;
  std::string buffer_;
};

}  // namespace tidemark
