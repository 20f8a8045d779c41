// SIGINT and SIGTERM cancel the running jobs instead of killing the process.
//
// Dying on the default action loses what a job still holds (a sink's buffer,
// the lines a pipe has not taken yet) and says nothing. While at least one
// CancelOnSignals is alive, the process's handler for each of the two
// signals, where it was still the default, only writes the signal's number to
// a pipe; a watcher thread reads it and cancels every registered job, the
// one thing a signal handler cannot do itself (cancelling takes locks). The
// watcher then restores the default action, so a second signal kills a job
// that does not stop. When the last job ends, the handlers are put back.
#pragma once

#include <atomic>

#include "tidemark/internal/runtime/job_context.h"

namespace tidemark::internal {

class CancelOnSignals {
 public:
  /// Cancel `job` on SIGINT or SIGTERM until this object is destroyed.
  explicit CancelOnSignals(JobContext& job);
  ~CancelOnSignals();
  CancelOnSignals(const CancelOnSignals&) = delete;
  CancelOnSignals& operator=(const CancelOnSignals&) = delete;

  /// The signal that cancelled the job, or 0.
  int signal() const { return signal_.load(std::memory_order_acquire); }

  /// Called by the watcher thread.
  void cancelBy(int signal_number);

 private:
  JobContext& job_;
  std::atomic<int> signal_{0};
};

}  // namespace tidemark::internal
