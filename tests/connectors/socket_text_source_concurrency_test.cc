// socketTextStream against a real loopback TCP server run by the test.
//
// The server thread accepts one connection, writes its payload and ends the
// connection the way the test asks; the job ends when the connection does, so
// every test synchronizes by joining threads, never by sleeping.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tidemark/connectors/socket_text_source.h"
#include "tidemark/tidemark.h"

namespace tidemark {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

/// Bounds how long a broken test can hang on accept() before it fails instead.
constexpr int kAcceptTimeoutMillis = 30'000;

[[noreturn]] void throwErrno(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

/// A listening socket on 127.0.0.1 with a kernel-chosen port.
int listenOnLoopback(int& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throwErrno("socket");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) throwErrno("bind");
  if (::listen(fd, 4) != 0) throwErrno("listen");
  socklen_t length = sizeof address;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) throwErrno("getsockname");
  port = ntohs(address.sin_port);
  return fd;
}

class LoopbackServer {
 public:
  enum class Ending {
    CLOSE,  // orderly close (FIN): the input ends
    RESET,  // SO_LINGER {1, 0} then close: the peer sees a reset
    HOLD,   // keep the connection open until the client closes it or stop()
  };

  LoopbackServer(std::string payload, Ending ending) : LoopbackServer(std::vector<std::string>{std::move(payload)}, ending) {}

  /// Serve one connection after another, the i-th sending payloads[i].
  LoopbackServer(std::vector<std::string> payloads, Ending ending) : payloads_(std::move(payloads)), ending_(ending) {
    listen_fd_ = listenOnLoopback(port_);
    if (::pipe2(stop_pipe_, O_CLOEXEC) != 0) throwErrno("pipe2");
    thread_ = std::thread([this] { serve(); });
  }

  ~LoopbackServer() {
    stop();
    ::close(listen_fd_);
    ::close(stop_pipe_[0]);
    ::close(stop_pipe_[1]);
  }

  int port() const { return port_; }

  /// Unblock the server thread (if still waiting) and join it.
  void stop() {
    if (!thread_.joinable()) return;
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = ::write(stop_pipe_[1], &byte, 1);
    thread_.join();
  }

  /// After stop(): whether a client connected.
  bool accepted() const { return accepted_ > 0; }
  /// After stop(): how many connections were accepted.
  int acceptedConnections() const { return accepted_; }

 private:
  /// Waits for `fd` readable or a stop request; true when `fd` is readable.
  bool waitFor(int fd, int timeout_millis) const {
    pollfd fds[2] = {{fd, POLLIN, 0}, {stop_pipe_[0], POLLIN, 0}};
    while (true) {
      const int ready = ::poll(fds, 2, timeout_millis);
      if (ready < 0 && errno == EINTR) continue;
      return ready > 0 && fds[1].revents == 0 && fds[0].revents != 0;
    }
  }

  void serve() {
    for (const std::string& payload : payloads_) {
      if (!serveOne(payload)) return;
    }
  }

  bool serveOne(const std::string& payload) {
    if (!waitFor(listen_fd_, kAcceptTimeoutMillis)) return false;
    const int connection = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) return false;
    ++accepted_;
    std::size_t sent = 0;
    while (sent < payload.size()) {
      // MSG_NOSIGNAL: a client that failed early must not kill the test with SIGPIPE.
      const ssize_t n = ::send(connection, payload.data() + sent, payload.size() - sent, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      sent += static_cast<std::size_t>(n);
    }
    if (ending_ == Ending::RESET) {
      const linger abort_on_close{1, 0};
      ::setsockopt(connection, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
    } else if (ending_ == Ending::HOLD) {
      // Readable means EOF here: the client sends nothing, it only closes.
      waitFor(connection, -1);
    }
    ::close(connection);
    return true;
  }

  std::vector<std::string> payloads_;
  Ending ending_;
  int port_ = 0;
  int listen_fd_ = -1;
  int stop_pipe_[2] = {-1, -1};
  int accepted_ = 0;  // written by the server thread, read after join
  std::thread thread_;
};

/// A port nothing listens on: bound once by the kernel's choice, then released.
int unusedPort() {
  int port = 0;
  ::close(listenOnLoopback(port));
  return port;
}

std::vector<std::string> readAll(const std::string& host, int port, char delimiter = '\n') {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  auto out = env.socketTextStream(host, port, delimiter).collectToMemory();
  env.execute("socket test");
  return out->values();
}

/// The failure message of a job expected to fail.
std::string failureOf(StreamExecutionEnvironment& env) {
  try {
    env.execute("socket test");
  } catch (const JobExecutionException& e) {
    return e.what();
  }
  ADD_FAILURE() << "the job did not fail";
  return "";
}

TEST(SocketTextSourceTest, LinesArriveInOrder) {
  LoopbackServer server("alpha\nbeta\ngamma\n", LoopbackServer::Ending::CLOSE);
  EXPECT_THAT(readAll("127.0.0.1", server.port()), ElementsAre("alpha", "beta", "gamma"));
  server.stop();
  EXPECT_TRUE(server.accepted());
}

TEST(SocketTextSourceTest, LocalhostResolves) {
  // The server listens on IPv4 only; a resolver answering ::1 first must fall
  // through to 127.0.0.1.
  LoopbackServer server("one\n", LoopbackServer::Ending::CLOSE);
  EXPECT_THAT(readAll("localhost", server.port()), ElementsAre("one"));
}

TEST(SocketTextSourceTest, CarriageReturnLineEndingsAreStripped) {
  LoopbackServer server("a\r\nb\r\n\r\nlast\r\n", LoopbackServer::Ending::CLOSE);
  EXPECT_THAT(readAll("127.0.0.1", server.port()), ElementsAre("a", "b", "", "last"));
}

TEST(SocketTextSourceTest, CustomDelimiterKeepsCarriageReturns) {
  LoopbackServer server("x;y\r;multi\nline;", LoopbackServer::Ending::CLOSE);
  EXPECT_THAT(readAll("127.0.0.1", server.port(), ';'), ElementsAre("x", "y\r", "multi\nline"));
}

TEST(SocketTextSourceTest, FinalLineWithoutDelimiterIsEmitted) {
  LoopbackServer server("first\nsecond\r\ntail", LoopbackServer::Ending::CLOSE);
  EXPECT_THAT(readAll("127.0.0.1", server.port()), ElementsAre("first", "second", "tail"));
}

TEST(SocketTextSourceTest, EmptyInputEndsTheJob) {
  LoopbackServer server("", LoopbackServer::Ending::CLOSE);
  EXPECT_TRUE(readAll("127.0.0.1", server.port()).empty());
}

TEST(SocketTextSourceTest, LargeInputArrivesComplete) {
  constexpr int kLines = 200'000;
  std::string payload;
  for (int i = 0; i < kLines; ++i) fmt::format_to(std::back_inserter(payload), "line-{}\n", i);
  LoopbackServer server(std::move(payload), LoopbackServer::Ending::CLOSE);
  const std::vector<std::string> lines = readAll("127.0.0.1", server.port());
  ASSERT_EQ(lines.size(), static_cast<std::size_t>(kLines));
  for (int i = 0; i < kLines; ++i) {
    ASSERT_EQ(lines[static_cast<std::size_t>(i)], fmt::format("line-{}", i)) << "at line " << i;
  }
}

TEST(SocketTextSourceTest, ConnectionRefusedFailsTheJob) {
  const int port = unusedPort();
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  env.socketTextStream("127.0.0.1", port).collectToMemory();
  const std::string message = failureOf(env);
  EXPECT_THAT(message, HasSubstr(fmt::format("socketTextStream(127.0.0.1:{}): connection refused", port)));
  EXPECT_THAT(message, HasSubstr("Socket Stream"));
}

TEST(SocketTextSourceTest, UnknownHostFailsTheJob) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  // .invalid is reserved (RFC 6761): it never resolves.
  env.socketTextStream("nosuchhost.invalid", 7777).collectToMemory();
  EXPECT_THAT(failureOf(env),
              HasSubstr("socketTextStream(nosuchhost.invalid:7777): cannot resolve host 'nosuchhost.invalid'"));
}

TEST(SocketTextSourceTest, ResetByPeerFailsTheJob) {
  LoopbackServer server("one\ntwo\n", LoopbackServer::Ending::RESET);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  env.socketTextStream("127.0.0.1", server.port()).collectToMemory();
  const std::string message = failureOf(env);
  EXPECT_THAT(message, HasSubstr("connection reset by peer after 2 lines"));
  EXPECT_THAT(message, HasSubstr("Socket Stream"));
}

TEST(SocketTextSourceTest, JobFailureCancelsAWaitingSource) {
  // The server never sends nor closes: only cancellation can end the socket
  // source, after the other branch fails. The server ends when the source
  // closes its socket.
  LoopbackServer server("", LoopbackServer::Ending::HOLD);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  env.socketTextStream("127.0.0.1", server.port()).collectToMemory();
  env.fromElements<int>({1})
      .map([](int) -> int { throw std::runtime_error("boom"); })
      .collectToMemory();
  EXPECT_THAT(failureOf(env), HasSubstr("boom"));
  server.stop();
}

std::vector<std::string> readAll(const SocketTextSource& source) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  auto out = env.addSource(source, "Socket Stream").collectToMemory();
  env.execute("socket test");
  return out->values();
}

TEST(SocketTextSourceTest, WithMaxRetryAClosedConnectionIsReopened) {
  LoopbackServer server(std::vector<std::string>{"a\nb\n", "c\n", "d\ntail"}, LoopbackServer::Ending::CLOSE);
  const auto source = SocketTextSource("127.0.0.1", server.port()).withMaxRetry(2).withRetryDelay(0);
  EXPECT_THAT(readAll(source), ElementsAre("a", "b", "c", "d", "tail"));
  server.stop();
  EXPECT_EQ(server.acceptedConnections(), 3);
}

TEST(SocketTextSourceTest, FlinksSocketTextStreamSignatureTakesMaxRetry) {
  LoopbackServer server(std::vector<std::string>{"a\n", "b\n"}, LoopbackServer::Ending::CLOSE);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  auto out = env.socketTextStream("127.0.0.1", server.port(), '\n', 1).collectToMemory();
  env.execute("socket test");
  EXPECT_THAT(out->values(), ElementsAre("a", "b"));
}

TEST(SocketTextSourceTest, WithoutRetriesLeftTheInputEndsWhenTheServerCloses) {
  LoopbackServer server(std::vector<std::string>{"a\n", "never read\n"}, LoopbackServer::Ending::CLOSE);
  EXPECT_THAT(readAll(SocketTextSource("127.0.0.1", server.port()).withMaxRetry(0)), ElementsAre("a"));
  server.stop();
  EXPECT_EQ(server.acceptedConnections(), 1);
}

TEST(SocketTextSourceTest, ARefusedConnectionIsRetriedThenReported) {
  const int port = unusedPort();
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  env.addSource(SocketTextSource("127.0.0.1", port).withMaxRetry(2).withRetryDelay(1), "Socket Stream")
      .collectToMemory();
  EXPECT_THAT(failureOf(env),
              HasSubstr(fmt::format("socketTextStream(127.0.0.1:{}): connection refused (gave up after 2 retries)", port)));
}

TEST(SocketTextSourceTest, AServerThatNeverSendsIsReportedAfterTheIdleReadTimeout) {
  LoopbackServer server("one\n", LoopbackServer::Ending::HOLD);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  env.addSource(SocketTextSource("127.0.0.1", server.port()).withIdleReadTimeout(50), "Socket Stream")
      .collectToMemory();
  EXPECT_THAT(failureOf(env), HasSubstr(fmt::format("socketTextStream(127.0.0.1:{}): no data for 50 ms, the idle "
                                                    "read timeout after 1 line",
                                                    server.port())));
  server.stop();
}

TEST(SocketTextSourceTest, AnIdleConnectionIsReopenedWhileRetriesAreLeft) {
  LoopbackServer server(std::vector<std::string>{"one\n", "two\n"}, LoopbackServer::Ending::HOLD);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1);
  auto out = env.addSource(SocketTextSource("127.0.0.1", server.port())
                               .withIdleReadTimeout(50)
                               .withMaxRetry(1)
                               .withRetryDelay(0),
                           "Socket Stream")
                 .collectToMemory();
  EXPECT_THAT(failureOf(env), HasSubstr("no data for 50 ms, the idle read timeout after 2 lines (gave up after 1 retry)"));
  EXPECT_THAT(out->values(), ElementsAre("one", "two"));
  server.stop();
}

TEST(SocketTextSourceTest, RetryAndTimeoutSettingsAreChecked) {
  const SocketTextSource source("localhost", 7777);
  EXPECT_THROW(source.withMaxRetry(-2), std::invalid_argument);
  EXPECT_THROW(source.withRetryDelay(-1), std::invalid_argument);
  EXPECT_THROW(source.withIdleReadTimeout(0), std::invalid_argument);
  const SocketTextSource tuned = source.withMaxRetry(-1).withRetryDelay(20).withIdleReadTimeout(30000);
  EXPECT_EQ(tuned.maxRetry(), -1);
  EXPECT_EQ(tuned.retryDelay(), 20);
  EXPECT_EQ(tuned.idleReadTimeout(), 30000);
  EXPECT_EQ(source.maxRetry(), 0);
  EXPECT_EQ(source.idleReadTimeout(), 0);
  const SocketTextSource copy(tuned);  // what each subtask runs
  EXPECT_EQ(copy.maxRetry(), -1);
  EXPECT_EQ(copy.idleReadTimeout(), 30000);
}

TEST(SocketTextSourceTest, InvalidArgumentsAreRejectedWhenTheJobIsDefined) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  for (const int port : {0, -1, 65536}) {
    try {
      env.socketTextStream("localhost", port);
      ADD_FAILURE() << "port " << port << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), HasSubstr(fmt::format("port {} ", port)));
    }
  }
  EXPECT_THROW(env.socketTextStream("", 7777), std::invalid_argument);
}

}  // namespace
}  // namespace tidemark
