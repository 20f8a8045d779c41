#include "tidemark/connectors/socket_text_source.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
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

/// How one connection ended.
struct ConnectionEnd {
  enum Kind {
    CLOSED,   // the server closed it: the input ends unless a retry is left
    FAILED,   // refused, broken or idle: the job fails unless a retry is left
    STOPPED,  // the job is cancelled
  };
  Kind kind;
  std::string reason;      // FAILED: what went wrong, without the endpoint
  bool connected = false;  // FAILED: after the connect succeeded
};

std::string countOf(std::uint64_t lines) { return fmt::format("{} {}", lines, lines == 1 ? "line" : "lines"); }

/// Connect to the first of `addresses` that accepts; on failure, `error`
/// holds the last address's errno.
template <class StopRequested>
ConnectOutcome connectToAny(const addrinfo* addresses, SourceContext<std::string>& ctx, const StopRequested& stop,
                            UniqueFd& socket, int& error) {
  // "localhost" may resolve to ::1 before 127.0.0.1 while the server listens
  // on only one of them: try every address, report the last failure.
  for (const addrinfo* address = addresses; address != nullptr; address = address->ai_next) {
    const ConnectOutcome outcome = connectTo(*address, ctx, stop, socket, error);
    if (outcome != ConnectOutcome::FAILED) return outcome;
    socket.reset();
  }
  return ConnectOutcome::FAILED;
}

/// Cuts received bytes into lines at the delimiter and emits them.
class LineSplitter {
 public:
  LineSplitter(char delimiter, SourceContext<std::string>& ctx, std::uint64_t& lines)
      : delimiter_(delimiter), strip_cr_(delimiter == '\n'), ctx_(ctx), lines_(lines) {}

  void add(const char* begin, const char* const end) {
    while (const void* found = std::memchr(begin, delimiter_, static_cast<std::size_t>(end - begin))) {
      const char* const line_end = static_cast<const char*>(found);
      if (partial_.empty()) {
        emit(std::string(begin, line_end));
      } else {
        partial_.append(begin, line_end);
        emit(std::move(partial_));
        partial_.clear();
      }
      begin = line_end + 1;
    }
    partial_.append(begin, end);
  }

  /// The connection ended: the text after the last delimiter is a line too.
  void finish() {
    if (strip_cr_ && !partial_.empty() && partial_.back() == '\r') partial_.pop_back();
    if (!partial_.empty()) emit(std::move(partial_));
    partial_.clear();
  }

 private:
  void emit(std::string line) {
    if (strip_cr_ && !line.empty() && line.back() == '\r') line.pop_back();
    ctx_.collect(std::move(line));
    ++lines_;
  }

  char delimiter_;
  bool strip_cr_;
  SourceContext<std::string>& ctx_;
  std::uint64_t& lines_;
  std::string partial_;  // text after the last delimiter, waiting for the rest of its line
};

/// Connect, then read lines until the connection ends; `lines` counts every
/// line emitted, over all connections.
template <class StopRequested>
ConnectionEnd readOneConnection(const SocketTextSource& source, const addrinfo* addresses,
                                SourceContext<std::string>& ctx, const StopRequested& stop, std::uint64_t& lines) {
  UniqueFd socket;
  int error = 0;
  switch (connectToAny(addresses, ctx, stop, socket, error)) {
    case ConnectOutcome::STOPPED:
      return {ConnectionEnd::STOPPED, {}, false};
    case ConnectOutcome::FAILED:
      return {ConnectionEnd::FAILED, error != 0 ? describeErrno(error) : std::string("no address to connect to"), false};
    case ConnectOutcome::CONNECTED:
      break;
  }
  const int deferred_error = error;
  std::vector<char> buffer(kReceiveBufferBytes);
  LineSplitter splitter(source.delimiter(), ctx, lines);
  const Duration idle_timeout = source.idleReadTimeout();
  Timestamp last_data = ctx.currentProcessingTime();

  while (!stop()) {
    const ssize_t received = ::recv(socket.get(), buffer.data(), buffer.size(), 0);
    if (received > 0) {
      splitter.add(buffer.data(), buffer.data() + received);
      if (idle_timeout > 0) last_data = ctx.currentProcessingTime();
      continue;
    }
    if (received == 0) {
      if (deferred_error != 0) return {ConnectionEnd::FAILED, describeErrno(deferred_error), true};
      splitter.finish();
      return {ConnectionEnd::CLOSED, {}, true};  // the server closed the connection, as Flink ends the input
    }
    const int cause = errno;
    if (cause == EINTR) continue;
    if (cause != EAGAIN && cause != EWOULDBLOCK) {
      // What follows the last delimiter of a broken connection may be cut
      // anywhere: it is not a line.
      return {ConnectionEnd::FAILED, describeErrno(cause), true};
    }
    Duration wait = kReadWaitMillis;
    if (idle_timeout > 0) {
      const Duration quiet = ctx.currentProcessingTime() - last_data;
      if (quiet >= idle_timeout) {
        return {ConnectionEnd::FAILED, fmt::format("no data for {} ms, the idle read timeout", idle_timeout), true};
      }
      wait = std::min(wait, idle_timeout - quiet);
    }
    ctx.waitReadable(socket.get(), wait);
  }
  return {ConnectionEnd::STOPPED, {}, false};
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
    : SourceFunction<std::string>(other),
      host_(other.host_),
      port_(other.port_),
      delimiter_(other.delimiter_),
      max_retry_(other.max_retry_),
      retry_delay_(other.retry_delay_),
      idle_read_timeout_(other.idle_read_timeout_) {}

SocketTextSource SocketTextSource::withMaxRetry(long max_retry) const {
  if (max_retry < -1) {
    throw std::invalid_argument(fmt::format("{}: max retry {} must be -1 (forever), 0 or positive",
                                            describeEndpoint(host_, port_), max_retry));
  }
  SocketTextSource copy(*this);
  copy.max_retry_ = max_retry;
  return copy;
}

SocketTextSource SocketTextSource::withRetryDelay(Duration millis) const {
  if (millis < 0) {
    throw std::invalid_argument(
        fmt::format("{}: retry delay {} ms must not be negative", describeEndpoint(host_, port_), millis));
  }
  SocketTextSource copy(*this);
  copy.retry_delay_ = millis;
  return copy;
}

SocketTextSource SocketTextSource::withIdleReadTimeout(Duration millis) const {
  if (millis <= 0) {
    throw std::invalid_argument(
        fmt::format("{}: idle read timeout {} ms must be positive", describeEndpoint(host_, port_), millis));
  }
  SocketTextSource copy(*this);
  copy.idle_read_timeout_ = millis;
  return copy;
}

void SocketTextSource::run(SourceContext<std::string>& ctx) {
  const std::string endpoint = describeEndpoint(host_, port_);
  const auto stop = [this, &ctx] { return stopRequested(ctx); };
  const AddrInfoList addresses = resolve(host_, port_, endpoint);
  std::uint64_t lines = 0;
  for (long retries = 0;; ++retries) {
    const ConnectionEnd end = readOneConnection(*this, addresses.get(), ctx, stop, lines);
    if (end.kind == ConnectionEnd::STOPPED) return;
    const bool retry_left = max_retry_ < 0 || retries < max_retry_;
    if (!retry_left && end.kind == ConnectionEnd::CLOSED) return;
    if (!retry_left) {
      const std::string retried = retries == 0 ? "" : fmt::format(" (gave up after {} {})", retries,
                                                                  retries == 1 ? "retry" : "retries");
      const std::string after = end.connected || lines > 0 ? " after " + countOf(lines) : "";
      throw std::runtime_error(fmt::format("{}: {}{}{}", endpoint, end.reason, after, retried));
    }
    if (retry_delay_ > 0) ctx.sleep(retry_delay_);
    if (stop()) return;
  }
}

}  // namespace tidemark
