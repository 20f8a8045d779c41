#include "latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace tidemark::nexmark {

std::size_t LatencyHistogram::bucketOf(std::uint64_t nanos) {
  if (nanos < kLinear) return static_cast<std::size_t>(nanos);
  const int msb = 63 - std::countl_zero(nanos);  // >= 6
  const std::uint64_t sub = (nanos >> (msb - kSubBits)) & ((1u << kSubBits) - 1);
  return kLinear + static_cast<std::size_t>(msb - 6) * (std::size_t{1} << kSubBits) + static_cast<std::size_t>(sub);
}

std::int64_t LatencyHistogram::middleOf(std::size_t bucket) {
  if (bucket < kLinear) return static_cast<std::int64_t>(bucket);
  const std::size_t above = bucket - kLinear;
  const int msb = static_cast<int>(above >> kSubBits) + 6;
  const std::uint64_t sub = above & ((1u << kSubBits) - 1);
  const std::uint64_t lower = ((std::uint64_t{1} << kSubBits) + sub) << (msb - kSubBits);
  const std::uint64_t width = std::uint64_t{1} << (msb - kSubBits);
  return static_cast<std::int64_t>(lower + width / 2);
}

void LatencyHistogram::record(std::int64_t nanos) {
  const std::int64_t clamped = std::max<std::int64_t>(nanos, 0);
  ++buckets_[bucketOf(static_cast<std::uint64_t>(clamped))];
  ++count_;
  max_ = std::max(max_, clamped);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  for (std::size_t b = 0; b < kBuckets; ++b) buckets_[b] += other.buckets_[b];
  count_ += other.count_;
  max_ = std::max(max_, other.max_);
}

std::int64_t LatencyHistogram::percentile(double percent) const {
  if (count_ == 0) return 0;
  const auto rank = std::max<std::int64_t>(
      1, static_cast<std::int64_t>(std::ceil(percent / 100.0 * static_cast<double>(count_))));
  std::int64_t seen = 0;
  for (std::size_t b = 0; b < kBuckets; ++b) {
    seen += buckets_[b];
    if (seen >= rank) return std::min(middleOf(b), max_);
  }
  return max_;
}

}  // namespace tidemark::nexmark
