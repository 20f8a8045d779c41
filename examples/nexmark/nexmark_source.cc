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
  restored_ = positions_->get();
}

void NexmarkSource::snapshotState(const FunctionSnapshotContext&) { positions_->update({position_}); }

void NexmarkSource::run(SourceContext<Event>& ctx) {
  subtask_ = ctx.getIndexOfThisSubtask();
  const int parallelism = ctx.getNumberOfParallelSubtasks();
  if (options_.alignment != nullptr && options_.alignment->subtasks() != parallelism) {
    throw std::logic_error("NexmarkSource: EventTimeAlignment sized for another parallelism than the source's");
  }
  restorePosition(parallelism);
  startPacing(ctx);
  Timestamp nominal = kMinWatermark;
  std::int64_t next_millisecond = 0;  // first event number of the next millisecond
  const std::int64_t block = eventsPerSubtaskBlock(generator_.config());
  const std::int64_t resume = nextOwnEvent(position_.next_event, block, parallelism);
  for (std::int64_t first = resume - resume % block; first < options_.events; first += parallelism * block) {
    const std::int64_t end = std::min(first + block, options_.events);
    for (std::int64_t n = std::max(first, resume); n < end; ++n) {
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
  position_ = Position{subtask_, parallelism, 0, 0};
  for (const Position& restored : restored_) {
    if (restored.parallelism != parallelism) {
      throw std::runtime_error(fmt::format(
          "NexmarkSource: restores only at the parallelism it was checkpointed with ({}), not {}: the events are "
          "dealt out by parallelism",
          restored.parallelism, parallelism));
    }
    if (restored.subtask == subtask_) position_ = restored;
  }
}

std::int64_t NexmarkSource::nextOwnEvent(std::int64_t n, std::int64_t block, int parallelism) const {
  const std::int64_t index = n / block;
  const std::int64_t blocks_to_own = (subtask_ - index % parallelism + parallelism) % parallelism;
  return blocks_to_own == 0 ? n : (index + blocks_to_own) * block;
}

void NexmarkSource::startPacing(SourceContext<Event>& ctx) {
  // A restored source keeps the rate from its next event on, not from event 0.
  const std::int64_t resume = position_.next_event;
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
