// For source tests: a source restored from a snapshot at any record goes on
// exactly where it stopped. What the first run emitted before its snapshot,
// followed by what the restored run emits, must be what one run without a
// failure emits: no record lost, none twice, the watermarks the same.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "tidemark/testing/source_function_harness.h"

namespace tidemark::testing_support {

using Lines = std::vector<std::string>;

/// The main output of `source` run to its end, as lines.
template <class T, class F>
Lines runToEnd(const F& source, const OperatorTestHarnessOptions& options = {}) {
  SourceFunctionTestHarness<T> harness(source, options);
  harness.open();
  harness.run();
  return harness.getOutput().lines();
}

/// Snapshot after `records` records, restore a fresh copy of `source` from
/// it, and return the output before the snapshot joined with the restored run's.
template <class T, class F>
Lines runWithRestoreAfter(const F& source, std::size_t records, const OperatorTestHarnessOptions& options = {}) {
  SourceFunctionTestHarness<T> first(source, options);
  first.open();
  const OperatorSubtaskState state = first.runUntilSnapshot(records, 1);
  Lines joined = first.getOutput().lines();
  joined.resize(first.eventsBeforeSnapshot());
  SourceFunctionTestHarness<T> second(source, options);
  second.initializeState(state);
  second.open();
  second.run();
  for (std::string& line : second.getOutput().lines()) joined.push_back(std::move(line));
  return joined;
}

/// The check of the file comment for a snapshot after each of records 1 .. total - 1.
template <class T, class F>
void expectRestoreAtEveryRecordReplaysExactly(const F& source, std::size_t total,
                                              const OperatorTestHarnessOptions& options = {}) {
  const Lines uninterrupted = runToEnd<T>(source, options);
  for (std::size_t records = 1; records < total; ++records) {
    EXPECT_EQ(runWithRestoreAfter<T>(source, records, options), uninterrupted) << "snapshot after " << records << " records";
  }
}

/// `source` restored from `states` fails its run with a message that contains `message`.
template <class T, class F>
void expectRestoredRunFails(const F& source, const std::vector<OperatorSubtaskState>& states, const std::string& message) {
  SourceFunctionTestHarness<T> restored(source);
  restored.initializeState(states);
  restored.open();
  EXPECT_THAT([&] { restored.run(); }, ::testing::ThrowsMessage<std::runtime_error>(::testing::HasSubstr(message)));
}

}  // namespace tidemark::testing_support
