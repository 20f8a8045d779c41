// CheckpointListener: a function told when a checkpoint it took part in is
// complete (Flink's CheckpointListener), the place where a sink makes what it
// wrote before that checkpoint visible.
//
// Contract:
// - notifyCheckpointComplete(id) runs on the task thread, between two
//   records, after every task of the job acknowledged checkpoint `id` and
//   the checkpoint was stored. It may come late or be skipped for an id when
//   a later checkpoint completes first: treat it as "everything up to `id`
//   is durable".
// - notifyCheckpointAborted(id) is a hint; nothing relies on it being called.
#pragma once

#include <cstdint>

namespace tidemark {

class CheckpointListener {
 public:
  virtual ~CheckpointListener() = default;
  virtual void notifyCheckpointComplete(std::int64_t checkpoint_id) = 0;
  virtual void notifyCheckpointAborted(std::int64_t checkpoint_id) { (void)checkpoint_id; }
};

}  // namespace tidemark
