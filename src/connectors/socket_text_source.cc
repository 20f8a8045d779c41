#include "tidemark/connectors/socket_text_source.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace tidemark {
namespace {

/// How late cancel() is noticed while the server sends nothing.
constexpr Duration kReadWaitMillis = 100;
/// How late a completed connect is noticed: the wait wakes early only for
/// data or an error, never for the connect succeeding.
constexpr Duration kConnectWaitMillis = 10;
constexpr std::size_t kReceiveBufferBytes = 64 * 1024;

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

struct AddrInfoDeleter {
  void operator()(addrinfo* info) const { ::freeaddrinfo(info); }
};
using AddrInfoList = std::unique_ptr<addrinfo, AddrInfoDeleter>;

/// The system's text for `error`, lower-cased to read inside a sentence
/// ("connection refused"); acronyms such as "I/O" keep their case.
std::string describeErrno(int error) {
  std::string text = std::error_code(error, std::generic_category()).message();
  if (text.size() >= 2 && text[0] >= 'A' && text[0] <= 'Z' && text[1] >= 'a' && text[1] <= 'z') {
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  }
  return text;
}

std::string describeEndpoint(const std::string& host, int port) {
  // An IPv6 literal needs brackets, or its port is unreadable.
  if (host.find(':') != std::string::npos) return fmt::format("socketTextStream([{}]:{})", host, port);
  return fmt::format("socketTextStream({}:{})", host, port);
}

AddrInfoList resolve(const std::string& host, int port, const std::string& endpoint) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* result = nullptr;
  const std::string service = std::to_string(port);
  const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &result);
  if (rc != 0) {
    const std::string reason = rc == EAI_SYSTEM ? describeErrno(errno) : std::string(::gai_strerror(rc));
    throw std::runtime_error(fmt::format("{}: cannot resolve host '{}': {}", endpoint, host, reason));
  }
  return AddrInfoList(result);
}

enum class ConnectOutcome { CONNECTED, FAILED, STOPPED };

/// Connect a non-blocking socket to `address`. On FAILED, `error` holds errno;
/// on CONNECTED it may hold an error of the connection already made (see below).
template <class StopRequested>
ConnectOutcome connectTo(const addrinfo& address, SourceContext<std::string>& ctx, const StopRequested& stop,
                         UniqueFd& socket, int& error) {
  error = 0;
  socket = UniqueFd(::socket(address.ai_family, address.ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                             address.ai_protocol));
  if (!socket.valid()) {
    error = errno;
    return ConnectOutcome::FAILED;
  }
  if (::connect(socket.get(), address.ai_addr, address.ai_addrlen) == 0) return ConnectOutcome::CONNECTED;
  // EINTR on a non-blocking connect leaves it going on in the background, like EINPROGRESS.
  if (errno != EINPROGRESS && errno != EINTR) {
    error = errno;
    return ConnectOutcome::FAILED;
  }
  // Waiting through the context keeps timers running and lets the job cancel
  // a connect to a host that never answers.
  while (true) {
    pollfd pfd{socket.get(), POLLOUT, 0};
    const int ready = ::poll(&pfd, 1, 0);
    if (ready < 0 && errno != EINTR) {
      error = errno;
      return ConnectOutcome::FAILED;
    }
    if (ready > 0) {
      int so_error = 0;
      socklen_t length = sizeof so_error;
      if (::getsockopt(socket.get(), SOL_SOCKET, SO_ERROR, &so_error, &length) != 0) so_error = errno;
      error = so_error;
      // A reset means the handshake completed (a refused one says
      // ECONNREFUSED) and the server sent data, possibly, then aborted.
      // Reading SO_ERROR consumed the error, so the caller reads what was
      // sent and reports the reset where it would have seen EOF.
      if (so_error == 0 || so_error == ECONNRESET) return ConnectOutcome::CONNECTED;
      return ConnectOutcome::FAILED;
    }
    if (stop()) return ConnectOutcome::STOPPED;
    ctx.waitReadable(socket.get(), kConnectWaitMillis);
  }
}

}  // namespace

SocketTextSource::SocketTextSource(std::string host, int port, char delimiter)
    : host_(std::move(host)), port_(port), delimiter_(delimiter) {
  if (host_.empty()) throw std::invalid_argument(fmt::format("socketTextStream(:{}): the host is empty", port_));
  if (port_ < 1 || port_ > 65535) {
    throw std::invalid_argument(
        fmt::format("{}: port {} is not in [1, 65535]", describeEndpoint(host_, port_), port_));
  }
}

SocketTextSource::SocketTextSource(const SocketTextSource& other)
    : SourceFunction<std::string>(other), host_(other.host_), port_(other.port_), delimiter_(other.delimiter_) {}

void SocketTextSource::run(SourceContext<std::string>& ctx) {
  const std::string endpoint = describeEndpoint(host_, port_);
  const auto stop = [this, &ctx] { return stopRequested(ctx); };

  // "localhost" may resolve to ::1 before 127.0.0.1 while the server listens
  // on only one of them: try every address, report the last failure.
  const AddrInfoList addresses = resolve(host_, port_, endpoint);
  UniqueFd socket;
  int error = 0;
  bool connected = false;
  for (const addrinfo* address = addresses.get(); address != nullptr && !connected; address = address->ai_next) {
    switch (connectTo(*address, ctx, stop, socket, error)) {
      case ConnectOutcome::CONNECTED:
        connected = true;
        break;
      case ConnectOutcome::STOPPED:
        return;
      case ConnectOutcome::FAILED:
        socket.reset();
        break;
    }
  }
  if (!connected) {
    throw std::runtime_error(
        fmt::format("{}: {}", endpoint, error != 0 ? describeErrno(error) : std::string("no address to connect to")));
  }
  const int deferred_error = error;

  std::vector<char> buffer(kReceiveBufferBytes);
  std::string partial;  // text after the last delimiter, waiting for the rest of its line
  std::uint64_t lines = 0;
  const bool strip_cr = delimiter_ == '\n';
  const auto emit = [&](std::string line) {
    if (strip_cr && !line.empty() && line.back() == '\r') line.pop_back();
    ctx.collect(std::move(line));
    ++lines;
  };

  const auto failure = [&](int cause) {
    return std::runtime_error(
        fmt::format("{}: {} after {} {}", endpoint, describeErrno(cause), lines, lines == 1 ? "line" : "lines"));
  };

  while (!stop()) {
    const ssize_t received = ::recv(socket.get(), buffer.data(), buffer.size(), 0);
    if (received > 0) {
      const char* begin = buffer.data();
      const char* const end = begin + received;
      while (const void* found = std::memchr(begin, delimiter_, static_cast<std::size_t>(end - begin))) {
        const char* const line_end = static_cast<const char*>(found);
        if (partial.empty()) {
          emit(std::string(begin, line_end));
        } else {
          partial.append(begin, line_end);
          emit(std::move(partial));
          partial.clear();
        }
        begin = line_end + 1;
      }
      partial.append(begin, end);
      continue;
    }
    if (received == 0) {
      if (deferred_error != 0) throw failure(deferred_error);
      // The server closed the connection: the input ends, as in Flink.
      if (strip_cr && !partial.empty() && partial.back() == '\r') partial.pop_back();
      if (!partial.empty()) emit(std::move(partial));
      return;
    }
    const int cause = errno;
    if (cause == EINTR) continue;
    if (cause == EAGAIN || cause == EWOULDBLOCK) {
      ctx.waitReadable(socket.get(), kReadWaitMillis);
      continue;
    }
    throw failure(cause);
  }
}

}  // namespace tidemark
