// SourceFunctionTestHarness: run a SourceFunction by hand, without a job, on a
// manual processing-time clock, and snapshot it at a chosen record.
//
// Contract:
// - The harness runs the function the way a source task does (the same
//   operator and context), but gets control back after every record instead
//   of every 64: run() reaches a snapshot point at each record and each
//   sleep, so a test sees every place a real checkpoint could fall.
// - sleep(ms) moves the manual clock by ms at once and returns; the clock
//   starts at options.initial_processing_time. waitReadable() is not
//   supported (std::logic_error): a source that waits on a descriptor cannot
//   be replayed anyway.
// - run(): runs the source to its end, then the MAX watermark it ends with,
//   then finish().
// - runUntilSnapshot(records, id): runs until at least `records` records went
//   out, takes snapshot `id` at the next snapshot point where the source does
//   not hold its checkpoint lock (at the lock's release if it does), and
//   stops the source at the point after, as a failure right after that
//   checkpoint would (a source that ends first just ends). It returns the
//   snapshot; a source that ends before it is taken is a std::logic_error.
//   What went out after the snapshot stays in getOutput(), as a failed job
//   emits it too; eventsBeforeSnapshot() says how many events came before.
// - initializeState(states) before open() restores a fresh harness, at its
//   own subtask and parallelism, from the states of the old subtasks.
// - Failures arrive as internal::OperatorFailure naming the operator, as in a job.
//
// Example (a restored source goes on where the first one stopped):
//   tidemark::SourceFunctionTestHarness<int> first(tidemark::FromCollectionSource<int>({1, 2, 3, 4}));
//   first.open();
//   tidemark::OperatorSubtaskState state = first.runUntilSnapshot(2, 1);   // emitted 1, 2
//   tidemark::SourceFunctionTestHarness<int> second(tidemark::FromCollectionSource<int>({1, 2, 3, 4}));
//   second.initializeState(state);
//   second.open();
//   second.run();                                                          // emits 3, 4
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "tidemark/functions/source_function.h"
#include "tidemark/internal/core/operator_failure.h"
#include "tidemark/internal/operators/source_operator.h"
#include "tidemark/testing/one_input_harness.h"

namespace tidemark {

template <class T>
class SourceFunctionTestHarness final : public internal::OperatorTestHarnessBase<T> {
  using Base = internal::OperatorTestHarnessBase<T>;

 public:
  template <class F>
    requires std::derived_from<F, SourceFunction<T>>
  explicit SourceFunctionTestHarness(F function, OperatorTestHarnessOptions options = {})
      : Base(std::make_unique<internal::SourceOperator<T>>(std::make_unique<F>(std::move(function))),
             internal::withDefaultName(std::move(options), "Source")) {}

  /// Run the source to its end (see the contract).
  void run() {
    Hooks hooks(*this, std::nullopt, 0);
    runWith(hooks, "run()");
    this->endInput();
  }

  /// Run until `records` records went out and snapshot there (see the contract).
  OperatorSubtaskState runUntilSnapshot(std::size_t records, std::int64_t checkpoint_id) {
    Hooks hooks(*this, records, checkpoint_id);
    runWith(hooks, "runUntilSnapshot()");
    if (hooks.failure) std::rethrow_exception(hooks.failure);
    if (!hooks.snapshot) {
      throw std::logic_error(fmt::format("runUntilSnapshot({}): the source ended after {} records, before the snapshot",
                                         records, hooks.records));
    }
    events_before_snapshot_ = hooks.events_before_snapshot;
    return *std::move(hooks.snapshot);
  }

  /// How many main-output events (records and watermarks) the last
  /// runUntilSnapshot() emitted before its snapshot.
  std::size_t eventsBeforeSnapshot() const { return events_before_snapshot_; }

 private:
  class Hooks final : public internal::SourceHooks, private CheckpointLock::Waiter {
   public:
    Hooks(SourceFunctionTestHarness& harness, std::optional<std::size_t> target, std::int64_t checkpoint_id)
        : harness_(harness), target_(target), checkpoint_id_(checkpoint_id) {}

    void tick() override {
      ++records;
      atSnapshotPoint();
    }
    std::uint32_t tickRecords() const override { return 1; }
    void sleep(Duration millis) override {
      atSnapshotPoint();
      harness_.setProcessingTime(harness_.getProcessingTime() + std::max<Duration>(millis, 0));
    }
    bool waitReadable(int, Duration) override {
      throw std::logic_error("SourceFunctionTestHarness does not run sources that wait on a file descriptor");
    }
    Timestamp currentProcessingTime() const override { return harness_.getProcessingTime(); }
    bool isCancelled() const override { return false; }

    std::size_t records = 0;
    std::size_t events_before_snapshot = 0;
    std::optional<OperatorSubtaskState> snapshot;
    std::exception_ptr failure;

   private:
    void atSnapshotPoint() {
      // The snapshot was taken: stop, as a failure right after it would.
      if (snapshot || failure) throw internal::TaskCancelled();
      if (!target_ || records < *target_) return;
      if (checkpointLock().held()) {
        checkpointLock().notifyWhenReleased(this);
      } else {
        take();
      }
    }
    void onReleased() noexcept override { take(); }
    void take() noexcept {
      try {
        events_before_snapshot = harness_.getOutput().events().size();
        snapshot = harness_.snapshot(checkpoint_id_);
      } catch (...) {
        failure = std::current_exception();
      }
    }

    SourceFunctionTestHarness& harness_;
    std::optional<std::size_t> target_;
    std::int64_t checkpoint_id_;
  };

  void runWith(Hooks& hooks, std::string_view method) {
    auto& source = static_cast<internal::SourceOperatorBase&>(this->operatorBase());
    try {
      this->driveGuarded(method, [&] { source.runSource(hooks); }, [] { return std::string("its input"); });
    } catch (const internal::TaskCancelled&) {
      // Stopped after the snapshot.
    }
  }

  std::size_t events_before_snapshot_ = 0;
};

}  // namespace tidemark
