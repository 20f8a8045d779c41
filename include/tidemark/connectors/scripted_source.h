// ScriptedSource: a source that emits given elements at given instants.
//
// Made for tests and simulated runs: each step says when (milliseconds after
// the source starts), what, and optionally which event timestamp. Steps at
// the same instant are emitted together, atomically (no timer or periodic
// watermark runs between them). As a parallel source, subtask i of P plays
// every script j with j % P == i, merged by due instant (ties in script
// order), so no script is left out at any parallelism. In real time the same
// scripts play against the wall clock.
//
// It keeps its position in checkpoints: per script, the next step, the
// instant the script started and the checkpoint's instant. A script plays on
// the time its source runs: a restored source moves each script's start by
// the time between the checkpoint and the restore, so the steps still ahead
// keep their distance from the checkpoint, and the restored run sees the
// gaps between them (and so the watermarks and timers in the gaps) that the
// failed run would have seen. The positions are union state, so a restored subtask i plays every script
// j with j % parallelism == i that the checkpoint holds, merged by due
// instant (ties in script order): rescaled 2 -> 1, one subtask plays both.
// A restored position the scripts do not have fails the job.
//
// Example (two lines, one second apart, then the input ends):
//   tidemark::ScriptedSource<std::string> source({{{1000, "Alice,./home,1000"}, {2000, "Bob,./cart,2000"}}});
//   env.addSource(source, "lines");
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tidemark/functions/checkpointed_function.h"
#include "tidemark/functions/source_function.h"

namespace tidemark {

/// Marks a source function whose subtasks may run in parallel.
template <class T>
class ParallelSourceFunction : public SourceFunction<T> {};

template <class T>
class ScriptedSource final : public ParallelSourceFunction<T>, public CheckpointedFunction {
 public:
  struct Step {
    Duration at = 0;  // ms after the source starts
    T value;
    std::optional<Timestamp> timestamp;  // set: collectWithTimestamp
  };
  using Script = std::vector<Step>;

  /// Scripts dealt out to the parallel subtasks: subtask i of P plays every script j with j % P == i
  /// (so one per subtask when there are P); subtasks beyond the last script emit nothing.
  explicit ScriptedSource(std::vector<Script> scripts) : scripts_(std::move(scripts)) {}
  /// A script for a single subtask.
  static ScriptedSource single(Script script) { return ScriptedSource(std::vector<Script>{std::move(script)}); }

  /// End the input at this instant (ms after start) instead of right after the last step.
  ScriptedSource& endAt(Duration at) {
    end_at_ = at;
    return *this;
  }

  void initializeState(FunctionInitializationContext& context) override {
    positions_ = &context.getOperatorStateStore().getUnionListState(ListStateDescriptor<Position>("script-positions"));
    restored_ = context.isRestored();
    restored_positions_ = positions_->get();
  }

  void snapshotState(const FunctionSnapshotContext& context) override {
    std::vector<Position> positions;
    positions.reserve(cursors_.size());
    for (const Cursor& cursor : cursors_) {
      positions.push_back(Position{static_cast<std::int32_t>(cursor.script), static_cast<std::int64_t>(cursor.next),
                                   cursor.start, context.getCheckpointTimestamp()});
    }
    positions_->update(std::move(positions));
  }

  void run(SourceContext<T>& ctx) override {
    chooseScripts(ctx);
    while (Cursor* cursor = nextDue()) {
      if (ctx.isCancelled()) return;
      const Step& step = scripts_[cursor->script][cursor->next];
      sleepUntil(ctx, cursor->start + step.at);
      std::lock_guard lock(ctx.getCheckpointLock());
      if (step.timestamp) {
        ctx.collectWithTimestamp(step.value, *step.timestamp);
      } else {
        ctx.collect(step.value);
      }
      ++cursor->next;
    }
    if (end_at_) sleepUntil(ctx, latestStart(ctx) + *end_at_);
  }

 private:
  /// What a checkpoint holds per script.
  struct Position {
    std::int32_t script = 0;
    std::int64_t next_step = 0;
    Timestamp start = 0;
    Timestamp checkpoint_at = 0;  // when the checkpoint holding this position was triggered
    auto fields() { return std::tie(script, next_step, start, checkpoint_at); }
  };
  struct Cursor {
    std::size_t script;
    std::size_t next;
    Timestamp start;
  };

  void chooseScripts(SourceContext<T>& ctx) {
    cursors_.clear();
    const auto subtask = static_cast<std::size_t>(ctx.getIndexOfThisSubtask());
    const auto parallelism = static_cast<std::size_t>(ctx.getNumberOfParallelSubtasks());
    const Timestamp now = ctx.currentProcessingTime();
    if (!restored_) {
      for (std::size_t script = subtask; script < scripts_.size(); script += parallelism) {
        cursors_.push_back(Cursor{script, 0, now});
      }
      return;
    }
    for (const Position& position : restored_positions_) {
      Cursor cursor = checked(position);
      cursor.start += now - position.checkpoint_at;  // the time the job was down does not count
      if (cursor.script % parallelism == subtask) cursors_.push_back(cursor);
    }
    std::sort(cursors_.begin(), cursors_.end(), [](const Cursor& a, const Cursor& b) { return a.script < b.script; });
  }

  Cursor checked(const Position& position) const {
    if (position.script < 0 || static_cast<std::size_t>(position.script) >= scripts_.size()) {
      throw std::runtime_error("ScriptedSource: the restored position names script " + std::to_string(position.script) +
                               ", but the source has " + std::to_string(scripts_.size()) + " scripts");
    }
    const auto script = static_cast<std::size_t>(position.script);
    if (position.next_step < 0 || static_cast<std::size_t>(position.next_step) > scripts_[script].size()) {
      throw std::runtime_error("ScriptedSource: the restored position " + std::to_string(position.next_step) +
                               " of script " + std::to_string(script) + " is beyond its " +
                               std::to_string(scripts_[script].size()) + " steps");
    }
    return Cursor{script, static_cast<std::size_t>(position.next_step), position.start};
  }

  /// The script whose next step is due first (the lowest script on a tie); null when all ended.
  Cursor* nextDue() {
    Cursor* due = nullptr;
    for (Cursor& cursor : cursors_) {
      if (cursor.next == scripts_[cursor.script].size()) continue;
      if (due == nullptr || dueAt(cursor) < dueAt(*due)) due = &cursor;
    }
    return due;
  }
  Timestamp dueAt(const Cursor& cursor) const { return cursor.start + scripts_[cursor.script][cursor.next].at; }

  Timestamp latestStart(SourceContext<T>& ctx) const {
    if (cursors_.empty()) return ctx.currentProcessingTime();
    Timestamp latest = cursors_.front().start;
    for (const Cursor& cursor : cursors_) latest = std::max(latest, cursor.start);
    return latest;
  }

  static void sleepUntil(SourceContext<T>& ctx, Timestamp instant) {
    const Timestamp now = ctx.currentProcessingTime();
    if (instant > now) ctx.sleep(instant - now);
  }

  std::vector<Script> scripts_;
  std::optional<Duration> end_at_;
  ListState<Position>* positions_ = nullptr;
  bool restored_ = false;
  std::vector<Position> restored_positions_;
  std::vector<Cursor> cursors_;
};

}  // namespace tidemark
