#include "tidemark/internal/runtime/signal_cancellation.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace tidemark::internal {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM};
constexpr char kStopWatcher = 0;

/// The write end of the pipe, read by the handler: an atomic int is the
/// one kind of shared state a signal handler may touch.
std::atomic<int> g_signal_pipe_write{-1};

extern "C" void writeSignalToPipe(int signal_number) {
  const int saved_errno = errno;
  const char byte = static_cast<char>(signal_number);
  const int fd = g_signal_pipe_write.load();
  if (fd >= 0) {
    const ssize_t written = ::write(fd, &byte, 1);  // nothing to do if it fails
    static_cast<void>(written);
  }
  errno = saved_errno;
}

/// The process-wide half: the registered jobs, the pipe, the watcher thread
/// and the signal actions it replaced.
class SignalWatcher {
 public:
  static SignalWatcher& instance() {
    static SignalWatcher watcher;
    return watcher;
  }

  void add(CancelOnSignals* job) {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(job);
    if (jobs_.size() == 1) start();
  }

  void remove(CancelOnSignals* job) {
    std::thread watcher;
    int read_fd = -1;
    int write_fd = -1;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.erase(std::remove(jobs_.begin(), jobs_.end(), job), jobs_.end());
      if (!jobs_.empty()) return;
      restoreActions();
      int expected = write_fd_;
      g_signal_pipe_write.compare_exchange_strong(expected, -1);
      // The pipe is not full of signals: the handlers are gone, and a signal
      // byte is read as soon as it is written.
      const ssize_t written = ::write(write_fd_, &kStopWatcher, 1);
      static_cast<void>(written);
      watcher = std::move(thread_);
      read_fd = std::exchange(read_fd_, -1);
      write_fd = std::exchange(write_fd_, -1);
    }
    // Joined outside the lock: the watcher may be waiting for it to cancel.
    // A job that starts meanwhile gets a pipe and a watcher of its own.
    watcher.join();
    ::close(read_fd);
    ::close(write_fd);
  }

 private:
  void start() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "signal pipe");
    read_fd_ = fds[0];
    write_fd_ = fds[1];
    // A full pipe must not block the handler: a signal lost there is one
    // that arrived while many more were waiting.
    ::fcntl(write_fd_, F_SETFL, O_NONBLOCK);
    g_signal_pipe_write.store(write_fd_);
    for (std::size_t i = 0; i < std::size(kSignals); ++i) takeOver(i);
    thread_ = std::thread([this, fd = read_fd_] { watch(fd); });
  }

  /// Handle kSignals[i] if its action is the default one; leave a user's own
  /// handler, or an ignored signal (nohup), alone.
  void takeOver(std::size_t i) {
    taken_over_[i] = false;
    struct sigaction current {};
    if (::sigaction(kSignals[i], nullptr, &current) != 0 || current.sa_handler != SIG_DFL) return;
    struct sigaction handler {};
    handler.sa_handler = writeSignalToPipe;
    sigemptyset(&handler.sa_mask);
    handler.sa_flags = SA_RESTART;
    if (::sigaction(kSignals[i], &handler, &previous_[i]) == 0) taken_over_[i] = true;
  }

  void restoreAction(int signal_number) {
    for (std::size_t i = 0; i < std::size(kSignals); ++i) {
      if (kSignals[i] == signal_number && taken_over_[i]) {
        ::sigaction(kSignals[i], &previous_[i], nullptr);
        taken_over_[i] = false;
      }
    }
  }

  void restoreActions() {
    for (int signal_number : kSignals) restoreAction(signal_number);
  }

  void watch(int fd) {
    while (true) {
      char byte = kStopWatcher;
      const ssize_t got = ::read(fd, &byte, 1);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0 || byte == kStopWatcher) return;
      std::lock_guard<std::mutex> lock(mutex_);
      restoreAction(byte);
      for (CancelOnSignals* job : jobs_) job->cancelBy(byte);
    }
  }

  std::mutex mutex_;
  std::vector<CancelOnSignals*> jobs_;
  int read_fd_ = -1;
  int write_fd_ = -1;
  std::thread thread_;
  struct sigaction previous_[std::size(kSignals)] {};
  bool taken_over_[std::size(kSignals)] = {};
};

}  // namespace

CancelOnSignals::CancelOnSignals(JobContext& job) : job_(job) { SignalWatcher::instance().add(this); }

CancelOnSignals::~CancelOnSignals() { SignalWatcher::instance().remove(this); }

void CancelOnSignals::cancelBy(int signal_number) {
  int none = 0;
  signal_.compare_exchange_strong(none, signal_number, std::memory_order_acq_rel);
  job_.cancel();
}

}  // namespace tidemark::internal
