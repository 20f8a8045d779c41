#include "reference_registry.h"

#include <algorithm>

#include "nexmark/reference/q1_reference.h"
#include "nexmark/reference/q5_reference.h"
#include "nexmark/reference/q7_reference.h"

namespace tidemark::nexmark {

const std::vector<ReferenceProgram>& allReferencePrograms() {
  static const std::vector<ReferenceProgram> programs = {
      ReferenceProgram{"q1",
                       [](const EventGenerator& generator, std::int64_t events, ResultRecorder& recorder) {
                         ReferenceResults<Event> results(recorder);
                         q1Reference(generator, events, results);
                       }},
      ReferenceProgram{"q5",
                       [](const EventGenerator& generator, std::int64_t events, ResultRecorder& recorder) {
                         ReferenceResults<HotItem> results(recorder);
                         q5Reference(generator, events, results);
                       }},
      ReferenceProgram{"q7",
                       [](const EventGenerator& generator, std::int64_t events, ResultRecorder& recorder) {
                         ReferenceResults<HighestBid> results(recorder);
                         q7Reference(generator, events, results);
                       }},
  };
  return programs;
}

const ReferenceProgram* findReferenceProgram(std::string_view query) {
  const auto& programs = allReferencePrograms();
  const auto found =
      std::find_if(programs.begin(), programs.end(), [query](const ReferenceProgram& p) { return p.query == query; });
  return found == programs.end() ? nullptr : &*found;
}

}  // namespace tidemark::nexmark
