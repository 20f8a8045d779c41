// The unit that crosses threads: records with the control elements
// (watermarks, status changes, checkpoint barriers, end of input) interleaved at their positions.
//
// Records sit in one contiguous vector so the consumer's loop is tight;
// controls are rare and kept aside with the index of the record they precede.
// Batches are recycled between producer and consumer, so a steady stream
// allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"

namespace tidemark::internal {

enum class ControlKind : unsigned char { WATERMARK, STATUS, BARRIER, END_OF_INPUT };

struct ControlElement {
  std::size_t position;  // index of the record this control precedes
  ControlKind kind;
  Timestamp watermark = kMinWatermark;
  WatermarkStatus status = WatermarkStatus::ACTIVE;
  std::int64_t checkpoint_id = 0;  // BARRIER: the checkpoint it belongs to
};

template <class T>
struct Batch {
  std::vector<StreamRecord<T>> records;
  std::vector<ControlElement> controls;

  bool empty() const { return records.empty() && controls.empty(); }
  void clear() {
    records.clear();
    controls.clear();
  }
  void addControl(ControlKind kind, Timestamp watermark = kMinWatermark,
                  WatermarkStatus status = WatermarkStatus::ACTIVE, std::int64_t checkpoint_id = 0) {
    controls.push_back(ControlElement{records.size(), kind, watermark, status, checkpoint_id});
  }
};

}  // namespace tidemark::internal
