// CheckpointCoordinator: decides when a checkpoint starts, collects every
// task's acknowledgement, stores the checkpoint and tells the tasks it is
// complete; aborts the ones that time out, are declined or cannot finish.
//
// Triggering runs on the job's clock, so simulated runs checkpoint at exact
// instants: every source task has a processing-time timer for trigger round
// r at start + (r + 1) * interval, and asks checkpointForRound(r). The first
// source to ask decides for all (a new checkpoint id, or none: one is still
// running, the minimum pause has not passed, or a task has finished), so
// every source emits the same barriers.
//
// Acknowledgements carry the serialized snapshots of the task's operators;
// with a storage directory each goes into the checkpoint's files at once,
// and the last one writes `_metadata` and retires the oldest checkpoints.
// Without one the latest completed checkpoint stays in memory.
//
// Failures: a checkpoint declined by a task (its snapshot threw, the
// storage refused a file) or expired (older than the timeout at a later
// trigger) is discarded and counted; more consecutive ones than the
// tolerable number fail the job, naming the last reason. One aborted
// because a task finished first is discarded and counted, never toward
// failing the job.
//
// Restarts: one coordinator serves every attempt of a job, so checkpoint ids
// keep rising, the statistics add up and retention sees every checkpoint;
// beginAttempt() hands it the next attempt's job context and tasks.
//
// Thread-safety: every member may be called from any task thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tidemark/core/checkpoint_config.h"
#include "tidemark/core/job_execution_result.h"
#include "tidemark/internal/checkpoint/file_checkpoint_storage.h"
#include "tidemark/internal/runtime/job_context.h"

namespace tidemark::internal {

class Task;

/// One operator subtask's snapshot, serialized, and the parallelism it ran at.
struct SubtaskState {
  std::string operator_id;
  int subtask = 0;
  int parallelism = 1;
  std::string bytes;
};

/// How a job ended, for what happens to its checkpoints.
enum class JobEnd { FINISHED, CANCELLED, FAILED };

class CheckpointCoordinator {
 public:
  /// For a job with `max_parallelism` key groups, which every checkpoint records.
  CheckpointCoordinator(const CheckpointConfig& config, int max_parallelism);
  ~CheckpointCoordinator();

  /// Before an attempt of the job runs (the first, or one after a restart):
  /// the attempt's job context; its tasks register next. Trigger rounds
  /// start again from 0.
  void beginAttempt(JobContext& job);

  /// Before the job runs: every task that must acknowledge a checkpoint.
  /// Returns the index the task acknowledges with.
  int registerTask(Task& task);

  Duration interval() const { return config_.getCheckpointInterval(); }
  CheckpointingMode mode() const { return config_.getCheckpointingMode(); }

  /// The checkpoint that trigger round `round` starts, if any (see above).
  std::optional<std::int64_t> checkpointForRound(std::int64_t round, Timestamp now);

  /// When checkpoint `checkpoint_id` was triggered; `otherwise` when it is
  /// no longer running (aborted: its snapshots are not kept).
  Timestamp triggerTimeOf(std::int64_t checkpoint_id, Timestamp otherwise) const;

  void acknowledge(int task, std::int64_t checkpoint_id, std::vector<SubtaskState> states, Timestamp now);
  void decline(int task, std::int64_t checkpoint_id, const std::string& reason);
  /// `task` finished: no checkpoint starts any more, and a running one it
  /// has not acknowledged is aborted.
  void taskFinished(int task);

  /// The job starts from `restored`. One in this job's own storage directory
  /// means the job goes on with the checkpoints there: they become its own.
  void restoresFrom(const CompletedCheckpoint& restored);

  /// The job ended: a running checkpoint is discarded; the job's own
  /// checkpoints are deleted when it finished (or was cancelled, if so
  /// configured): the ones it completed, and, when it went on with a storage
  /// directory's checkpoints, every one there (the one it restored, and any
  /// an earlier run left unfinished). A checkpoint restored from elsewhere is
  /// not the job's to delete.
  void jobEnded(JobEnd end);

  CheckpointStatistics statistics() const;
  /// The latest completed checkpoint (without a storage directory, the only place it is).
  std::optional<CompletedCheckpoint> latestCompleted() const;

 private:
  struct Pending;

  void abortPending(const std::string& reason, bool counts_toward_failure);
  void complete(Timestamp now);

  const CheckpointConfig config_;
  const int max_parallelism_;
  JobContext* job_ = nullptr;
  std::optional<FileCheckpointStorage> storage_;
  std::vector<Task*> tasks_;

  mutable std::mutex mutex_;
  std::map<std::int64_t, std::optional<std::int64_t>> rounds_;  // round -> the checkpoint it started
  std::unique_ptr<Pending> pending_;
  std::int64_t next_id_ = 1;
  Timestamp last_completion_ = kMinWatermark;
  bool task_finished_ = false;
  int consecutive_failures_ = 0;
  std::vector<std::int64_t> completed_ids_;
  bool owns_storage_checkpoints_ = false;  // restored from a checkpoint in storage_
  std::optional<CompletedCheckpoint> latest_in_memory_;
  CheckpointStatistics statistics_;
};

}  // namespace tidemark::internal
