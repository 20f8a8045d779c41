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
// There is no reconnecting.
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

  void run(SourceContext<std::string>& ctx) override;
  void cancel() override { cancelled_.store(true, std::memory_order_relaxed); }

  const std::string& host() const { return host_; }
  int port() const { return port_; }
  char delimiter() const { return delimiter_; }

 private:
  bool stopRequested(const SourceContext<std::string>& ctx) const {
    return cancelled_.load(std::memory_order_relaxed) || ctx.isCancelled();
  }

  std::string host_;
  int port_;
  char delimiter_;
  std::atomic<bool> cancelled_{false};
};

}  // namespace tidemark
