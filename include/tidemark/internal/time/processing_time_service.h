// What time it is on the processing-time axis, and callbacks when it gets later.
//
// Every task owns one ProcessingTimeService. Two implementations exist and
// operator code cannot tell them apart: the wall clock (real threads), and the
// virtual clock of the deterministic scheduler (simulated time), where time
// only moves when every task is idle. Tests drive a ManualProcessingTimeService
// by hand.
//
// Contract:
// - currentProcessingTime() never goes backwards.
// - A callback registered for time t runs on the owning task's thread, between
//   two input elements (never inside another callback's caller), once
//   currentProcessingTime() >= t. Callbacks due at the same time run in
//   registration order.
// - Callbacks still pending when the task finishes are dropped.
#pragma once

#include <functional>

#include "tidemark/core/time.h"

namespace tidemark::internal {

class ProcessingTimeService {
 public:
  using Callback = std::function<void(Timestamp)>;

  virtual ~ProcessingTimeService() = default;

  /// Return the current processing time in milliseconds.
  virtual Timestamp currentProcessingTime() const = 0;

  /// Run `callback(t)` on the task thread once processing time reaches `t`.
  virtual void registerTimer(Timestamp t, Callback callback) = 0;
};

}  // namespace tidemark::internal
