// A program outside the tidemark tree, built against the installed package.
#include "tidemark/tidemark.h"

int main() {
  auto env = tidemark::StreamExecutionEnvironment::getExecutionEnvironment();
  env.setParallelism(1).enableSimulatedTime();
  env.fromElements<int>({1, 2, 3}).map([](int x) { return x * 2; }).print();
  env.execute("consumer");
  return 0;
}
