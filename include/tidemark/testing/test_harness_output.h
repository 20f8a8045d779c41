// What an operator under a test harness emitted: the main output as one
// sequence of records and watermarks, and side outputs per tag.
//
// Contract:
// - events() is the main output exactly in emission order: each record with
//   its timestamp (or none), interleaved with the watermarks the operator
//   forwarded. An event-time timer's output therefore appears before the
//   watermark that fired it, as downstream operators would see it.
// - Watermark status changes are kept apart (watermarkStatuses()), since
//   they do not order against records in any way tests rely on.
// - Side outputs are captured only for tags registered with
//   captureSideOutput(tag) before the operator is opened: an operator drops
//   side-output records for tags nobody wired (OperatorBase::emitSideOutput),
//   so capturing lazily on first use could never see them. Asking for a tag
//   that was not registered throws std::logic_error instead of answering
//   "nothing was emitted". Side outputs carry the operator's watermarks too.
// - Everything prints (operator<<, and PrintTo for StreamRecord) so that a
//   failed gtest assertion shows records as `Record(value @ ts)`,
//   `Record(value, no timestamp)` and watermarks as `Watermark(ts)`. gtest
//   prefixes each std::variant element with its type name; comparing lines()
//   gives the tersest failure messages.
// - StreamRecords compare equal when value and timestamp (or its absence)
//   match, so expected outputs can be written as values.
//
// Example:
//   using Out = tidemark::TestHarnessOutput<std::string>;
//   EXPECT_EQ(harness.getOutput().events(),
//             (std::vector<Out::Event>{tidemark::StreamRecord<std::string>::withTimestamp("fired", 5000),
//                                      tidemark::WatermarkEvent{5000}}));
//   EXPECT_EQ(harness.getOutput().lines(),
//             (std::vector<std::string>{"Record(fired @ 5000)", "Watermark(5000)"}));
//   EXPECT_EQ(harness.getSideOutput(late_tag).size(), 1u);
#pragma once

#include <concepts>
#include <cstddef>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "tidemark/core/output_tag.h"
#include "tidemark/core/describe.h"
#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"
#include "tidemark/internal/operators/output.h"

namespace tidemark {

/// A watermark an operator forwarded, as captured by a test harness.
struct WatermarkEvent {
  Timestamp timestamp = kMinWatermark;

  friend bool operator==(const WatermarkEvent&, const WatermarkEvent&) = default;
  friend std::ostream& operator<<(std::ostream& os, const WatermarkEvent& watermark) {
    return os << "Watermark(" << watermark.timestamp << ")";
  }
};

/// Records are equal when their values are and both carry the same timestamp
/// or both carry none. A template, so that an equality StreamRecord itself may
/// gain later (a non-template) takes precedence instead of clashing.
template <class T>
  requires std::equality_comparable<T>
bool operator==(const StreamRecord<T>& a, const StreamRecord<T>& b) {
  return a.has_timestamp == b.has_timestamp && (!a.has_timestamp || a.timestamp == b.timestamp) &&
         a.value == b.value;
}

/// Print a record the way harness outputs show it. Found by gtest through ADL;
/// deliberately not an operator<<, which would change whether StreamRecord
/// counts as Printable depending on which headers a file includes.
template <class T>
void PrintTo(const StreamRecord<T>& record, std::ostream* os) {
  *os << "Record(";
  describeTo(*os, record.value);
  if (record.has_timestamp) {
    *os << " @ " << record.timestamp << ")";
  } else {
    *os << ", no timestamp)";
  }
}

/// The main output of an operator under test (see the file comment).
template <class OUT>
class TestHarnessOutput {
 public:
  using Event = std::variant<StreamRecord<OUT>, WatermarkEvent>;

  /// Records and watermarks, in emission order.
  const std::vector<Event>& events() const { return events_; }

  /// The records only, in emission order.
  std::vector<StreamRecord<OUT>> records() const {
    std::vector<StreamRecord<OUT>> result;
    for (const Event& event : events_) {
      if (const auto* record = std::get_if<StreamRecord<OUT>>(&event)) result.push_back(*record);
    }
    return result;
  }

  /// The values of the records, in emission order (Flink's extractOutputValues).
  std::vector<OUT> values() const {
    std::vector<OUT> result;
    for (const Event& event : events_) {
      if (const auto* record = std::get_if<StreamRecord<OUT>>(&event)) result.push_back(record->value);
    }
    return result;
  }

  /// The forwarded watermarks, in order.
  std::vector<Timestamp> watermarks() const {
    std::vector<Timestamp> result;
    for (const Event& event : events_) {
      if (const auto* watermark = std::get_if<WatermarkEvent>(&event)) result.push_back(watermark->timestamp);
    }
    return result;
  }

  /// Watermark status changes the operator forwarded, in order.
  const std::vector<WatermarkStatus>& watermarkStatuses() const { return statuses_; }

  /// One line per event, as printed: `Record(v @ ts)`, `Record(v, no timestamp)`,
  /// `Watermark(ts)`. Comparing lines gives exact, readable assertions for any
  /// printable OUT.
  std::vector<std::string> lines() const {
    std::vector<std::string> result;
    result.reserve(events_.size());
    for (const Event& event : events_) result.push_back(describeEvent(event));
    return result;
  }

  std::size_t size() const { return events_.size(); }
  bool empty() const { return events_.empty(); }
  auto begin() const { return events_.begin(); }
  auto end() const { return events_.end(); }

  /// Forget everything captured so far (Flink's getOutput().clear()).
  void clear() {
    events_.clear();
    statuses_.clear();
  }

  /// Harness use: append what the operator emitted.
  void addRecord(StreamRecord<OUT> record) { events_.emplace_back(std::move(record)); }
  void addWatermark(Timestamp watermark) { events_.emplace_back(WatermarkEvent{watermark}); }
  void addWatermarkStatus(WatermarkStatus status) { statuses_.push_back(status); }

  friend std::ostream& operator<<(std::ostream& os, const TestHarnessOutput& output) {
    os << "[";
    const char* separator = "";
    for (const Event& event : output.events_) {
      os << separator << describeEvent(event);
      separator = ", ";
    }
    return os << "]";
  }

 private:
  static std::string describeEvent(const Event& event) {
    std::ostringstream os;
    if (const auto* record = std::get_if<StreamRecord<OUT>>(&event)) {
      PrintTo(*record, &os);
    } else {
      os << std::get<WatermarkEvent>(event);
    }
    return os.str();
  }

  std::vector<Event> events_;
  std::vector<WatermarkStatus> statuses_;
};

namespace internal {

/// The Output a harness wires into the operator: appends to a TestHarnessOutput.
template <class T>
class CapturingOutput final : public Output<T> {
 public:
  explicit CapturingOutput(TestHarnessOutput<T>& sink) : sink_(sink) {}

  // Moving is what a real consumer may do, so user code that reads a record
  // after emitting it fails here as it would in a job.
  void collect(StreamRecord<T>& record) override { sink_.addRecord(std::move(record)); }
  void emitWatermark(Timestamp watermark) override { sink_.addWatermark(watermark); }
  void emitWatermarkStatus(WatermarkStatus status) override { sink_.addWatermarkStatus(status); }

 private:
  TestHarnessOutput<T>& sink_;
};

}  // namespace internal

/// The side outputs of an operator under test, one TestHarnessOutput per
/// registered tag (see the file comment for why tags are registered up front).
class TestHarnessSideOutputs {
 public:
  /// Start capturing `tag`. Returns the output to wire into the operator, or
  /// nullptr when the tag is already captured. Throws std::logic_error when a
  /// tag with the same id was captured with another element type.
  template <class X>
  internal::OutputBase* capture(const OutputTag<X>& tag) {
    auto it = captures_.find(tag.internalId());
    if (it != captures_.end()) {
      checkType<X>(*it->second, tag);
      return nullptr;
    }
    auto capture = std::make_unique<Capture<X>>();
    internal::OutputBase* output = &capture->output;
    captures_.emplace(tag.internalId(), std::move(capture));
    return output;
  }

  /// Everything emitted to `tag`, watermarks included. Throws std::logic_error
  /// when the tag was never captured.
  template <class X>
  const TestHarnessOutput<X>& get(const OutputTag<X>& tag) const {
    auto it = captures_.find(tag.internalId());
    if (it == captures_.end()) {
      throw std::logic_error(fmt::format(
          "side output '{}' is not captured: call captureSideOutput(tag) on the harness before open()", tag.getId()));
    }
    return checkType<X>(*it->second, tag).captured;
  }

  template <class X>
  TestHarnessOutput<X>& get(const OutputTag<X>& tag) {
    return const_cast<TestHarnessOutput<X>&>(std::as_const(*this).get(tag));
  }

  /// Clear every captured side output.
  void clear() {
    for (auto& [id, capture] : captures_) capture->clear();
  }

 private:
  class CaptureBase {
   public:
    CaptureBase() = default;
    virtual ~CaptureBase() = default;
    CaptureBase(const CaptureBase&) = delete;
    CaptureBase& operator=(const CaptureBase&) = delete;
    virtual void clear() = 0;
  };

  template <class X>
  class Capture final : public CaptureBase {
   public:
    void clear() override { captured.clear(); }
    TestHarnessOutput<X> captured;
    internal::CapturingOutput<X> output{captured};
  };

  template <class X>
  static const Capture<X>& checkType(const CaptureBase& capture, const OutputTag<X>& tag) {
    const auto* typed = dynamic_cast<const Capture<X>*>(&capture);
    if (typed == nullptr) {
      throw std::logic_error(fmt::format("side output '{}' is already captured with an element type other than {}",
                                         tag.getId(), internal::demangle(typeid(X).name())));
    }
    return *typed;
  }

  std::map<int, std::unique_ptr<CaptureBase>> captures_;
};

}  // namespace tidemark
