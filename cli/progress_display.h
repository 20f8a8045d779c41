// The live progress line of a Nexmark run on a terminal: events done, rate,
// the watermark downstream sees and how far it trails the newest event.
// A thread samples the source's progress four times a second; nothing is
// shared with the job's threads but a few relaxed atomics.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "nexmark/event_generator.h"
#include "nexmark/nexmark_source.h"

namespace tidemark::cli {

class ProgressDisplay {
 public:
  /// Shows nothing unless standard error is a terminal.
  ProgressDisplay(std::string label, std::int64_t total_events, const nexmark::GeneratorConfig& generator,
                  std::shared_ptr<const nexmark::SourceProgress> progress);
  ~ProgressDisplay();

  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;

  void start();
  /// Stops the thread and clears the line.
  void stop();

 private:
  void loop();
  void draw(double seconds);

  std::string label_;
  std::int64_t total_events_;
  nexmark::EventGenerator generator_;
  std::shared_ptr<const nexmark::SourceProgress> progress_;
  bool enabled_;
  std::mutex mutex_;
  std::condition_variable stopped_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tidemark::cli
