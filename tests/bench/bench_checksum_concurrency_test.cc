// The benchmark workloads must compute the right thing, or their throughput
// means nothing: run them as real jobs on small inputs at several
// parallelisms and compare with the same results computed by brute force.
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "../../bench/workloads.h"

namespace tidemark::bench {
namespace {

struct Expected {
  std::uint64_t checksum = 0;
  std::int64_t results = 0;
};

// Deliberately naive: one pass over the input in order, no parallelism.
Expected bruteForceSourceOnly(std::int64_t records) {
  Expected expected;
  for (std::int64_t i = 0; i < records; ++i) {
    expected.checksum += checksumTerm(keyOf(i), i);
    ++expected.results;
  }
  return expected;
}

Expected bruteForceMapKeyByReduce(std::int64_t records) {
  std::vector<std::int64_t> sum(static_cast<std::size_t>(kNumKeys), 0);
  std::vector<bool> seen(static_cast<std::size_t>(kNumKeys), false);
  for (std::int64_t i = 0; i < records; ++i) {
    const auto key = static_cast<std::size_t>(keyOf(i));
    sum[key] += mapValue(i);
    seen[key] = true;
  }
  Expected expected;
  for (std::int64_t key = 0; key < kNumKeys; ++key) {
    if (!seen[static_cast<std::size_t>(key)]) continue;
    expected.checksum += checksumTerm(key, sum[static_cast<std::size_t>(key)]);
    ++expected.results;
  }
  return expected;
}

// Every record asks for a timer at (key, timestamp + delay); duplicates fire once.
Expected bruteForceKeyedTimers(std::int64_t records, std::int64_t records_per_milli) {
  std::set<std::pair<std::int64_t, Timestamp>> timers;
  for (std::int64_t i = 0; i < records; ++i) {
    timers.emplace(keyOf(i), i / records_per_milli + kTimerDelay);
  }
  Expected expected;
  for (const auto& [key, time] : timers) expected.checksum += checksumTerm(key, time);
  expected.results = static_cast<std::int64_t>(timers.size());
  return expected;
}

// Every (key, window) a record falls into, summed; windows of `size` every
// `slide` ms aligned to 0.
Expected bruteForceWindowSums(std::int64_t records, std::int64_t records_per_milli, std::int64_t keys, Duration size,
                              Duration slide) {
  std::map<std::pair<std::int64_t, Timestamp>, std::int64_t> sums;  // (key, window end) -> sum
  for (std::int64_t i = 0; i < records; ++i) {
    const Timestamp t = i / records_per_milli;
    for (Timestamp start = t - t % slide; start > t - size; start -= slide) sums[{keyOf(i, keys), start + size}] += i;
  }
  Expected expected;
  for (const auto& [window, sum] : sums) expected.checksum += windowResultTerm(window.first, window.second - 1, sum);
  expected.results = static_cast<std::int64_t>(sums.size());
  return expected;
}

// Sessions by scanning each session key's timestamps in order.
Expected bruteForceSessionCount(std::int64_t records, std::int64_t records_per_milli) {
  std::map<std::int64_t, std::vector<Timestamp>> times;
  for (std::int64_t i = 0; i < records; ++i) {
    const Timestamp t = i / records_per_milli * kSessionTimestampStride;
    times[sessionKeyOf(keyOf(i), t)].push_back(t);
  }
  Expected expected;
  for (const auto& [key, ts] : times) {
    std::int64_t count = 0;
    Timestamp end = 0;
    for (const Timestamp t : ts) {
      if (count > 0 && t > end) {  // (the stride keeps t != end: touching is timing-dependent)
        expected.checksum += windowResultTerm(key, end - 1, count);
        ++expected.results;
        count = 0;
      }
      ++count;
      end = std::max(end, t + kSessionGap);
    }
    expected.checksum += windowResultTerm(key, end - 1, count);
    ++expected.results;
  }
  return expected;
}

WorkloadResult run(const char* name, std::int64_t records, int parallelism,
                   std::int64_t records_per_milli = kDefaultRecordsPerMilli,
                   WatermarkMode watermarks = WatermarkMode::kSource) {
  const Workload* workload = findWorkload(name);
  EXPECT_NE(workload, nullptr) << name;
  if (workload == nullptr) return {};
  WorkloadOptions options;
  options.records = records;
  options.parallelism = parallelism;
  options.records_per_milli = records_per_milli;
  options.watermarks = watermarks;
  return workload->run(options);
}

constexpr std::int64_t kRecords = 50'000;

TEST(BenchChecksumTest, WorkloadsAreListedAndFound) {
  EXPECT_NE(findWorkload("source-only"), nullptr);
  EXPECT_NE(findWorkload("map-keyby-reduce"), nullptr);
  EXPECT_NE(findWorkload("keyed-timers"), nullptr);
  EXPECT_NE(findWorkload("tumbling-sum"), nullptr);
  EXPECT_NE(findWorkload("sliding-sum"), nullptr);
  EXPECT_NE(findWorkload("session-count"), nullptr);
  EXPECT_NE(findWorkload("tumbling-sum-1m-keys"), nullptr);
  EXPECT_EQ(findWorkload("no-such-workload"), nullptr);
}

TEST(BenchChecksumTest, SourceOnlyMatchesBruteForce) {
  const Expected expected = bruteForceSourceOnly(kRecords);
  for (int parallelism : {1, 2, 3}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = run("source-only", kRecords, parallelism);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.output_records, kRecords);
    EXPECT_EQ(result.checksum, expected.checksum);
  }
}

TEST(BenchChecksumTest, MapKeyByReduceMatchesBruteForce) {
  const Expected expected = bruteForceMapKeyByReduce(kRecords);
  ASSERT_GT(expected.results, kNumKeys * 9 / 10);  // nearly every key, so every reduce subtask has work
  // 3 does not divide the input: subtasks get unequal shares.
  for (int parallelism : {1, 2, 3}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = run("map-keyby-reduce", kRecords, parallelism);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.output_records, kRecords);
    EXPECT_EQ(result.checksum, expected.checksum);
  }
}

TEST(BenchChecksumTest, MapKeyByReduceWithFewerRecordsThanKeys) {
  const Expected expected = bruteForceMapKeyByReduce(777);
  for (int parallelism : {1, 2}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = run("map-keyby-reduce", 777, parallelism);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.checksum, expected.checksum);
  }
}

// 50 ms of event time: every timer is still pending at the end of input and
// fires on the final MAX watermark.
TEST(BenchChecksumTest, KeyedTimersMatchBruteForce) {
  const Expected expected = bruteForceKeyedTimers(kRecords, kDefaultRecordsPerMilli);
  ASSERT_LT(expected.results, kRecords);  // some records share (key, time): dedup is exercised
  for (int parallelism : {1, 2}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = run("keyed-timers", kRecords, parallelism);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.output_records, kRecords);
    EXPECT_EQ(result.checksum, expected.checksum);
  }
}

// 5000 ms of event time: most timers fire on the generator's watermarks while
// records still arrive, the rest on MAX.
TEST(BenchChecksumTest, KeyedTimersFiredByWatermarksMatchBruteForce) {
  constexpr std::int64_t kRecordsPerMilli = 10;
  const Expected expected = bruteForceKeyedTimers(kRecords, kRecordsPerMilli);
  for (int parallelism : {1, 2, 3}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = run("keyed-timers", kRecords, parallelism, kRecordsPerMilli);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.checksum, expected.checksum);
  }
}

TEST(BenchChecksumTest, KeyedTimersWithWatermarkStrategyMatchBruteForce) {
  constexpr std::int64_t kRecordsPerMilli = 10;
  const Expected expected = bruteForceKeyedTimers(kRecords, kRecordsPerMilli);
  for (int parallelism : {1, 2}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result =
        run("keyed-timers", kRecords, parallelism, kRecordsPerMilli, WatermarkMode::kStrategy);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.checksum, expected.checksum);
  }
}

// 10 records per ms: 5 s of event time, so windows fire while records still
// arrive, and the last ones on MAX.
constexpr std::int64_t kWindowRecordsPerMilli = 10;

TEST(BenchChecksumTest, TumblingSumMatchesBruteForce) {
  const Expected expected = bruteForceWindowSums(kRecords, kWindowRecordsPerMilli, kNumKeys, kWindowSize, kWindowSize);
  for (int parallelism : {1, 2, 3}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = run("tumbling-sum", kRecords, parallelism, kWindowRecordsPerMilli);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.checksum, expected.checksum);
    EXPECT_GT(result.window_state_entries_at_peak, 0u);
  }
}

TEST(BenchChecksumTest, SlidingSumMatchesBruteForce) {
  const Expected expected =
      bruteForceWindowSums(kRecords, kWindowRecordsPerMilli, kNumKeys, kSlidingSize, kSlidingSlide);
  for (int parallelism : {1, 2}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = run("sliding-sum", kRecords, parallelism, kWindowRecordsPerMilli);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.checksum, expected.checksum);
  }
}

TEST(BenchChecksumTest, TumblingSumManyKeysMatchesBruteForce) {
  const Expected expected = bruteForceWindowSums(kRecords, kWindowRecordsPerMilli, kManyKeys, kWindowSize, kWindowSize);
  for (int parallelism : {1, 2}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = run("tumbling-sum-1m-keys", kRecords, parallelism, kWindowRecordsPerMilli);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.checksum, expected.checksum);
  }
}

TEST(BenchChecksumTest, SessionCountMatchesBruteForce) {
  // 1 record per ms: a key recurs about every 10 s, longer than the gap, so
  // sessions also close inside an epoch.
  for (std::int64_t records_per_milli : {std::int64_t{1}, kWindowRecordsPerMilli}) {
    const Expected expected = bruteForceSessionCount(kRecords, records_per_milli);
    for (int parallelism : {1, 2}) {
      SCOPED_TRACE(::testing::Message() << "records/ms " << records_per_milli << ", parallelism " << parallelism);
      const WorkloadResult result = run("session-count", kRecords, parallelism, records_per_milli);
      EXPECT_EQ(result.results, expected.results);
      EXPECT_EQ(result.checksum, expected.checksum);
    }
  }
}

}  // namespace
}  // namespace tidemark::bench
