#include "progress_display.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <utility>

#include <fmt/format.h>

namespace tidemark::cli {
namespace {

constexpr auto kRefresh = std::chrono::milliseconds(250);

}  // namespace

ProgressDisplay::ProgressDisplay(std::string label, std::int64_t total_events,
                                 const nexmark::GeneratorConfig& generator,
                                 std::shared_ptr<const nexmark::SourceProgress> progress)
    : label_(std::move(label)),
      total_events_(total_events),
      generator_(generator),
      progress_(std::move(progress)),
      enabled_(::isatty(STDERR_FILENO) == 1) {}

ProgressDisplay::~ProgressDisplay() { stop(); }

void ProgressDisplay::start() {
  if (enabled_ && !thread_.joinable()) thread_ = std::thread([this] { loop(); });
}

void ProgressDisplay::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  stopped_.notify_all();
  thread_.join();
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
}

void ProgressDisplay::loop() {
  const auto begin = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopped_.wait_for(lock, kRefresh, [this] { return stopping_; })) {
    draw(std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
  }
}

void ProgressDisplay::draw(double seconds) {
  const std::int64_t events = progress_->events();
  const Timestamp watermark = progress_->watermark();
  const double rate = seconds > 0 ? static_cast<double>(events) / seconds : 0;
  std::string line = fmt::format("\r\033[K{}  {:>12} / {} events  {:6.2f} M events/s", label_, events,
                                 total_events_, rate / 1e6);
  if (watermark != kMinWatermark && watermark != kMaxWatermark) {
    // How far the watermark trails the newest event made (in event time).
    const Duration lag = generator_.nominalTime(events) - watermark;
    line += fmt::format("  watermark {:.3f} s  lag {} ms", static_cast<double>(watermark) / 1000.0, lag);
  }
  fmt::print(stderr, "{}", line);
  std::fflush(stderr);
}

}  // namespace tidemark::cli
