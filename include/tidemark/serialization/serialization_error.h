// The error every decode path throws on bytes it cannot read: truncated,
// corrupt, or written for another type. Its message says what was being read
// and at which byte offset, so a corrupt checkpoint is reported, not crashed on.
#pragma once

#include <stdexcept>

namespace tidemark {

class SerializationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace tidemark
