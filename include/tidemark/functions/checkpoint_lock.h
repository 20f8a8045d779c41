// CheckpointLock: what a source holds while it emits a record and records
// that it did, so that no snapshot falls in between (Flink's checkpoint
// lock, without a mutex: a source runs on its task's thread, and snapshots
// are taken on the same thread, between the calls it makes to its context).
//
// Contract:
// - BasicLockable: use it with std::lock_guard or std::unique_lock. It may be
//   taken again by the thread that holds it (it counts).
// - While it is held, no snapshot is taken; a checkpoint that comes meanwhile
//   is taken when it is released, before unlock() returns.
// - A source that updates its position before it emits needs no lock: a
//   snapshot is only ever taken inside a call to the SourceContext, after
//   that call's record went out.
// - Costs two increments and a compare per use; no system call.
#pragma once

#include <cstdint>
#include <exception>
#include <utility>

namespace tidemark {

class CheckpointLock {
 public:
  /// Runtime use: what is told when the lock is released.
  class Waiter {
   public:
    virtual void onReleased() noexcept = 0;

   protected:
    ~Waiter() = default;
  };

  CheckpointLock() = default;
  CheckpointLock(const CheckpointLock&) = delete;
  CheckpointLock& operator=(const CheckpointLock&) = delete;

  void lock() noexcept { ++depth_; }
  void unlock() noexcept {
    if (--depth_ == 0 && waiter_ != nullptr) [[unlikely]] {
      Waiter* waiter = std::exchange(waiter_, nullptr);
      // Released by an exception on its way out: the task is failing, and
      // its state is not one to snapshot.
      if (std::uncaught_exceptions() == 0) waiter->onReleased();
    }
  }
  bool held() const noexcept { return depth_ > 0; }

  /// Runtime use: tell `waiter` when the lock is next released.
  void notifyWhenReleased(Waiter* waiter) noexcept { waiter_ = waiter; }

 private:
  std::uint32_t depth_ = 0;
  Waiter* waiter_ = nullptr;
};

}  // namespace tidemark
