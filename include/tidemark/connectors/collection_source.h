// fromElements / fromCollection: a bounded, non-parallel source of given values.
#pragma once

#include <utility>
#include <vector>

#include "tidemark/functions/source_function.h"

namespace tidemark {

template <class T>
class FromCollectionSource final : public SourceFunction<T> {
 public:
  explicit FromCollectionSource(std::vector<T> values) : values_(std::move(values)) {}
  void run(SourceContext<T>& ctx) override {
    for (const T& value : values_) {
      if (ctx.isCancelled()) return;
      ctx.collect(value);
    }
  }

 private:
  std::vector<T> values_;
};

}  // namespace tidemark
