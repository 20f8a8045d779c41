#include "support/line_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace tidemark::testing_support {

LineServer::LineServer(std::vector<std::string> lines, AfterSending after) {
  if (::pipe2(stop_pipe_, O_CLOEXEC) != 0) throw std::runtime_error("pipe2() failed");
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw std::runtime_error("socket() failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || ::listen(listen_fd_, 1) != 0) {
    throw std::runtime_error("cannot listen on loopback");
  }
  socklen_t len = sizeof(addr);
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this, after, lines = std::move(lines)] {
    // Give up after a minute without a client, so a broken test cannot hang.
    pollfd pfd{listen_fd_, POLLIN, 0};
    if (::poll(&pfd, 1, 60000) <= 0) return;
    if ((pfd.revents & POLLIN) == 0) return;
    const int client = ::accept(listen_fd_, nullptr, nullptr);
    if (client < 0) return;
    std::string text;
    for (const auto& line : lines) text += line + "\n";
    std::size_t sent = 0;
    while (sent < text.size()) {
      const ssize_t n = ::send(client, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    if (after == AfterSending::HOLD) holdUntilClosed(client);
    ::close(client);
  });
}

void LineServer::holdUntilClosed(int client) const {
  // At most a minute, so a broken test cannot hang.
  pollfd fds[2] = {{client, POLLIN, 0}, {stop_pipe_[0], POLLIN, 0}};
  while (::poll(fds, 2, 60000) > 0 && (fds[1].revents & POLLIN) == 0) {
    char byte = 0;
    if (::recv(client, &byte, 1, 0) <= 0) return;  // the client closed
  }
}

void LineServer::join() {
  if (thread_.joinable()) thread_.join();
}

LineServer::~LineServer() {
  // Wakes a server still waiting for a client (shutdown on a listening socket
  // makes poll/accept return), so a test that never connects does not wait.
  ::shutdown(listen_fd_, SHUT_RDWR);
  const char stop = 1;
  if (::write(stop_pipe_[1], &stop, 1) < 0) {
    // Nothing more to do: the server gives up after its own timeout.
  }
  join();
  if (listen_fd_ >= 0) ::close(listen_fd_);
  ::close(stop_pipe_[0]);
  ::close(stop_pipe_[1]);
}

}  // namespace tidemark::testing_support

namespace tidemark::testing_support {

int unusedLoopbackPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace tidemark::testing_support
