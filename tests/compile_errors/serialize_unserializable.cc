// Must not compile: serializing a type that did not opt in.
#include "tidemark/serialization/type_serializer.h"

struct Opaque {
  int x = 0;
};

int main() { return static_cast<int>(tidemark::serializeToBytes(Opaque{}).size()); }
