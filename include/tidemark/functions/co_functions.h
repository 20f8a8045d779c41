// CoMapFunction and CoFlatMapFunction: one method per input of a connected
// stream (DataStream::connect), both producing the same output type.
//
// One instance serves both inputs of a parallel subtask, so a member set in
// map1 is visible in map2 (the "control stream sets a flag" pattern). Calls
// come from the subtask's thread only, never concurrently, but the order in
// which the two inputs interleave depends on arrival and is not specified.
// As everywhere in the API, ConnectedStreams::map/flatMap also take two
// lambdas instead of a class.
//
// Example:
//   class Tag : public tidemark::CoMapFunction<int, std::string, std::string> {
//    public:
//     std::string map1(const int& n) override { return "int " + std::to_string(n); }
//     std::string map2(const std::string& s) override { return "str " + s; }
//   };
//   numbers.connect(words).map(Tag{}).print();
#pragma once

#include "tidemark/functions/collector.h"

namespace tidemark {

template <class IN1, class IN2, class OUT>
class CoMapFunction {
 public:
  using FirstInputType = IN1;
  using SecondInputType = IN2;
  using OutputType = OUT;
  virtual ~CoMapFunction() = default;
  virtual OUT map1(const IN1& value) = 0;
  virtual OUT map2(const IN2& value) = 0;
};

template <class IN1, class IN2, class OUT>
class CoFlatMapFunction {
 public:
  using FirstInputType = IN1;
  using SecondInputType = IN2;
  using OutputType = OUT;
  virtual ~CoFlatMapFunction() = default;
  virtual void flatMap1(const IN1& value, Collector<OUT>& out) = 0;
  virtual void flatMap2(const IN2& value, Collector<OUT>& out) = 0;
};

}  // namespace tidemark
