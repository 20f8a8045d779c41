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

// cep-login: per user, in generator order, every three consecutive events
// that are all failures with the third less than the window after the first
// (next() is strict contiguity among the user's own events; without a skip
// strategy every failure starts its own attempt, so runs overlap).
Expected bruteForceCepLogin(std::int64_t records, std::int64_t records_per_milli, const CepLoginParams& params) {
  std::vector<std::vector<std::int64_t>> events(static_cast<std::size_t>(params.users));
  for (std::int64_t i = 0; i < records; ++i) events[static_cast<std::size_t>(keyOf(i, params.users))].push_back(i);
  Expected expected;
  for (std::int64_t user = 0; user < params.users; ++user) {
    const std::vector<std::int64_t>& seqs = events[static_cast<std::size_t>(user)];
    for (std::size_t k = 0; k + 2 < seqs.size(); ++k) {
      bool all_fail = true;
      for (std::size_t j = k; j < k + 3; ++j) all_fail = all_fail && loginTypeOf(seqs[j], params) == kLoginFail;
      if (!all_fail) continue;
      if (timestampOf(seqs[k + 2], records_per_milli) - timestampOf(seqs[k], records_per_milli) >= kLoginWindow) {
        continue;
      }
      std::uint64_t term = cepMatchStart(user);
      for (std::size_t j = k; j < k + 3; ++j) term = cepFold(term, seqs[j]);
      expected.checksum += term;
      ++expected.results;
    }
  }
  return expected;
}

// cep-any, per key in generator order. An A at time t starts a match;
// followedByAny lets any later B be the first "middle"; oneOrMore with its
// default (relaxed) inner contiguity then takes B's that follow it among the
// key's B's without gaps (other events in between are skipped, a B never),
// and may stop after any of them: "middle" is a run b_i..b_j of consecutive
// B's after the A. followedBy (relaxed) makes "end" the first C after b_j.
// The match counts when that C is less than the window after the A. So each
// (A, i <= j) whose C exists in time is one match.
Expected bruteForceCepAny(std::int64_t records, std::int64_t records_per_milli, const CepAnyParams& params) {
  std::vector<std::vector<std::int64_t>> events(static_cast<std::size_t>(params.keys));
  for (std::int64_t i = 0; i < records; ++i) events[static_cast<std::size_t>(keyOf(i, params.keys))].push_back(i);
  Expected expected;
  for (std::int64_t key = 0; key < params.keys; ++key) {
    const std::vector<std::int64_t>& seqs = events[static_cast<std::size_t>(key)];
    for (std::size_t p = 0; p < seqs.size(); ++p) {
      if (anyTypeOf(seqs[p], params) != kTypeA) continue;
      const Timestamp expires = timestampOf(seqs[p], records_per_milli) + params.window;
      std::vector<std::size_t> bs;  // the B's after the A, in order
      for (std::size_t q = p + 1; q < seqs.size(); ++q) {
        if (anyTypeOf(seqs[q], params) == kTypeB) bs.push_back(q);
      }
      for (std::size_t j = 0; j < bs.size(); ++j) {
        std::size_t c = bs[j] + 1;
        while (c < seqs.size() && anyTypeOf(seqs[c], params) != kTypeC) ++c;
        if (c == seqs.size() || timestampOf(seqs[c], records_per_milli) >= expires) continue;
        for (std::size_t i = 0; i <= j; ++i) {
          std::uint64_t term = cepFold(cepMatchStart(key), seqs[p]);
          for (std::size_t b = i; b <= j; ++b) term = cepFold(term, seqs[bs[b]]);
          expected.checksum += cepFold(term, seqs[c]);
          ++expected.results;
        }
      }
    }
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
  EXPECT_NE(findWorkload("tumbling-aggregate-process"), nullptr);
  EXPECT_NE(findWorkload("cep-login"), nullptr);
  EXPECT_NE(findWorkload("cep-any"), nullptr);
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

TEST(BenchChecksumTest, TumblingAggregateProcessMatchesBruteForce) {
  const Expected expected = bruteForceWindowSums(kRecords, kWindowRecordsPerMilli, kNumKeys, kWindowSize, kWindowSize);
  for (int parallelism : {1, 2}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = run("tumbling-aggregate-process", kRecords, parallelism, kWindowRecordsPerMilli);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.checksum, expected.checksum);
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

WorkloadOptions cepOptions(std::int64_t records, int parallelism, std::int64_t records_per_milli) {
  WorkloadOptions options;
  options.records = records;
  options.parallelism = parallelism;
  options.records_per_milli = records_per_milli;
  return options;
}

// Denser than the benchmark (5,000 users, 30 % failures) so that a small input
// has hundreds of matches. At 1 record per ms a user's events are ~5 s apart,
// so many runs of three failures are too slow for the 10 s window.
TEST(BenchChecksumTest, CepLoginMatchesBruteForce) {
  const CepLoginParams params{.users = 5000, .fail_per_mille = 300};
  constexpr std::int64_t kRecordsPerMilli = 1;
  const Expected expected = bruteForceCepLogin(kRecords, kRecordsPerMilli, params);
  const Expected unbounded = bruteForceCepLogin(kRecords, kRecordsPerMilli * 1'000'000, params);
  ASSERT_GT(expected.results, 200);
  ASSERT_GT(unbounded.results, expected.results * 5 / 4);  // the window rejects many runs
  for (int parallelism : {1, 2}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = runCepLoginWith(cepOptions(kRecords, parallelism, kRecordsPerMilli), params);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.checksum, expected.checksum);
    EXPECT_GT(result.peak_partial_matches, 0u);
    EXPECT_EQ(result.partial_matches_at_end, 0u);
    EXPECT_EQ(result.buffered_events_at_end, 0u);
  }
}

// 10 records per ms over 200 users: events of one user often share a
// millisecond, and at parallelism 2 come from both source subtasks.
TEST(BenchChecksumTest, CepLoginWithSharedTimestampsMatchesBruteForce) {
  const CepLoginParams params{.users = 200, .fail_per_mille = 300};
  constexpr std::int64_t kRecordsPerMilli = 10;
  const Expected expected = bruteForceCepLogin(kRecords, kRecordsPerMilli, params);
  ASSERT_GT(expected.results, 200);
  for (int parallelism : {1, 2}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = runCepLoginWith(cepOptions(kRecords, parallelism, kRecordsPerMilli), params);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.checksum, expected.checksum);
  }
}

// 50 keys, 10 records per ms: a key has an event every ~5 ms, about 20 per
// 100 ms window (1 A, 4 B's, 1 C), and several per millisecond across keys;
// 2.5 s of event time.
TEST(BenchChecksumTest, CepAnyMatchesBruteForce) {
  const CepAnyParams params{.keys = 50, .window = 100, .a_below = 50, .b_below = 250, .c_below = 300};
  constexpr std::int64_t kRecordsPerMilli = 10;
  constexpr std::int64_t kAnyRecords = 25'000;  // every event visits all partial matches of its key: slow under TSan
  const Expected expected = bruteForceCepAny(kAnyRecords, kRecordsPerMilli, params);
  ASSERT_GT(expected.results, 1000) << expected.results;
  for (int parallelism : {1, 2}) {
    SCOPED_TRACE(parallelism);
    const WorkloadResult result = runCepAnyWith(cepOptions(kAnyRecords, parallelism, kRecordsPerMilli), params);
    EXPECT_EQ(result.results, expected.results);
    EXPECT_EQ(result.checksum, expected.checksum);
    EXPECT_GT(result.peak_partial_matches, 50u);  // several per key at once
    EXPECT_EQ(result.partial_matches_at_end, 0u);
    EXPECT_EQ(result.buffered_events_at_end, 0u);
  }
}

}  // namespace
}  // namespace tidemark::bench
