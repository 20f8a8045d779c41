// A one-connection TCP server on loopback that sends lines and then closes
// or holds the connection open, for tests of socket sources. Binds 127.0.0.1
// on a free port.
#pragma once

#include <string>
#include <thread>
#include <vector>

namespace tidemark::testing_support {

class LineServer {
 public:
  enum class AfterSending {
    CLOSE,  // the input ends
    HOLD,   // stay connected, sending nothing, until the client leaves or the server is destroyed
  };

  /// Listen now; once a client connects, send `lines` (each + '\n'), then close or hold.
  explicit LineServer(std::vector<std::string> lines, AfterSending after = AfterSending::CLOSE);
  ~LineServer();
  LineServer(const LineServer&) = delete;
  LineServer& operator=(const LineServer&) = delete;

  int port() const { return port_; }
  /// Wait until the lines were sent (or the server gave up).
  void join();

 private:
  void holdUntilClosed(int client) const;

  int listen_fd_ = -1;
  int stop_pipe_[2] = {-1, -1};
  int port_ = 0;
  std::thread thread_;
};

/// A loopback port nothing listens on (bound once, then released).
int unusedLoopbackPort();

}  // namespace tidemark::testing_support
