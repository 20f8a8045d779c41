// Latencies in nanoseconds, bucketed log-linearly: exact below 64 ns, then 32
// buckets per power of two (within ~3 %). Recording is an array increment,
// so a sink can record every result; histograms of parallel sinks merge.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace tidemark::nexmark {

class LatencyHistogram {
 public:
  void record(std::int64_t nanos);
  void merge(const LatencyHistogram& other);

  std::int64_t count() const { return count_; }
  /// The latency at or below which `percent` % of the recorded ones lie
  /// (the middle of its bucket); 0 when nothing was recorded.
  std::int64_t percentile(double percent) const;
  std::int64_t max() const { return max_; }

 private:
  static constexpr std::size_t kLinear = 64;
  static constexpr int kSubBits = 5;
  static constexpr std::size_t kBuckets = kLinear + (63 - 6 + 1) * (std::size_t{1} << kSubBits);

  static std::size_t bucketOf(std::uint64_t nanos);
  static std::int64_t middleOf(std::size_t bucket);

  std::array<std::int64_t, kBuckets> buckets_{};
  std::int64_t count_ = 0;
  std::int64_t max_ = 0;
};

}  // namespace tidemark::nexmark
