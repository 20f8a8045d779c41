#include "nexmark_source.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <utility>

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

void NexmarkSource::run(SourceContext<Event>& ctx) {
  subtask_ = ctx.getIndexOfThisSubtask();
  const int parallelism = ctx.getNumberOfParallelSubtasks();
  if (options_.alignment != nullptr && options_.alignment->subtasks() != parallelism) {
    throw std::logic_error("NexmarkSource: EventTimeAlignment sized for another parallelism than the source's");
  }
  if (options_.rate > 0 && options_.pacing == Pacing::kWallClock) start_ns_ = options_.clock->start();
  start_ms_ = ctx.currentProcessingTime();
  Timestamp nominal = kMinWatermark;
  std::int64_t next_millisecond = 0;  // first event number of the next millisecond
  std::int64_t emitted = 0;
  const std::int64_t block = eventsPerSubtaskBlock(generator_.config());
  for (std::int64_t first = subtask_ * block; first < options_.events; first += parallelism * block) {
    const std::int64_t end = std::min(first + block, options_.events);
    for (std::int64_t n = first; n < end; ++n) {
      // A compare per event instead of the division nominalTime() costs.
      if (n >= next_millisecond) {
        nominal = generator_.nominalTime(n);
        next_millisecond = generator_.firstEventAtOrAfter(nominal + 1);
        enterMillisecond(ctx, nominal, emitted);
      }
      if (options_.rate > 0) {
        if (options_.pacing == Pacing::kWallClock) {
          waitUntilDue(ctx, n);
        } else {
          waitUntilDueOnJobClock(ctx, n);
        }
      }
      const Event event = generator_.generate(n, nominal);
      ctx.collectWithTimestamp(event, event.dateTime());
      ++emitted;
    }
  }
  if (options_.alignment != nullptr) options_.alignment->finish(subtask_);
  if (options_.progress != nullptr) options_.progress->publish(subtask_, emitted, kMaxWatermark);
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
