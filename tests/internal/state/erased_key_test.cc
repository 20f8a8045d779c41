// ErasedKey: keys of any type behind one type, for trigger state. Borrowing
// must not copy, a stored key must own its copy, and keys of different types
// must never compare equal.
#include <gtest/gtest.h>

#include <string>

#include "tidemark/internal/state/erased_key.h"
#include "tidemark/internal/backends/heap_keyed_state_backend.h"

namespace tidemark::internal {
namespace {

TEST(ErasedKeyTest, BorrowedKeysCompareByTypeAndValue) {
  const std::string alice = "alice";
  const std::string alice_again = "alice";
  const std::string bob = "bob";
  const long one = 1;
  const int one_int = 1;
  EXPECT_EQ(ErasedKey::borrow(alice), ErasedKey::borrow(alice_again));
  EXPECT_FALSE(ErasedKey::borrow(alice) == ErasedKey::borrow(bob));
  EXPECT_FALSE(ErasedKey::borrow(one) == ErasedKey::borrow(one_int));  // same value, different types
}

TEST(ErasedKeyTest, OwnedCopyOutlivesTheBorrowedValue) {
  ErasedKey owned = [] {
    const std::string temporary = "carol";
    return ErasedKey::borrow(temporary).owned();
  }();
  EXPECT_EQ(owned.as<std::string>(), "carol");
  const ErasedKey copy = owned;  // copying an owning key clones it
  EXPECT_EQ(copy.as<std::string>(), "carol");
  EXPECT_NE(&copy.as<std::string>(), &owned.as<std::string>());
}

TEST(ErasedKeyTest, StateTablesStoreOwnedKeys) {
  HeapKeyedStateBackend<ErasedKey> backend(KeyGroupRange{0, 127}, 128);
  ValueState<int>& count = backend.getState(ValueStateDescriptor<int>("count", 0));
  {
    const std::string key = "dave";
    backend.setCurrentKey(ErasedKey::borrow(key), 5);
    count.update(7);
  }  // the borrowed string is gone; the table's copy is not
  const std::string same = "dave";
  backend.setCurrentKey(ErasedKey::borrow(same), 5);
  EXPECT_EQ(count.value(), 7);
  const std::string other = "erin";
  backend.setCurrentKey(ErasedKey::borrow(other), 5);
  EXPECT_EQ(count.value(), 0);  // the default
  EXPECT_EQ(backend.numStateEntries(), 1u);
}

}  // namespace
}  // namespace tidemark::internal
