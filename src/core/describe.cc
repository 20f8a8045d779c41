#include "tidemark/core/describe.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace tidemark::internal {

std::string demangle(const char* mangled_name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(mangled_name, nullptr, nullptr, &status), std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : std::string(mangled_name);
}

}  // namespace tidemark::internal
