// Partitioners choose the downstream channel of each record.
#include "tidemark/internal/runtime/partitioner.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tidemark/internal/runtime/channel.h"
#include "tidemark/internal/runtime/record_writer.h"

namespace tidemark::internal {
namespace {

TEST(ForwardPartitionerTest, AlwaysTheOnlyChannel) {
  ForwardPartitioner p;
  for (int v = 0; v < 10; ++v) EXPECT_EQ(p.select(v, 1), 0);
}

TEST(GlobalPartitionerTest, AlwaysTheFirstSubtask) {
  GlobalPartitioner p;
  for (int v = 0; v < 10; ++v) EXPECT_EQ(p.select(v, 4), 0);
}

TEST(RebalancePartitionerTest, RoundRobinStartingAtTheProducersIndex) {
  RebalancePartitioner p(2);
  std::vector<int> picks;
  for (int i = 0; i < 7; ++i) picks.push_back(p.select(0, 3));
  EXPECT_EQ(picks, (std::vector<int>{2, 0, 1, 2, 0, 1, 2}));
}

TEST(KeyGroupPartitionerTest, SameKeySameSubtaskMatchingTheOwnedKeyGroupRange) {
  std::function<std::string(const std::string&)> selector = [](const std::string& s) { return s.substr(0, 1); };
  KeyGroupPartitioner<decltype(selector)> p(selector, 128);
  for (const std::string value : {"apple", "avocado", "banana", "blueberry", "cherry", "date", "elderberry"}) {
    const int subtask = p.select(value, 3);
    EXPECT_EQ(subtask, p.select(value.substr(0, 1) + "zzz", 3)) << value;
    const int group = assignToKeyGroup(value.substr(0, 1), 128);
    EXPECT_TRUE(computeKeyGroupRangeForOperatorIndex(128, 3, subtask).contains(group)) << value;
  }
}

TEST(KeyGroupPartitionerTest, SpreadsManyKeysOverAllSubtasks) {
  std::function<std::int64_t(const std::int64_t&)> identity = [](const std::int64_t& v) { return v; };
  KeyGroupPartitioner<decltype(identity)> p(identity, 128);
  std::vector<int> counts(4, 0);
  for (std::int64_t k = 0; k < 10000; ++k) ++counts[static_cast<std::size_t>(p.select(k, 4))];
  for (int c : counts) EXPECT_GT(c, 2000);
}

/// Drain every batch of a channel into (records, controls) as text.
std::vector<std::string> drain(Channel<int>& channel) {
  std::vector<std::string> out;
  while (auto batch = channel.tryPop()) {
    std::size_t next_control = 0;
    auto controls_at = [&](std::size_t position) {
      while (next_control < batch->controls.size() && batch->controls[next_control].position == position) {
        const auto& c = batch->controls[next_control++];
        out.push_back(c.kind == ControlKind::WATERMARK ? "wm " + std::to_string(c.watermark)
                      : c.kind == ControlKind::END_OF_INPUT ? "end"
                                                            : "status");
      }
    };
    for (std::size_t i = 0; i < batch->records.size(); ++i) {
      controls_at(i);
      out.push_back(std::to_string(batch->records[i].value));
    }
    controls_at(batch->records.size());
    channel.recycle(std::move(batch));
  }
  return out;
}

TEST(RecordWriterTest, BroadcastSendsEveryRecordAndWatermarkToEveryChannel) {
  Channel<int> a(4, false);
  Channel<int> b(4, false);
  RecordWriter<int, BroadcastPartitioner> writer({&a, &b}, BroadcastPartitioner{}, false, nullptr);
  StreamRecord<int> r1{1, 10, true};
  StreamRecord<int> r2{2, 20, true};
  writer.collect(r1);
  writer.emitWatermark(15);
  writer.collect(r2);
  writer.sendEndOfInput();
  const std::vector<std::string> expected{"1", "wm 15", "2", "end"};
  EXPECT_EQ(drain(a), expected);
  EXPECT_EQ(drain(b), expected);
}

TEST(RecordWriterTest, KeepsRecordsBufferedUntilFlushUnlessFlushingEveryRecord) {
  Channel<int> buffered(4, false);
  RecordWriter<int, ForwardPartitioner> lazy({&buffered}, ForwardPartitioner{}, false, nullptr);
  StreamRecord<int> r{7, 0, false};
  lazy.collect(r);
  EXPECT_FALSE(buffered.hasData());
  lazy.flush();
  EXPECT_EQ(drain(buffered), (std::vector<std::string>{"7"}));

  Channel<int> eager(4, false);
  RecordWriter<int, ForwardPartitioner> flushing({&eager}, ForwardPartitioner{}, true, nullptr);
  StreamRecord<int> r2{8, 0, false};
  flushing.collect(r2);
  EXPECT_EQ(drain(eager), (std::vector<std::string>{"8"}));
}

TEST(RecordWriterTest, SendsAFullBatchWithoutAFlush) {
  Channel<int> channel(4, false);
  RecordWriter<int, ForwardPartitioner> writer({&channel}, ForwardPartitioner{}, false, nullptr);
  for (std::size_t i = 0; i < kBatchSize; ++i) {
    StreamRecord<int> r{static_cast<int>(i), 0, false};
    writer.collect(r);
  }
  EXPECT_EQ(drain(channel).size(), kBatchSize);
}

TEST(RecordWriterTest, RebalanceAlternatesChannels) {
  Channel<int> a(4, false);
  Channel<int> b(4, false);
  RecordWriter<int, RebalancePartitioner> writer({&a, &b}, RebalancePartitioner{0}, false, nullptr);
  for (int v = 1; v <= 5; ++v) {
    StreamRecord<int> r{v, 0, false};
    writer.collect(r);
  }
  writer.flush();
  EXPECT_EQ(drain(a), (std::vector<std::string>{"1", "3", "5"}));
  EXPECT_EQ(drain(b), (std::vector<std::string>{"2", "4"}));
}

TEST(ChannelTest, ReportsFullAtCapacityAndRefusesPushesAfterCancel) {
  Channel<int> channel(2, false);
  EXPECT_TRUE(channel.hasSpace());
  EXPECT_TRUE(channel.push(channel.takeEmptyBatch()));
  EXPECT_TRUE(channel.push(channel.takeEmptyBatch()));
  EXPECT_FALSE(channel.hasSpace());
  channel.cancel();
  EXPECT_FALSE(channel.push(channel.takeEmptyBatch()));
}

}  // namespace
}  // namespace tidemark::internal
