// PatternStream: a stream matched against a pattern (Flink CEP's
// PatternStream); CEP::pattern(stream, pattern) makes one.
//
//   OutputTag<LoginEvent> late("late");
//   auto alerts = CEP::pattern(logins.keyBy(user_of), pattern)
//                     .sideOutputLateData(late)
//                     .process(Alert{});
//
// - Event time is the default; inProcessingTime() matches events in arrival
//   order at the current processing time instead.
// - process(fn): a PatternProcessFunction<T, OUT> (which may also be a
//   TimedOutPartialMatchHandler<T>).
// - select(f) with `OUT f(const Match<T>&)`, flatSelect<OUT>(f) with
//   `void f(const Match<T>&, Collector<OUT>&)`; the variants taking an
//   OutputTag<L> first also get timed-out partial matches:
//   `L timeout(const Match<T>&, Timestamp)` / `void timeout(const Match<T>&,
//   Timestamp, Collector<L>&)`, emitted to that side output.
// - On a stream that is not keyed the pattern runs over all events in one
//   subtask (parallelism 1, as Flink).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "tidemark/api/data_stream.h"
#include "tidemark/internal/cep/nfa_compiler.h"
#include "tidemark/cep/pattern.h"
#include "tidemark/cep/pattern_process_function.h"
#include "tidemark/internal/cep/cep_operator.h"

namespace tidemark {

namespace internal {

template <class T, class OUT, class F>
class SelectPatternFunction final : public PatternProcessFunction<T, OUT> {
 public:
  explicit SelectPatternFunction(F f) : f_(std::move(f)) {}
  void processMatch(const Match<T>& match, PatternContext&, Collector<OUT>& out) override { out.collect(f_(match)); }

 private:
  F f_;
};

template <class T, class OUT, class F>
class FlatSelectPatternFunction final : public PatternProcessFunction<T, OUT> {
 public:
  explicit FlatSelectPatternFunction(F f) : f_(std::move(f)) {}
  void processMatch(const Match<T>& match, PatternContext&, Collector<OUT>& out) override { f_(match, out); }

 private:
  F f_;
};

/// Emits what a timeout function returns or collects to a side output.
template <class L>
class SideOutputCollector final : public Collector<L> {
 public:
  SideOutputCollector(PatternContext& ctx, const OutputTag<L>& tag) : ctx_(ctx), tag_(tag) {}
  void collect(L value) override { ctx_.output(tag_, std::move(value)); }

 private:
  PatternContext& ctx_;
  const OutputTag<L>& tag_;
};

/// A select / flatSelect function together with its timeout function.
template <class T, class OUT, class L, class Select, class Timeout, bool kFlat>
class SelectWithTimeoutFunction final : public PatternProcessFunction<T, OUT>,
                                        public TimedOutPartialMatchHandler<T> {
 public:
  SelectWithTimeoutFunction(OutputTag<L> tag, Select select, Timeout timeout)
      : tag_(std::move(tag)), select_(std::move(select)), timeout_(std::move(timeout)) {}

  void processMatch(const Match<T>& match, PatternContext&, Collector<OUT>& out) override {
    if constexpr (kFlat) {
      select_(match, out);
    } else {
      out.collect(select_(match));
    }
  }
  void processTimedOutMatch(const Match<T>& match, PatternContext& ctx) override {
    if constexpr (kFlat) {
      SideOutputCollector<L> out(ctx, tag_);
      timeout_(match, ctx.timestamp(), out);
    } else {
      ctx.output(tag_, L(timeout_(match, ctx.timestamp())));
    }
  }

 private:
  OutputTag<L> tag_;
  Select select_;
  Timeout timeout_;
};

}  // namespace internal

template <class K, class T>
class PatternStream {
 public:
  using Comparator = internal::EventComparator<T>;

  /// Use CEP::pattern().
  PatternStream(KeyedStream<K, T> input, const Pattern<T>& pattern, Comparator comparator, bool non_parallel)
      : input_(std::move(input)),
        compiled_(internal::NfaCompiler<T>::compile(pattern)),
        comparator_(std::move(comparator)),
        non_parallel_(non_parallel) {}

  /// Match in arrival order at the current processing time.
  PatternStream& inProcessingTime() {
    processing_time_ = true;
    return *this;
  }
  /// Match in event-time order (the default).
  PatternStream& inEventTime() {
    processing_time_ = false;
    return *this;
  }
  /// Send late elements (timestamp <= watermark) to `tag` instead of dropping them.
  PatternStream& sideOutputLateData(const OutputTag<T>& tag) {
    late_data_tag_ = tag;
    return *this;
  }

  template <class Fn>
    requires std::is_base_of_v<PatternProcessFunction<T, typename Fn::OutputType>, Fn>
  SingleOutputStreamOperator<typename Fn::OutputType> process(Fn fn) const {
    using OUT = typename Fn::OutputType;
    auto function = std::make_shared<Fn>(std::move(fn));
    return build<OUT>("CepOperator", [function] { return std::make_unique<Fn>(*function); });
  }

  template <class F>
  auto select(F f) const {
    using OUT = std::decay_t<std::invoke_result_t<F&, const Match<T>&>>;
    return process(internal::SelectPatternFunction<T, OUT, F>(std::move(f)));
  }
  template <class OUT, class F>
  SingleOutputStreamOperator<OUT> flatSelect(F f) const {
    return process(internal::FlatSelectPatternFunction<T, OUT, F>(std::move(f)));
  }

  /// select, with timed-out partial matches mapped by `timeout` to the side output `tag`.
  template <class L, class Timeout, class Select>
  auto select(const OutputTag<L>& tag, Timeout timeout, Select select) const {
    using OUT = std::decay_t<std::invoke_result_t<Select&, const Match<T>&>>;
    return process(internal::SelectWithTimeoutFunction<T, OUT, L, Select, Timeout, false>(tag, std::move(select),
                                                                                         std::move(timeout)));
  }
  template <class OUT, class L, class Timeout, class Select>
  SingleOutputStreamOperator<OUT> flatSelect(const OutputTag<L>& tag, Timeout timeout, Select select) const {
    return process(internal::SelectWithTimeoutFunction<T, OUT, L, Select, Timeout, true>(tag, std::move(select),
                                                                                        std::move(timeout)));
  }

 private:
  template <class OUT, class MakeFunction>
  SingleOutputStreamOperator<OUT> build(std::string name, MakeFunction make_function) const {
    using Selector = typename KeyedStream<K, T>::KeySelectorFunction;
    auto compiled = compiled_;
    auto selector = input_.getKeySelector();
    auto comparator = comparator_;
    auto late = late_data_tag_;
    const bool processing_time = processing_time_;
    auto result = input_.template addOneInput<OUT>(std::move(name), [=] {
      return std::make_unique<internal::CepOperator<K, T, OUT, Selector>>(compiled, processing_time, comparator,
                                                                          make_function(), selector, late);
    });
    if (non_parallel_) result.graph()->node(result.getId()).non_parallel = true;
    return result;
  }

  KeyedStream<K, T> input_;
  std::shared_ptr<const internal::CompiledPattern<T>> compiled_;
  Comparator comparator_;
  bool non_parallel_;
  bool processing_time_ = false;
  std::optional<OutputTag<T>> late_data_tag_;
};

/// The entry point (Flink's CEP class).
struct CEP {
  /// Match `pattern` per key of `input`. `comparator` (optional) orders
  /// events of equal timestamp: `int(const T& a, const T& b)`, negative when
  /// `a` comes first.
  template <class K, class T>
  static PatternStream<K, T> pattern(const KeyedStream<K, T>& input, const Pattern<T>& pattern,
                                     std::type_identity_t<internal::EventComparator<T>> comparator = {}) {
    return PatternStream<K, T>(input, pattern, std::move(comparator), false);
  }
  /// Match `pattern` over all events of `input` (one subtask).
  template <class T>
  static PatternStream<AllWindowsKey, T> pattern(const DataStream<T>& input, const Pattern<T>& pattern,
                                                 std::type_identity_t<internal::EventComparator<T>> comparator = {}) {
    return PatternStream<AllWindowsKey, T>(input.keyBy([](const T&) { return AllWindowsKey{}; }), pattern,
                                           std::move(comparator), true);
  }
};

}  // namespace tidemark
