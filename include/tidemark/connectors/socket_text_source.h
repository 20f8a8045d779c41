// SocketTextSource: the lines a TCP server sends, behind
// StreamExecutionEnvironment::socketTextStream.
//
// run() resolves the host (IPv4 or IPv6, names such as "localhost" included),
// connects to the first address that accepts, and emits every piece of text
// between delimiters as one record. With the default '\n' delimiter a trailing
// '\r' is dropped, so "\r\n" line endings read the same as "\n". When the
// server closes the connection the text after the last delimiter, if any, is
// emitted and the input ends (the job then finishes as a bounded one).
//
// Failures end the job with a message naming the endpoint: an unknown host, a
// refused or failed connect, or a connection that breaks while reading
// ("socketTextStream(localhost:7777): connection reset by peer after 3 lines").
// Text after the last delimiter of a connection that broke or went idle may
// be cut anywhere, so it is not emitted as a line.
//
// withMaxRetry(n), Flink's maxRetry: when the connection ends (closed by the
// server, refused, broken, or silent past the idle read timeout), wait the
// retry delay (withRetryDelay, default 500 ms, on the job's clock) and
// connect again, up to n times (-1: forever); the default 0 never
// reconnects. Once the retries are used up, a closed connection ends the
// input and any other ending fails the job, saying how many retries it made.
// An unknown host fails at once: retrying cannot fix it.
//
// withIdleReadTimeout(t), off by default: a connection that delivers no byte
// for t ms counts as ended, so a server that accepts and then never sends is
// reported ("no data for 30000 ms, the idle read timeout") instead of holding
// the job forever with no word. A quiet server is not always a dead one: to
// let event time go on past a source that is merely quiet, give its
// watermark strategy withIdleness(t) instead (or as well).
//
// The source waits for data through SourceContext::waitReadable, so timers and
// periodic watermarks keep running while the server is quiet; cancel() makes
// run() return within one wait slice (100 ms). It needs real time: in
// simulated time waitReadable fails the job, as no virtual clock can say when
// bytes arrive (use ScriptedSource there).
//
// Example:
//   // Terminal: nc -lk 7777
//   auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
//   env.addSource(tidemark::SocketTextSource("localhost", 7777), "Socket Stream").print();
//   env.execute("echo");
#pragma once

#include <atomic>
#include <string>

#include "tidemark/functions/source_function.h"

namespace tidemark {

class SocketTextSource final : public SourceFunction<std::string> {
 public:
  /// Throws std::invalid_argument for an empty host or a port outside 1..65535.
  SocketTextSource(std::string host, int port, char delimiter = '\n');

  // Copies carry the endpoint only: each subtask gets a fresh, uncancelled source.
  SocketTextSource(const SocketTextSource& other);
  SocketTextSource& operator=(const SocketTextSource&) = delete;

  /// Reconnect up to `max_retry` times when the connection ends; -1: forever.
  SocketTextSource withMaxRetry(long max_retry) const;
  /// How long to wait before each reconnect (default 500 ms; 0: at once).
  SocketTextSource withRetryDelay(Duration millis) const;
  /// End a connection that sends nothing for this long (must be positive).
  SocketTextSource withIdleReadTimeout(Duration millis) const;

  void run(SourceContext<std::string>& ctx) override;
  void cancel() override { cancelled_.store(true, std::memory_order_relaxed); }

  const std::string& host() const { return host_; }
  int port() const { return port_; }
  char delimiter() const { return delimiter_; }
  long maxRetry() const { return max_retry_; }
  Duration retryDelay() const { return retry_delay_; }
  /// 0 when there is none.
  Duration idleReadTimeout() const { return idle_read_timeout_; }

 private:
  bool stopRequested(const SourceContext<std::string>& ctx) const {
    return cancelled_.load(std::memory_order_relaxed) || ctx.isCancelled();
  }

  std::string host_;
  int port_;
  char delimiter_;
  long max_retry_ = 0;
  Duration retry_delay_ = 500;
  Duration idle_read_timeout_ = 0;
  std::atomic<bool> cancelled_{false};
};

}  // namespace tidemark
