// ProcessFunction: the lowest-level function on a non-keyed stream.
//
// processElement sees each element with its timestamp and the current
// watermark, may emit any number of results (they get the element's
// timestamp) and may emit to side outputs. Timers need a key: on a non-keyed
// stream registering one fails the job, as in Flink; use keyBy(...).process().
//
// Example:
//   class Parse : public tidemark::ProcessFunction<std::string, Event> {
//    public:
//     void processElement(const std::string& line, Context& ctx, tidemark::Collector<Event>& out) override {
//       if (auto event = parseEvent(line)) out.collect(*event);
//       else ctx.output(dead_letters, line);
//     }
//   };
#pragma once

#include "tidemark/functions/collector.h"
#include "tidemark/functions/process_context.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"

namespace tidemark {

template <class IN, class OUT>
class ProcessFunction : public RichFunction<RuntimeContext> {
 public:
  using InputType = IN;
  using OutputType = OUT;
  using Context = ProcessContext;

  virtual void processElement(const IN& value, Context& ctx, Collector<OUT>& out) = 0;
};

}  // namespace tidemark
