// fromCollection keeps its position in checkpoints: restored after any
// value, it goes on with the next one; restored against a shorter
// collection, it says so.
#include "tidemark/connectors/collection_source.h"

#include <gtest/gtest.h>

#include <string>

#include "support/source_replay.h"
#include "tidemark/testing/source_function_harness.h"

namespace tidemark {
namespace {

TEST(CollectionSourceTest, RestoredAfterAnyValueItGoesOnWithTheNext) {
  testing_support::expectRestoreAtEveryRecordReplaysExactly<std::string>(
      FromCollectionSource<std::string>({"a", "b", "c", "d", "e"}), 5);
}

TEST(CollectionSourceTest, ARestoredPositionBeyondTheCollectionFailsTheJob) {
  SourceFunctionTestHarness<int> first(FromCollectionSource<int>({1, 2, 3, 4}));
  first.open();
  const OperatorSubtaskState state = first.runUntilSnapshot(3, 1);

  testing_support::expectRestoredRunFails<int>(FromCollectionSource<int>({1, 2}), {state},
                                               "fromCollection: the restored position 3 is beyond the collection's 2 values");
}

}  // namespace
}  // namespace tidemark
