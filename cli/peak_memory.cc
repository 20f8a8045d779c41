#include "peak_memory.h"

#include <sys/resource.h>

#include <fstream>
#include <string>

namespace tidemark::cli {

bool resetPeakResidentBytes() {
  std::ofstream clear_refs("/proc/self/clear_refs");
  clear_refs << "5";  // 5: reset the peak resident set size
  clear_refs.flush();
  return static_cast<bool>(clear_refs);
}

std::uint64_t peakResidentBytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      std::uint64_t kib = 0;
      status >> kib;
      return kib * 1024;
    }
    status.ignore(4096, '\n');
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

}  // namespace tidemark::cli
