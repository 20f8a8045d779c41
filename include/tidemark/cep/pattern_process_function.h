// PatternProcessFunction: what a CEP operator runs for each match (Flink
// CEP's PatternProcessFunction), and TimedOutPartialMatchHandler, which a
// PatternProcessFunction may also implement to receive partial matches that
// `within` timed out.
//
// processMatch(match, ctx, out) runs once per match, in the order matches
// complete. In event time ctx.timestamp() and the emitted records' timestamp
// is the timestamp of the event that completed the match (for a trailing
// notFollowedBy: the time the window passed); in processing time it is the
// processing time and the records carry no timestamp.
// processTimedOutMatch(match, ctx) runs for a timed-out partial match with
// ctx.timestamp() = its first event's timestamp + the window; it emits
// through ctx.output(tag, value) (a side output), as in Flink.
//
// Example:
//   class Alert : public tidemark::PatternProcessFunction<LoginEvent, std::string>,
//                 public tidemark::TimedOutPartialMatchHandler<LoginEvent> {
//    public:
//     void processMatch(const tidemark::Match<LoginEvent>& match, Context&,
//                       tidemark::Collector<std::string>& out) override {
//       out.collect(match.get("first").front().user + " failed 3 times");
//     }
//     void processTimedOutMatch(const tidemark::Match<LoginEvent>& match, Context& ctx) override {
//       ctx.output(kTimedOut, match.get("first").front().user);
//     }
//   };
#pragma once

#include <optional>
#include <typeinfo>
#include <utility>

#include "tidemark/core/output_tag.h"
#include "tidemark/cep/match.h"
#include "tidemark/core/stream_record.h"
#include "tidemark/core/time.h"
#include "tidemark/functions/collector.h"
#include "tidemark/functions/rich_function.h"
#include "tidemark/functions/runtime_context.h"

namespace tidemark {

/// The context of one match or timed-out partial match, implemented by the
/// CEP operator.
class PatternContext {
 public:
  virtual ~PatternContext() = default;
  PatternContext(const PatternContext&) = delete;
  PatternContext& operator=(const PatternContext&) = delete;

  /// The match's timestamp (see the file comment).
  virtual Timestamp timestamp() const = 0;
  virtual Timestamp currentProcessingTime() const = 0;

  /// Emit `value` to the side output `tag` (with the match's timestamp in event time).
  template <class X>
  void output(const OutputTag<X>& tag, X value) {
    const std::optional<Timestamp> ts = sideOutputTimestamp();
    StreamRecord<X> record{std::move(value), ts.value_or(kMinWatermark), ts.has_value()};
    emitSideOutput(tag.internalId(), typeid(X), &record);
  }

 protected:
  PatternContext() = default;

  /// The timestamp side-output records carry: the match's in event time,
  /// none in processing time.
  virtual std::optional<Timestamp> sideOutputTimestamp() const = 0;
  /// Send `record`, a StreamRecord<X> with typeid(X) == `type`, to the side
  /// output with the tag id `tag_id`.
  virtual void emitSideOutput(int tag_id, const std::type_info& type, void* record) = 0;
};

template <class IN, class OUT>
class PatternProcessFunction : public RichFunction<RuntimeContext> {
 public:
  using InputType = IN;
  using OutputType = OUT;
  using Context = PatternContext;

  virtual void processMatch(const Match<IN>& match, Context& ctx, Collector<OUT>& out) = 0;
};

template <class IN>
class TimedOutPartialMatchHandler {
 public:
  using Context = PatternContext;
  virtual ~TimedOutPartialMatchHandler() = default;
  virtual void processTimedOutMatch(const Match<IN>& match, Context& ctx) = 0;
};

}  // namespace tidemark
