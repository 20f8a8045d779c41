// The Nexmark source: a parallel source over EventGenerator. The events are
// dealt out in blocks of one millisecond of event time (subtask s of P makes
// blocks s, s + P, s + 2P, ...; see eventsPerSubtaskBlock), so that the
// subtasks make neighbouring milliseconds. Each subtask stamps its events
// with their dateTime and emits the watermark itself each time its nominal
// time enters a new millisecond.
//
// Blocks rather than single events: bids refer to auctions made a few
// hundred events earlier, and the operators before a shuffle combine bids of
// the same auction and millisecond. Dealt out one by one, half of every
// millisecond's bids would name an auction the other subtask makes (to wait
// for it downstream when that subtask runs behind), and each subtask would
// combine only half of the bids of each (auction, millisecond).
//
// Optional parts, all shared between the subtasks of one run:
// - pacing: create event n no earlier than start + n / rate on the wall clock
//   (a rate-limited run; the source flushes before it waits, so a record
//   never sits in a batch while the source is idle);
// - alignment: pause a subtask that gets too far ahead in event time;
// - progress: events made and the last watermark, for a live display.
//
// Checkpoints hold each subtask's position (the next event it makes, and how
// many it made), so a restored job makes every event exactly once. A paced
// source keeps its rate from the restored event on.
//
// Rescaling: restored at another parallelism, the source starts a new
// generation, which deals the blocks out by the new parallelism and skips in
// each block what earlier generations made. Within a generation a subtask
// makes its blocks in order, each from where earlier generations stopped in
// it, so what all of them made of a block is a prefix of it: the longest of
// the generations' prefixes (see MadeEvents). The checkpoint keeps every
// generation's positions (union state), so a job can be rescaled again.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <tuple>
#include <vector>

#include "event_generator.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

/// When a run started on the wall clock: the first subtask to start sets it,
/// and a rate-limited run schedules event n at start + n / rate.
class RunClock {
 public:
  /// Nanoseconds on the steady clock.
  static std::int64_t nowNs();

  /// Sets the start to now unless a subtask already did; returns the start.
  std::int64_t start();
  /// 0 until a subtask started.
  std::int64_t startNs() const { return start_ns_.load(std::memory_order_acquire); }

 private:
  std::atomic<std::int64_t> start_ns_{0};
};

/// What the subtasks of a source have done so far; written a few times per
/// millisecond of event time, read by a progress display.
class SourceProgress {
 public:
  explicit SourceProgress(int subtasks);

  void publish(int subtask, std::int64_t events, Timestamp watermark);
  std::int64_t events() const;
  /// The minimum over subtasks of their last watermark (what downstream sees).
  Timestamp watermark() const;

 private:
  struct alignas(64) Slot {
    std::atomic<std::int64_t> events{0};
    std::atomic<Timestamp> watermark{kMinWatermark};
  };
  std::unique_ptr<Slot[]> slots_;
  int subtasks_;
};

/// Which clock a rate-limited source keeps its schedule on.
enum class Pacing {
  /// The steady wall clock, to the microsecond (spins for waits under 2 ms):
  /// what latency measurements need.
  kWallClock,
  /// The job's processing-time clock, in whole milliseconds, waiting with
  /// SourceContext::sleep: in simulated time this makes processing time
  /// advance with the events, deterministically.
  kJobClock,
};

struct SourceOptions {
  GeneratorConfig generator;
  /// Events over all subtasks.
  std::int64_t events = 0;
  /// Events per second on the wall clock over all subtasks; 0 = unpaced.
  std::int64_t rate = 0;
  Pacing pacing = Pacing::kWallClock;
  std::shared_ptr<RunClock> clock;                 // required when rate > 0 on the wall clock
  std::shared_ptr<EventTimeAlignment> alignment;   // optional
  std::shared_ptr<SourceProgress> progress;        // optional
};

class NexmarkSource final : public ParallelSourceFunction<Event>, public CheckpointedFunction {
 public:
  explicit NexmarkSource(SourceOptions options);

  void initializeState(FunctionInitializationContext& context) override;
  void snapshotState(const FunctionSnapshotContext& context) override;
  void run(SourceContext<Event>& ctx) override;

 private:
  /// What a checkpoint holds per subtask and generation (see above).
  struct Position {
    std::int32_t generation = 0;
    std::int32_t subtask = 0;
    std::int32_t parallelism = 1;
    std::int64_t next_event = 0;  // one past the last event it made (0: none yet)
    std::int64_t emitted = 0;
    auto fields() { return std::tie(generation, subtask, parallelism, next_event, emitted); }
  };

  /// Which events the restored generations made: in each block, a prefix.
  class MadeEvents {
   public:
    MadeEvents(const std::vector<Position>& restored, std::int64_t block);
    /// The first event of block `b` that no restored generation made.
    std::int64_t unmadeFrom(std::int64_t b) const;
    /// Every event before this one was made.
    std::int64_t allMadeBefore() const { return all_made_before_; }

   private:
    struct Generation {
      std::int32_t parallelism = 1;
      std::vector<std::int64_t> next_event;  // per subtask
    };
    std::vector<Generation> generations_;
    std::int64_t block_;
    std::int64_t all_made_before_ = 0;
  };

  /// This subtask's position: its restored one when the parallelism is the
  /// latest generation's; else the first of a new generation, which takes
  /// over the counts of the subtasks it replaces.
  void restorePosition(int parallelism);
  void startPacing(SourceContext<Event>& ctx, std::int64_t resume);
  void enterMillisecond(SourceContext<Event>& ctx, Timestamp nominal, std::int64_t emitted);
  void waitUntilDue(SourceContext<Event>& ctx, std::int64_t n);
  void waitUntilDueOnJobClock(SourceContext<Event>& ctx, std::int64_t n);

  SourceOptions options_;
  EventGenerator generator_;
  int subtask_ = 0;
  std::int64_t start_ns_ = 0;
  Timestamp start_ms_ = 0;
  Position position_;
  ListState<Position>* positions_ = nullptr;
  std::vector<Position> restored_;
  std::vector<Position> earlier_generations_;  // written again by subtask 0 at each checkpoint
  bool running_ = false;                       // run() chose this subtask's position
};

/// How many consecutive events one subtask makes before the next subtask's
/// turn: the events of one millisecond of event time, at least one. Subtask
/// s of P makes events n with (n / block) % P == s.
std::int64_t eventsPerSubtaskBlock(const GeneratorConfig& config);

/// The source at the head of a Nexmark job, with the job's parallelism.
DataStream<Event> addNexmarkSource(StreamExecutionEnvironment& env, SourceOptions options);

}  // namespace tidemark::nexmark
