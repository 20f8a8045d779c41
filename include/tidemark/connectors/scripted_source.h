// ScriptedSource: a source that emits given elements at given instants.
//
// Made for tests and simulated runs: each step says when (milliseconds after
// the source starts), what, and optionally which event timestamp. Steps at
// the same instant are emitted together, atomically (no timer or periodic
// watermark runs between them). As a parallel source, subtask i plays script
// i. In real time the same script plays against the wall clock.
//
// Example (two lines, one second apart, then the input ends):
//   tidemark::ScriptedSource<std::string> source({{{1000, "Alice,./home,1000"}, {2000, "Bob,./cart,2000"}}});
//   env.addSource(source, "lines");
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "tidemark/functions/source_function.h"

namespace tidemark {

/// Marks a source function whose subtasks may run in parallel.
template <class T>
class ParallelSourceFunction : public SourceFunction<T> {};

template <class T>
class ScriptedSource final : public ParallelSourceFunction<T> {
 public:
  struct Step {
    Duration at = 0;  // ms after the source starts
    T value;
    std::optional<Timestamp> timestamp;  // set: collectWithTimestamp
  };
  using Script = std::vector<Step>;

  /// One script per parallel subtask; subtasks beyond the last script emit nothing.
  explicit ScriptedSource(std::vector<Script> scripts) : scripts_(std::move(scripts)) {}
  /// A script for a single subtask.
  static ScriptedSource single(Script script) { return ScriptedSource(std::vector<Script>{std::move(script)}); }

  /// End the input at this instant (ms after start) instead of right after the last step.
  ScriptedSource& endAt(Duration at) {
    end_at_ = at;
    return *this;
  }

  void run(SourceContext<T>& ctx) override {
    const Timestamp start = ctx.currentProcessingTime();
    const auto subtask = static_cast<std::size_t>(ctx.getIndexOfThisSubtask());
    if (subtask < scripts_.size()) {
      for (const Step& step : scripts_[subtask]) {
        if (ctx.isCancelled()) return;
        sleepUntil(ctx, start + step.at);
        if (step.timestamp) {
          ctx.collectWithTimestamp(step.value, *step.timestamp);
        } else {
          ctx.collect(step.value);
        }
      }
    }
    if (end_at_) sleepUntil(ctx, start + *end_at_);
  }

 private:
  static void sleepUntil(SourceContext<T>& ctx, Timestamp instant) {
    const Timestamp now = ctx.currentProcessingTime();
    if (instant > now) ctx.sleep(instant - now);
  }

  std::vector<Script> scripts_;
  std::optional<Duration> end_at_;
};

}  // namespace tidemark
