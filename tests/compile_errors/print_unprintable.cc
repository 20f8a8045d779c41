// Must not compile: print() on a type without operator<<.
#include "tidemark/tidemark.h"

struct Order {
  int amount = 0;
};

int main() {
  auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
  env.fromElements<Order>({Order{1}}).print();
}
