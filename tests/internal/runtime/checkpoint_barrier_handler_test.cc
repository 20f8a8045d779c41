// Barrier alignment, alone and behind a ChannelInputProcessor: which
// channels are held back, when the snapshot is taken, and which records
// reach the operator before it.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tidemark/internal/runtime/checkpoint_barrier_handler.h"
#include "tidemark/internal/runtime/input_processor.h"

namespace tidemark::internal {
namespace {

/// Records what it sees, snapshots included, in one log.
class Recorder final : public OneInputOperator<int, int>, public AlignedCheckpointTarget {
 public:
  void processElement(StreamRecord<int>& record) override { log.push_back(std::to_string(record.value)); }
  void processWatermark(Timestamp watermark) override { log.push_back("wm " + std::to_string(watermark)); }
  void onAligned(std::int64_t checkpoint_id) override { log.push_back("snapshot " + std::to_string(checkpoint_id)); }
  std::vector<std::string> log;
};

TEST(CheckpointBarrierHandlerTest, ExactlyOnceBlocksEachChannelUntilTheLastBarrierArrives) {
  Recorder target;
  CheckpointBarrierHandler handler(CheckpointingMode::EXACTLY_ONCE, target);
  EXPECT_EQ(handler.addChannels(2), 0u);
  EXPECT_EQ(handler.addChannels(1), 2u);
  EXPECT_TRUE(handler.onBarrier(0, 1));
  EXPECT_TRUE(handler.onBarrier(2, 1));
  EXPECT_TRUE(handler.isBlocked(0));
  EXPECT_FALSE(handler.isBlocked(1));
  EXPECT_EQ(handler.pendingCheckpoint(), 1);
  EXPECT_TRUE(target.log.empty());
  EXPECT_FALSE(handler.onBarrier(1, 1));
  EXPECT_EQ(target.log, (std::vector<std::string>{"snapshot 1"}));
  EXPECT_FALSE(handler.isBlocked(0));
  EXPECT_FALSE(handler.isBlocked(2));
  EXPECT_EQ(handler.pendingCheckpoint(), 0);
}

TEST(CheckpointBarrierHandlerTest, AtLeastOnceNeverBlocksAndSnapshotsAtTheLastBarrier) {
  Recorder target;
  CheckpointBarrierHandler handler(CheckpointingMode::AT_LEAST_ONCE, target);
  handler.addChannels(2);
  EXPECT_FALSE(handler.onBarrier(1, 1));
  EXPECT_FALSE(handler.isBlocked(1));
  EXPECT_TRUE(target.log.empty());
  EXPECT_FALSE(handler.onBarrier(0, 1));
  EXPECT_EQ(target.log, (std::vector<std::string>{"snapshot 1"}));
}

TEST(CheckpointBarrierHandlerTest, AnEndedChannelCountsAsHavingDeliveredTheBarrier) {
  Recorder target;
  CheckpointBarrierHandler handler(CheckpointingMode::EXACTLY_ONCE, target);
  handler.addChannels(3);
  handler.onEndOfChannel(2);
  EXPECT_TRUE(handler.onBarrier(0, 1));
  handler.onEndOfChannel(1);  // the last one missing ends: the checkpoint is aligned
  EXPECT_EQ(target.log, (std::vector<std::string>{"snapshot 1"}));
  EXPECT_FALSE(handler.isBlocked(0));
  EXPECT_FALSE(handler.onBarrier(0, 2));  // the only live channel: aligned at once
  EXPECT_EQ(target.log, (std::vector<std::string>{"snapshot 1", "snapshot 2"}));
}

TEST(CheckpointBarrierHandlerTest, ANewerBarrierDropsTheAlignmentOfAnOlderCheckpoint) {
  Recorder target;
  CheckpointBarrierHandler handler(CheckpointingMode::EXACTLY_ONCE, target);
  handler.addChannels(2);
  EXPECT_TRUE(handler.onBarrier(0, 1));
  EXPECT_TRUE(handler.onBarrier(1, 2));  // checkpoint 1 was aborted upstream
  EXPECT_FALSE(handler.isBlocked(0));    // released: it has not delivered barrier 2 yet
  EXPECT_FALSE(handler.onBarrier(1, 1)); // stale
  EXPECT_FALSE(handler.onBarrier(0, 2));
  EXPECT_EQ(target.log, (std::vector<std::string>{"snapshot 2"}));
  EXPECT_FALSE(handler.onBarrier(0, 1));  // older than the last completed: ignored
  EXPECT_EQ(target.log, (std::vector<std::string>{"snapshot 2"}));
}

/// Two channels into one operator through a ChannelInputProcessor.
class AlignedInput {
 public:
  explicit AlignedInput(CheckpointingMode mode) : handler_(mode, target) {
    for (auto& channel : channels_) channel = std::make_unique<Channel<int>>(8, false);
    processor_ = std::make_unique<ChannelInputProcessor<int>>(
        std::vector<Channel<int>*>{channels_[0].get(), channels_[1].get()}, target, target);
    processor_->attachBarrierHandler(handler_);
  }

  /// Pushes one batch: numbers are records, "|n" a barrier of checkpoint n, "wm n" a watermark.
  void push(int channel, const std::vector<std::string>& elements) {
    auto batch = channels_[static_cast<std::size_t>(channel)]->takeEmptyBatch();
    for (const std::string& e : elements) {
      if (e[0] == '|') {
        batch->addControl(ControlKind::BARRIER, kMinWatermark, WatermarkStatus::ACTIVE, std::stoll(e.substr(1)));
      } else if (e.rfind("wm ", 0) == 0) {
        batch->addControl(ControlKind::WATERMARK, std::stoll(e.substr(3)));
      } else {
        batch->records.push_back(StreamRecord<int>{std::stoi(e), 0, false});
      }
    }
    channels_[static_cast<std::size_t>(channel)]->push(std::move(batch));
  }

  void drain() {
    while (processor_->processOneBatch() == InputProcessor::Result::PROCESSED) {
    }
  }

  Recorder target;

 private:
  CheckpointBarrierHandler handler_;
  std::unique_ptr<Channel<int>> channels_[2];
  std::unique_ptr<ChannelInputProcessor<int>> processor_;
};

TEST(CheckpointBarrierHandlerTest, ExactlyOnceHoldsTheRestOfABlockedBatchAndTheChannelsLaterBatches) {
  AlignedInput input(CheckpointingMode::EXACTLY_ONCE);
  input.push(0, {"1", "|1", "2"});
  input.push(0, {"3"});
  input.push(1, {"10", "11"});
  input.push(1, {"12", "|1", "13"});
  input.drain();
  // Channel 0 blocks after 1 (its rest and its next batch wait); channel 1
  // goes on up to its barrier, which completes the alignment: the snapshot,
  // the rest of that batch, then channel 0's held rest before its next batch.
  EXPECT_EQ(input.target.log,
            (std::vector<std::string>{"1", "10", "11", "12", "snapshot 1", "13", "2", "3"}));
}

TEST(CheckpointBarrierHandlerTest, AtLeastOnceLetsRecordsAfterABarrierThroughBeforeTheSnapshot) {
  AlignedInput input(CheckpointingMode::AT_LEAST_ONCE);
  input.push(0, {"1", "|1", "2"});
  input.push(1, {"10"});
  input.push(1, {"|1", "11"});
  input.drain();
  EXPECT_EQ(input.target.log, (std::vector<std::string>{"1", "2", "10", "snapshot 1", "11"}));
}

}  // namespace
}  // namespace tidemark::internal
