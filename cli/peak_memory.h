// The process's peak resident memory, resettable between runs so that each
// query of `tidemark nexmark --all` reports its own peak.
#pragma once

#include <cstdint>

namespace tidemark::cli {

/// Resets the peak to the current resident size (Linux: /proc/self/clear_refs);
/// false when the kernel does not allow it (the peak then covers earlier runs).
bool resetPeakResidentBytes();
std::uint64_t peakResidentBytes();

}  // namespace tidemark::cli
