// What a FileSink keeps in a checkpoint: its transactions (the parts that
// wait for a checkpoint to complete) and its context (each writer's part
// counter and the parts it was writing). Writers are subtask indexes; part
// names carry them, so after a rescale every file still has one owner.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace tidemark {

/// A part file: `<base>/<bucket>/<prefix>-<writer>-<counter><suffix>`.
struct FileSinkPart {
  std::string bucket;
  std::int32_t writer = 0;
  std::int64_t counter = 0;
  auto fields() { return std::tie(bucket, writer, counter); }
  friend bool operator==(const FileSinkPart&, const FileSinkPart&) = default;
};

/// The parts closed since the last checkpoint: hidden until committed.
struct FileSinkTransaction {
  std::vector<FileSinkPart> parts;
  auto fields() { return std::tie(parts); }
};

/// A part still being written at a checkpoint, and how much of it the
/// checkpoint covers (what a restore cuts it back to).
struct FileSinkInProgressPart {
  FileSinkPart part;
  std::uint64_t durable_size = 0;
  auto fields() { return std::tie(part, durable_size); }
};

/// One writer's position: the counter of its next part, and the parts it
/// was writing. A writer index the job no longer runs keeps its record,
/// so that its files are never taken for another's.
struct FileSinkWriterRecord {
  std::int32_t writer = 0;
  std::int64_t next_counter = 0;
  std::vector<FileSinkInProgressPart> in_progress;
  auto fields() { return std::tie(writer, next_counter, in_progress); }
};

/// A subtask's context. `first_counter`: the part counter the job started
/// at when it started afresh, above every part that was in the directory
/// before; parts of an unknown writer below it are not the job's.
struct FileSinkContext {
  std::int64_t first_counter = 0;
  std::vector<FileSinkWriterRecord> writers;
  auto fields() { return std::tie(first_counter, writers); }
};

}  // namespace tidemark
