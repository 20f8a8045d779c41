// Must not compile: a tuple field's position as a function argument, as Flink's sum(1).
#include <tuple>

#include "tidemark/tidemark.h"

int main() {
  auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
  using Order = std::pair<std::string, int>;
  env.fromElements<Order>({Order{"a", 1}}).keyBy([](const Order& o) { return o.first; }).sum(1);
}
