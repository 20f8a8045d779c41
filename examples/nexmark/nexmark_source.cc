#include "nexmark_source.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace tidemark::nexmark {
namespace {

/// A paced source waiting longer than this sleeps (and frees its core);
/// shorter waits spin, because a sleep overshoots by tens of microseconds.
constexpr std::int64_t kSpinLimitNs = 2'000'000;

void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

std::int64_t RunClock::nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::int64_t RunClock::start() {
  std::int64_t expected = 0;
  const std::int64_t now = nowNs();
  return start_ns_.compare_exchange_strong(expected, now, std::memory_order_acq_rel) ? now : expected;
}

SourceProgress::SourceProgress(int subtasks)
    : slots_(std::make_unique<Slot[]>(static_cast<std::size_t>(subtasks))), subtasks_(subtasks) {}

void SourceProgress::publish(int subtask, std::int64_t events, Timestamp watermark) {
  Slot& slot = slots_[static_cast<std::size_t>(subtask)];
  slot.events.store(events, std::memory_order_relaxed);
  slot.watermark.store(watermark, std::memory_order_relaxed);
}

std::int64_t SourceProgress::events() const {
  std::int64_t total = 0;
  for (int s = 0; s < subtasks_; ++s) total += slots_[static_cast<std::size_t>(s)].events.load(std::memory_order_relaxed);
  return total;
}

Timestamp SourceProgress::watermark() const {
  Timestamp lowest = kMaxWatermark;
  for (int s = 0; s < subtasks_; ++s) {
    lowest = std::min(lowest, slots_[static_cast<std::size_t>(s)].watermark.load(std::memory_order_relaxed));
  }
  return lowest;
}

NexmarkSource::NexmarkSource(SourceOptions options)
    : options_(std::move(options)), generator_(options_.generator) {
  if (options_.events < 0) throw std::invalid_argument("NexmarkSource: events must be >= 0");
  if (options_.rate < 0) throw std::invalid_argument("NexmarkSource: rate must be >= 0");
  if (options_.rate > 0 && options_.pacing == Pacing::kWallClock && options_.clock == nullptr) {
    throw std::invalid_argument("NexmarkSource: a paced source needs a RunClock");
  }
}

void NexmarkSource::initializeState(FunctionInitializationContext& context) {
  positions_ = &context.getOperatorStateStore().getUnionListState(ListStateDescriptor<Position>("nexmark-positions"));
  // Union state: a position may come from several subtasks (see snapshotState); each counts once.
  for (const Position& position : positions_->get()) {
    const auto same = std::find_if(restored_.begin(), restored_.end(), [&](const Position& known) {
      return known.generation == position.generation && known.subtask == position.subtask;
    });
    if (same == restored_.end()) {
      restored_.push_back(position);
    } else if (position.next_event > same->next_event) {
      *same = position;
    }
  }
}

void NexmarkSource::snapshotState(const FunctionSnapshotContext&) {
  // Before run() this subtask does not know its index yet: it keeps what it restored.
  if (!running_) {
    positions_->update(restored_);
    return;
  }
  std::vector<Position> positions{position_};
  if (subtask_ == 0) positions.insert(positions.end(), earlier_generations_.begin(), earlier_generations_.end());
  positions_->update(std::move(positions));
}

void NexmarkSource::run(SourceContext<Event>& ctx) {
  subtask_ = ctx.getIndexOfThisSubtask();
  const int parallelism = ctx.getNumberOfParallelSubtasks();
  if (options_.alignment != nullptr && options_.alignment->subtasks() != parallelism) {
    throw std::logic_error("NexmarkSource: EventTimeAlignment sized for another parallelism than the source's");
  }
  restorePosition(parallelism);
  running_ = true;
  const std::int64_t block = eventsPerSubtaskBlock(generator_.config());
  const MadeEvents made(restored_, block);
  // This subtask's first block that is not made to its end.
  std::int64_t first_block = made.allMadeBefore() / block;
  first_block += (subtask_ - first_block % parallelism + parallelism) % parallelism;
  while (first_block * block < options_.events && made.unmadeFrom(first_block) == (first_block + 1) * block) {
    first_block += parallelism;
  }
  // Every subtask keeps one schedule: event n due (n - allMadeBefore) / rate after the restore.
  startPacing(ctx, made.allMadeBefore());
  Timestamp nominal = kMinWatermark;
  std::int64_t next_millisecond = 0;  // first event number of the next millisecond
  for (std::int64_t b = first_block; b * block < options_.events; b += parallelism) {
    const std::int64_t end = std::min((b + 1) * block, options_.events);
    for (std::int64_t n = made.unmadeFrom(b); n < end; ++n) {
      // A compare per event instead of the division nominalTime() costs.
      if (n >= next_millisecond) {
        nominal = generator_.nominalTime(n);
        next_millisecond = generator_.firstEventAtOrAfter(nominal + 1);
        enterMillisecond(ctx, nominal, position_.emitted);
      }
      if (options_.rate > 0) {
        if (options_.pacing == Pacing::kWallClock) {
          waitUntilDue(ctx, n);
        } else {
          waitUntilDueOnJobClock(ctx, n);
        }
      }
      const Event event = generator_.generate(n, nominal);
      // Counted before it goes out: a snapshot falls only inside the collect, after the event.
      position_.next_event = n + 1;
      ++position_.emitted;
      ctx.collectWithTimestamp(event, event.dateTime());
    }
  }
  if (options_.alignment != nullptr) options_.alignment->finish(subtask_);
  if (options_.progress != nullptr) options_.progress->publish(subtask_, position_.emitted, kMaxWatermark);
}

void NexmarkSource::restorePosition(int parallelism) {
  std::int32_t latest = -1;
  for (const Position& restored : restored_) latest = std::max(latest, restored.generation);
  earlier_generations_.clear();
  bool continues = false;
  for (const Position& restored : restored_) {
    if (restored.generation == latest && restored.parallelism == parallelism) continues = true;
  }
  position_ = Position{continues ? latest : latest + 1, subtask_, parallelism, 0, 0};
  for (const Position& restored : restored_) {
    if (restored.generation < position_.generation) {
      earlier_generations_.push_back(restored);
      // The subtasks a new generation replaces hand their counts to it.
      if (restored.generation == latest && restored.subtask % parallelism == subtask_) {
        position_.emitted += restored.emitted;
      }
    } else if (restored.subtask == subtask_) {
      position_ = restored;
    }
  }
}

NexmarkSource::MadeEvents::MadeEvents(const std::vector<Position>& restored, std::int64_t block) : block_(block) {
  std::int32_t latest = -1;
  for (const Position& position : restored) latest = std::max(latest, position.generation);
  generations_.resize(static_cast<std::size_t>(latest + 1));
  for (const Position& position : restored) {
    if (position.parallelism < 1 || position.subtask < 0 || position.subtask >= position.parallelism) {
      throw std::runtime_error(fmt::format("NexmarkSource: the restored position of subtask {} of {} is impossible",
                                           position.subtask, position.parallelism));
    }
    Generation& generation = generations_[static_cast<std::size_t>(position.generation)];
    if (generation.next_event.empty()) {
      generation.parallelism = position.parallelism;
      generation.next_event.assign(static_cast<std::size_t>(position.parallelism), 0);
    } else if (generation.parallelism != position.parallelism) {
      throw std::runtime_error(fmt::format(
          "NexmarkSource: the restored generation {} has subtasks of parallelism {} and {}", position.generation,
          generation.parallelism, position.parallelism));
    }
    generation.next_event[static_cast<std::size_t>(position.subtask)] = position.next_event;
  }
  // In the latest generation each subtask made all of its blocks below its
  // next event, and earlier ones had made the rest of theirs.
  if (!generations_.empty()) {
    const auto& next = generations_.back().next_event;
    all_made_before_ = *std::min_element(next.begin(), next.end());
  }
}

std::int64_t NexmarkSource::MadeEvents::unmadeFrom(std::int64_t b) const {
  const std::int64_t first = b * block_;
  std::int64_t made = 0;
  for (const Generation& generation : generations_) {
    if (generation.next_event.empty()) continue;  // a generation that took no checkpoint
    const std::int64_t next = generation.next_event[static_cast<std::size_t>(b % generation.parallelism)];
    made = std::max(made, std::clamp<std::int64_t>(next - first, 0, block_));
  }
  return first + made;
}

void NexmarkSource::startPacing(SourceContext<Event>& ctx, std::int64_t resume) {
  // A restored source keeps the rate from its next event on, not from event 0.
  if (options_.rate > 0 && options_.pacing == Pacing::kWallClock) {
    __extension__ using Wide = __int128;
    start_ns_ = options_.clock->start() - static_cast<std::int64_t>(static_cast<Wide>(resume) * 1'000'000'000 / options_.rate);
  }
  start_ms_ = ctx.currentProcessingTime() - (options_.rate > 0 ? resume * 1000 / options_.rate : 0);
}

void NexmarkSource::enterMillisecond(SourceContext<Event>& ctx, Timestamp nominal, std::int64_t emitted) {
  // Every later event of this subtask has a nominal time >= this one, so a
  // dateTime >= nominal - max_out_of_orderness: nothing it emits is late.
  const Timestamp watermark = generator_.watermarkBefore(nominal);
  ctx.emitWatermark(watermark);
  if (options_.progress != nullptr) options_.progress->publish(subtask_, emitted, watermark);
  if (options_.alignment != nullptr) {
    options_.alignment->publish(subtask_, std::max<Timestamp>(nominal, 0));
    while (options_.alignment->tooFarAhead(std::max<Timestamp>(nominal, 0))) ctx.sleep(1);
  }
}

void NexmarkSource::waitUntilDue(SourceContext<Event>& ctx, std::int64_t n) {
  __extension__ using Wide = __int128;
  const auto due = start_ns_ + static_cast<std::int64_t>(static_cast<Wide>(n) * 1'000'000'000 / options_.rate);
  std::int64_t now = RunClock::nowNs();
  if (now >= due) return;
  // Idle until the event is due: hand what was made so far downstream first.
  ctx.sleep(0);
  while ((now = RunClock::nowNs()) < due) {
    if (due - now > kSpinLimitNs) {
      ctx.sleep((due - now) / 1'000'000 - 1);
    } else {
      pause();
    }
  }
}

void NexmarkSource::waitUntilDueOnJobClock(SourceContext<Event>& ctx, std::int64_t n) {
  const Timestamp due = start_ms_ + n * 1000 / options_.rate;
  const Timestamp now = ctx.currentProcessingTime();
  if (now < due) ctx.sleep(due - now);
}

std::int64_t eventsPerSubtaskBlock(const GeneratorConfig& config) {
  return std::max<std::int64_t>(config.events_per_second / 1000, 1);
}

DataStream<Event> addNexmarkSource(StreamExecutionEnvironment& env, SourceOptions options) {
  return env.addSource(NexmarkSource(std::move(options)), "Nexmark source");
}

}  // namespace tidemark::nexmark
