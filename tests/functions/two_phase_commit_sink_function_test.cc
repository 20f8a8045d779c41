// TwoPhaseCommitSinkFunction: which transaction each record goes into, when
// a transaction is pre-committed, committed or aborted, and who recovers
// what after a restore, at the same parallelism and at another.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tidemark/functions/two_phase_commit_sink_function.h"
#include "tidemark/internal/operators/sink_operator.h"
#include "tidemark/testing/one_input_harness.h"

namespace tidemark {
namespace {

struct Transaction {
  std::int64_t id = 0;
  std::vector<std::string> values;
  auto fields() { return std::tie(id, values); }
};

/// The sink's context: the id of its next transaction, so ids stay unique across restores.
struct NextId {
  std::int64_t next = 1;
  auto fields() { return std::tie(next); }
};

using Log = std::vector<std::string>;

/// Logs every step as "<subtask>: <step> <transaction id> [values]".
class LoggingSink final : public TwoPhaseCommitSinkFunction<std::string, Transaction, NextId> {
 public:
  explicit LoggingSink(std::shared_ptr<Log> log) : log_(std::move(log)) {}

 protected:
  Transaction beginTransaction() override {
    Transaction transaction{userContext().next++, {}};
    log("begin", transaction);
    return transaction;
  }
  void invoke(Transaction& transaction, const std::string& value, const Context&) override {
    transaction.values.push_back(value);
  }
  void preCommit(Transaction& transaction) override { log("preCommit", transaction); }
  void commit(Transaction& transaction) override { log("commit", transaction); }
  void abort(Transaction& transaction) override { log("abort", transaction); }
  NextId recoverContext(std::vector<RestoredContext> restored) override {
    NextId merged{1};  // above every restored id: ids stay unique when subtasks merge
    for (const auto& each : restored) merged.next = std::max(merged.next, each.context.next);
    return merged;
  }

 private:
  void log(const char* step, const Transaction& transaction) {
    log_->push_back(fmt::format("{}: {} {} [{}]", getRuntimeContext().getIndexOfThisSubtask(), step, transaction.id,
                                fmt::join(transaction.values, " ")));
  }
  std::shared_ptr<Log> log_;
};

using Harness = OneInputStreamOperatorTestHarness<std::string, internal::NoOutput>;

std::unique_ptr<Harness> harness(const std::shared_ptr<Log>& log, int subtask = 0, int parallelism = 1) {
  return std::make_unique<Harness>(
      std::make_unique<internal::SinkOperator<std::string>>(std::make_unique<LoggingSink>(log)),
      OperatorTestHarnessOptions::subtask(subtask, parallelism));
}

TEST(TwoPhaseCommitSinkFunctionTest, ACheckpointPreCommitsTheOpenTransactionAndItsCompletionCommitsIt) {
  auto log = std::make_shared<Log>();
  auto sink = harness(log);
  sink->open();
  sink->processElement("a");
  sink->processElement("b");
  sink->snapshot(1);
  sink->processElement("c");
  sink->notifyOfCompletedCheckpoint(1);
  sink->processElement("d");
  sink->endInput();
  EXPECT_EQ(*log, (Log{"0: begin 1 []", "0: preCommit 1 [a b]", "0: begin 2 []", "0: commit 1 [a b]",
                       "0: preCommit 2 [c d]", "0: commit 2 [c d]"}));
}

TEST(TwoPhaseCommitSinkFunctionTest, ACompletionCommitsEveryPendingTransactionUpToItInOrderAndOnlyOnce) {
  auto log = std::make_shared<Log>();
  auto sink = harness(log);
  sink->open();
  sink->processElement("a");
  sink->snapshot(1);
  sink->processElement("b");
  sink->snapshot(2);
  sink->processElement("c");
  sink->snapshot(3);
  log->clear();
  sink->notifyOfCompletedCheckpoint(2);  // 1 was skipped: 2 covers it
  sink->notifyOfCompletedCheckpoint(1);  // late: nothing left to do
  EXPECT_EQ(*log, (Log{"0: commit 1 [a]", "0: commit 2 [b]"}));
}

TEST(TwoPhaseCommitSinkFunctionTest, ARestoreCommitsThePendingTransactionsAndAbortsTheOpenOne) {
  auto log = std::make_shared<Log>();
  std::vector<OperatorSubtaskState> state;
  {
    auto sink = harness(log);
    sink->open();
    sink->processElement("a");
    sink->snapshot(1);
    sink->notifyOfCompletedCheckpoint(1);
    sink->processElement("b");
    sink->snapshot(2);  // completed, but the job failed before it heard
    sink->processElement("c");
    state.push_back(sink->snapshot(3));
    sink->processElement("d");  // lost with the failure, replayed after the restore
  }
  log->clear();
  auto restored = harness(log);
  restored->initializeState(state);
  restored->open();
  // Transaction 1 was committed already; the checkpoint holds 2 and 3 as
  // pending and 4 as open (begun at checkpoint 3).
  EXPECT_EQ(*log, (Log{"0: commit 2 [b]", "0: commit 3 [c]", "0: abort 4 []", "0: begin 5 []"}));
}

/// The state of `parallelism` subtasks, each with transaction 1 pending and 2 open.
std::vector<OperatorSubtaskState> statesOf(int parallelism) {
  auto log = std::make_shared<Log>();
  std::vector<OperatorSubtaskState> states;
  for (int i = 0; i < parallelism; ++i) {
    auto sink = harness(log, i, parallelism);
    sink->open();
    sink->processElement(fmt::format("from {}", i));
    states.push_back(sink->snapshot(1));
  }
  return states;
}

TEST(TwoPhaseCommitSinkFunctionTest, RestoredAtLowerParallelismEachOldSubtaskIsRecoveredByOneNewSubtask) {
  const std::vector<OperatorSubtaskState> states = statesOf(3);
  auto log = std::make_shared<Log>();
  for (int i = 0; i < 2; ++i) {
    auto sink = harness(log, i, 2);
    sink->initializeState(states);
    sink->open();
  }
  // Old subtask j goes to new subtask j % 2.
  EXPECT_EQ(*log, (Log{"0: commit 1 [from 0]", "0: abort 2 []", "0: commit 1 [from 2]", "0: abort 2 []",
                       "0: begin 3 []", "1: commit 1 [from 1]", "1: abort 2 []", "1: begin 3 []"}));
}

TEST(TwoPhaseCommitSinkFunctionTest, RestoredAtHigherParallelismANewSubtaskWithoutAnOldOneRecoversNothing) {
  const std::vector<OperatorSubtaskState> states = statesOf(1);
  auto log = std::make_shared<Log>();
  for (int i = 0; i < 2; ++i) {
    auto sink = harness(log, i, 2);
    sink->initializeState(states);
    sink->open();
  }
  EXPECT_EQ(*log, (Log{"0: commit 1 [from 0]", "0: abort 2 []", "0: begin 3 []", "1: begin 3 []"}));
}

}  // namespace
}  // namespace tidemark
