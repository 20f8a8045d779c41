// A window function for checkpointing tests: one line per key and window.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include <fmt/format.h>

#include "tidemark/tidemark.h"

namespace tidemark::testing_support {

/// "key K window START sum S" for each window.
class SumPerWindow : public ProcessWindowFunction<std::int64_t, std::string, std::int64_t, TimeWindow> {
 public:
  void process(const std::int64_t& key, Context& context, std::span<const std::int64_t> values,
               Collector<std::string>& out) override {
    std::int64_t sum = 0;
    for (std::int64_t v : values) sum += v;
    out.collect(fmt::format("key {} window {} sum {}", key, context.window().getStart(), sum));
  }
};

}  // namespace tidemark::testing_support
