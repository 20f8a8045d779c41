// The hand-written reference programs (plain C++ loops over the generator,
// no engine) that `tidemark nexmark --reference` runs, to show what the
// engine costs against the limit of this machine.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nexmark/event_generator.h"
#include "nexmark/query.h"

namespace tidemark::nexmark {

struct ReferenceProgram {
  std::string query;  // the query it computes: "q1", "q5", "q7"
  /// Makes events 0 .. events-1 with `generator` and hands every result to `recorder`.
  std::function<void(const EventGenerator& generator, std::int64_t events, ResultRecorder& recorder)> run;
};

const std::vector<ReferenceProgram>& allReferencePrograms();
/// nullptr when the query has no reference program.
const ReferenceProgram* findReferenceProgram(std::string_view query);

/// Counts and samples results on the calling thread, then hands them to a
/// ResultRecorder once (the reference programs' emit callback).
template <class Out>
class ReferenceResults {
 public:
  explicit ReferenceResults(ResultRecorder& recorder) : recorder_(recorder) {}
  ~ReferenceResults() { recorder_.add(results_, LatencyHistogram{}, std::move(sample_)); }

  ReferenceResults(const ReferenceResults&) = delete;
  ReferenceResults& operator=(const ReferenceResults&) = delete;

  void operator()(const Out& result) {
    ++results_;
    if (sample_.size() < recorder_.sampleSize()) {
      std::ostringstream line;
      line << result;
      sample_.push_back(line.str());
    }
  }

 private:
  ResultRecorder& recorder_;
  std::int64_t results_ = 0;
  std::vector<std::string> sample_;
};

}  // namespace tidemark::nexmark
