// A Nexmark query as the `tidemark` command and the benchmarks see it: a
// name, what it computes, and a function that builds it on a stream of
// events and sends its results to a recording sink.
//
// Each query itself is ordinary user code in queries/qN.h: a function from
// DataStream<Event> to a DataStream of its result type. Every result type
// says where its latency is measured from with an overload of
// latencyOrigin() (see LatencyOrigin).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "event_generator.h"
#include "latency_histogram.h"
#include "model.h"
#include "nexmark_source.h"
#include "tidemark/connectors/file/file_sink.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

/// Where a result's latency starts: the creation of the event it was made
/// from (pass-through and per-event results), or the moment the watermark
/// passed an event time (results that a window or an event-time timer
/// releases: latency is then measured from when they could first be known).
struct LatencyOrigin {
  enum class Kind { kEvent, kWatermark };
  Kind kind;
  std::int64_t value;  // an event number, or an event time in ms

  static LatencyOrigin event(std::int64_t number) { return {Kind::kEvent, number}; }
  static LatencyOrigin watermark(Timestamp event_time) { return {Kind::kWatermark, event_time}; }
};

/// A result that is an event (a bid passed through or changed field by field).
inline LatencyOrigin latencyOrigin(const Event& event) { return LatencyOrigin::event(event.number); }

/// When, on the steady clock, a rate-limited run created an event or moved
/// its watermark past an event time: the run's schedule, which the paced
/// source keeps (it never creates an event early).
class LatencySchedule {
 public:
  /// `events` is the run's total over all source subtasks: a watermark the
  /// run never reaches is passed when its input ends, with its last event.
  LatencySchedule(const GeneratorConfig& generator, std::int64_t rate, int parallelism, std::int64_t events,
                  std::shared_ptr<const RunClock> clock);

  std::int64_t originNs(const LatencyOrigin& origin) const;

 private:
  std::int64_t createdNs(std::int64_t event_number) const;

  EventGenerator generator_;
  std::int64_t rate_;
  int parallelism_;
  std::int64_t events_;
  std::shared_ptr<const RunClock> clock_;
};

/// What a run of a query produced, gathered from its parallel sinks when
/// they finish (so nothing is shared per record).
class ResultRecorder {
 public:
  /// `schedule` is null in a run that is not rate-limited (no latency then).
  ResultRecorder(std::size_t sample_size, std::shared_ptr<const LatencySchedule> schedule)
      : sample_size_(sample_size), schedule_(std::move(schedule)) {}

  std::size_t sampleSize() const { return sample_size_; }
  const LatencySchedule* schedule() const { return schedule_.get(); }

  void add(std::int64_t results, const LatencyHistogram& latencies, std::vector<std::string> sample);

  std::int64_t results() const;
  LatencyHistogram latencies() const;
  /// At most sampleSize() results, the first ones each sink saw.
  std::vector<std::string> sample() const;

 private:
  std::size_t sample_size_;
  std::shared_ptr<const LatencySchedule> schedule_;
  mutable std::mutex mutex_;
  std::int64_t results_ = 0;
  LatencyHistogram latencies_;
  std::vector<std::string> sample_;
};

/// Counts, times and samples one query's results; one instance per subtask.
/// The count is checkpointed, so a job restored (after a restart, or in a
/// new process) counts each result once; latencies and the sample are of the
/// last attempt only.
template <class Out>
class RecordingSink final : public SinkFunction<Out>, public CheckpointedFunction {
 public:
  explicit RecordingSink(std::shared_ptr<ResultRecorder> recorder) : recorder_(std::move(recorder)) {}

  void initializeState(FunctionInitializationContext& context) override {
    counts_ = &context.getOperatorStateStore().getListState(ListStateDescriptor<std::int64_t>("nexmark-results"));
    // Split evenly over the subtasks: their sum is the checkpoint's total.
    for (std::int64_t count : counts_->get()) results_ += count;
  }
  void snapshotState(const FunctionSnapshotContext&) override { counts_->update({results_}); }

  void invoke(const Out& result, const typename SinkFunction<Out>::Context&) override {
    ++results_;
    if (const LatencySchedule* schedule = recorder_->schedule()) {
      latencies_.record(RunClock::nowNs() - schedule->originNs(latencyOrigin(result)));
    }
    if (sample_.size() < recorder_->sampleSize()) {
      std::ostringstream line;
      line << result;
      sample_.push_back(line.str());
    }
  }

  void finish() override { recorder_->add(results_, latencies_, std::move(sample_)); }

 private:
  std::shared_ptr<ResultRecorder> recorder_;
  ListState<std::int64_t>* counts_ = nullptr;
  std::int64_t results_ = 0;
  LatencyHistogram latencies_;
  std::vector<std::string> sample_;
};

/// Where a query's results go: always a RecordingSink; with an output
/// directory also, one line per result, through the exactly-once FileSink.
struct QuerySinks {
  std::shared_ptr<ResultRecorder> recorder;
  std::string output_directory;  // empty: results are only counted
};

struct Query {
  std::string name;         // "q5"
  std::string title;        // "hot items"
  std::string description;  // one line: what it computes
  /// Builds the query on `events` and ends it in `sinks`.
  std::function<void(const DataStream<Event>& events, const QuerySinks& sinks)> attach;
};

template <class Out>
Query makeQuery(std::string name, std::string title, std::string description,
                DataStream<Out> (*build)(const DataStream<Event>&)) {
  return Query{std::move(name), std::move(title), std::move(description),
               [build](const DataStream<Event>& events, const QuerySinks& sinks) {
                 const DataStream<Out> results = build(events);
                 results.addSink(RecordingSink<Out>(sinks.recorder)).name("results");
                 if (!sinks.output_directory.empty()) {
                   results
                       .sinkTo(FileSink<Out>::forRowFormat(sinks.output_directory, SimpleStringEncoder<Out>())
                                   .withBucketAssigner(BasePathBucketAssigner<Out>())
                                   .build())
                       .name("output files");
                 }
               }};
}

/// Every query, in order: q0, q1, ...
const std::vector<Query>& allQueries();
/// nullptr when there is no query of that name.
const Query* findQuery(std::string_view name);

}  // namespace tidemark::nexmark
