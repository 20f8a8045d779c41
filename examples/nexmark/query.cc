#include "query.h"

#include <algorithm>
#include <stdexcept>

namespace tidemark::nexmark {

LatencySchedule::LatencySchedule(const GeneratorConfig& generator, std::int64_t rate, int parallelism,
                                 std::int64_t events, std::shared_ptr<const RunClock> clock)
    : generator_(generator), rate_(rate), parallelism_(parallelism), events_(events), clock_(std::move(clock)) {
  if (rate <= 0) throw std::invalid_argument("LatencySchedule: latency is measured in rate-limited runs only");
  if (events <= 0) throw std::invalid_argument("LatencySchedule: a run has at least one event");
}

std::int64_t LatencySchedule::createdNs(std::int64_t event_number) const {
  __extension__ using Wide = __int128;
  return clock_->startNs() + static_cast<std::int64_t>(static_cast<Wide>(event_number) * 1'000'000'000 / rate_);
}

std::int64_t LatencySchedule::originNs(const LatencyOrigin& origin) const {
  if (origin.kind == LatencyOrigin::Kind::kEvent) return createdNs(origin.value);
  // The watermark of one subtask passes t when it is about to make its first
  // event with a nominal time > t + max_out_of_orderness (see
  // EventGenerator::watermarkBefore); downstream sees the minimum over the
  // subtasks, i.e. the last of them to get there. The subtask whose block
  // holds that first event gets there with it; the last of the others when
  // its next block begins, P - 1 blocks on (see eventsPerSubtaskBlock).
  // Past the run's last event, the final watermark passes t when the input
  // ends: a window that only the end of input releases counts from then, not
  // from a creation time that never comes.
  const Timestamp nominal = saturatingAdd(origin.value, generator_.config().max_out_of_orderness + 1);
  const std::int64_t last = events_ - 1;
  if (nominal > generator_.nominalTime(last)) return createdNs(last);
  const std::int64_t first = generator_.firstEventAtOrAfter(nominal);
  const std::int64_t block = eventsPerSubtaskBlock(generator_.config());
  const std::int64_t last_subtask_there = std::max(first, (first / block + parallelism_ - 1) * block);
  return createdNs(std::min(last_subtask_there, last));
}

void ResultRecorder::add(std::int64_t results, const LatencyHistogram& latencies, std::vector<std::string> sample) {
  std::lock_guard<std::mutex> lock(mutex_);
  results_ += results;
  latencies_.merge(latencies);
  for (auto& line : sample) {
    if (sample_.size() == sample_size_) break;
    sample_.push_back(std::move(line));
  }
}

std::int64_t ResultRecorder::results() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return results_;
}

LatencyHistogram ResultRecorder::latencies() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return latencies_;
}

std::vector<std::string> ResultRecorder::sample() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sample_;
}

const Query* findQuery(std::string_view name) {
  const auto& queries = allQueries();
  const auto found = std::find_if(queries.begin(), queries.end(), [name](const Query& q) { return q.name == name; });
  return found == queries.end() ? nullptr : &*found;
}

}  // namespace tidemark::nexmark
