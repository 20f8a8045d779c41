#include "tidemark/core/describe.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <streambuf>
#include <string>

#include <fmt/format.h>

namespace tidemark::internal {

std::string demangle(const char* mangled_name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(mangled_name, nullptr, nullptr, &status), std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : std::string(mangled_name);
}

}  // namespace tidemark::internal

namespace tidemark::internal {

/// Keeps the first `limit` characters, counts every one.
class BoundedTextStream::Buffer final : public std::streambuf {
 public:
  explicit Buffer(std::size_t limit) : limit_(limit) {}

  const std::string& kept() const { return kept_; }
  std::size_t total() const { return total_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return c;
  }

  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const auto count = static_cast<std::size_t>(n);
    if (kept_.size() < limit_) kept_.append(s, std::min(count, limit_ - kept_.size()));
    total_ += count;
    return n;
  }

 private:
  std::size_t limit_;
  std::string kept_;
  std::size_t total_ = 0;
};

struct BoundedTextStream::State {
  explicit State(std::size_t limit) : buffer(limit), stream(&buffer) {}
  Buffer buffer;
  std::ostream stream;
};

BoundedTextStream::BoundedTextStream(std::size_t limit) : state_(new State(limit)) {}

BoundedTextStream::~BoundedTextStream() { delete state_; }

std::ostream& BoundedTextStream::stream() { return state_->stream; }

std::string BoundedTextStream::quoted() const {
  const Buffer& buffer = state_->buffer;
  if (buffer.total() == buffer.kept().size()) return fmt::format("'{}'", buffer.kept());
  return fmt::format("'{}...' ({} characters, the first {} shown)", buffer.kept(), buffer.total(),
                     buffer.kept().size());
}

}  // namespace tidemark::internal
