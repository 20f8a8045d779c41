// Must not compile: a field named by text, as Flink's sum("amount").
#include "tidemark/tidemark.h"

struct Order {
  std::string customer;
  int amount = 0;
};

int main() {
  auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
  env.fromElements<Order>({Order{"a", 1}}).keyBy([](const Order& o) { return o.customer; }).sum("amount");
}
