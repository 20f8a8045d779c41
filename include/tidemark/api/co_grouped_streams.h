// The window coGroup (Flink's CoGroupedStreams):
//
//   a.coGroup(b)
//       .where(keyA).equalTo(keyB)            // both selectors return the same key type K
//       .window(assigner)                     // TumblingEventTimeWindows::of(...), ...
//       [.trigger(t)] [.evictor(e)] [.allowedLateness(d)]
//       .apply(fn)
//
// For every key and window, `fn` receives the window's elements of `a` and
// of `b`, each in arrival order: coGroup(std::span<const A>, std::span<const
// B>, Collector<OUT>&). One side may be empty; a window exists only once an
// element of either side was put into it. Every result carries the window's
// maxTimestamp().
//
// apply() overloads:
//   apply(fn)          fn is a CoGroupFunction<A, B, OUT> subclass;
//   apply<OUT>(f)      f is a callable `void(std::span<const A>, std::span<const B>, Collector<OUT>&)`.
//
// How it runs (as in Flink): each element of `a` is wrapped as
// TaggedUnion<A, B>::one(e) and each element of `b` as ::two(e) by a map that
// runs with the parallelism of its input; the two tagged streams are unioned,
// keyed by keyA or keyB (whichever side the element came from), and windowed
// with the assigner, trigger, evictor and allowed lateness given here, into
// one window operator ("Window(CoGroup)"; "EvictingWindow(CoGroup)" with an
// evictor) whose function splits each fired window into its two sides. Hence:
// - event time is the minimum of both inputs' watermarks (docs/semantics.md 2.3):
//   an input without watermarks holds event-time windows back forever;
// - window semantics, lateness, late re-firing and state cleanup are exactly
//   those of KeyedStream::window() (docs/semantics.md 4); late elements beyond
//   the allowed lateness are dropped (there is no late-data side output);
// - a custom trigger, evictor or assigner works on the tagged elements: give
//   a built-in (EventTimeTrigger::create(), CountEvictor::of(n), ...) or a
//   Trigger / Evictor / WindowAssigner subclass for TaggedUnion<A, B>.
//
// The key type K must be one keyBy accepts (core/key_group.h); where() and
// equalTo() selectors returning different types are a compile-time error.
// Configuration calls return a modified copy ([[nodiscard]]), as in Flink.
// coGroup() throws std::invalid_argument when the two streams come from
// different environments; allowedLateness() when the lateness is negative.
//
// Example (per user and 10 s window: how many clicks and how many orders):
//   clicks.coGroup(orders)
//       .where([](const Click& c) { return c.user; })
//       .equalTo([](const Order& o) { return o.buyer; })
//       .window(tidemark::TumblingEventTimeWindows::of(std::chrono::seconds(10)))
//       .apply<std::string>([](std::span<const Click> cs, std::span<const Order> os,
//                              tidemark::Collector<std::string>& out) {
//         out.collect(std::to_string(cs.size()) + " clicks, " + std::to_string(os.size()) + " orders");
//       });
// data_stream.h includes this header at its end, after DataStream is complete;
// the guard comes after that include so that including this header first works.
#include "tidemark/api/data_stream.h"

#ifndef TIDEMARK_API_CO_GROUPED_STREAMS_H
#define TIDEMARK_API_CO_GROUPED_STREAMS_H

#include <chrono>
#include <concepts>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tidemark/api/keyed_stream.h"
#include "tidemark/api/tagged_union.h"
#include "tidemark/api/windowed_stream.h"
#include "tidemark/core/key_group.h"
#include "tidemark/core/time.h"
#include "tidemark/functions/co_group_function.h"
#include "tidemark/functions/collector.h"
#include "tidemark/functions/simple_functions.h"
#include "tidemark/functions/window_function.h"
#include "tidemark/windowing/evictor.h"
#include "tidemark/windowing/trigger.h"
#include "tidemark/windowing/window_assigner.h"

namespace tidemark {

namespace internal {

template <class>
inline constexpr bool kDependentFalse = false;

/// True when `selector` (a callable or a KeySelector) can select a key of a T.
template <class F, class T>
concept KeySelectorOf = std::invocable<decltype(asCallable(std::declval<F>()))&, const T&>;

/// The key type a key selector of T returns.
template <class F, class T>
using SelectedKeyType = std::decay_t<std::invoke_result_t<decltype(asCallable(std::declval<F>()))&, const T&>>;

/// A coGroup lambda wrapped as a CoGroupFunction.
template <class IN1, class IN2, class OUT, class F>
class LambdaCoGroupFunction final : public CoGroupFunction<IN1, IN2, OUT> {
 public:
  explicit LambdaCoGroupFunction(F f) : f_(std::move(f)) {}
  void coGroup(std::span<const IN1> first, std::span<const IN2> second, Collector<OUT>& out) override {
    f_(first, second, out);
  }

 private:
  F f_;
};

/// The window function of a coGroup: splits a window's tagged elements into
/// the two sides (arrival order kept) and hands them to the CoGroupFunction
/// `Fn` (Flink's CoGroupWindowFunction). Each subtask owns a copy.
template <class IN1, class IN2, class OUT, class K, class W, class Fn>
class CoGroupWindowFunction final : public WindowFunction<TaggedUnion<IN1, IN2>, OUT, K, W> {
 public:
  explicit CoGroupWindowFunction(Fn function) : function_(std::move(function)) {}

  void open() override {
    function_.setRuntimeContext(&this->getRuntimeContext());
    function_.open();
  }
  void close() override { function_.close(); }

  void apply(const K&, const W&, std::span<const TaggedUnion<IN1, IN2>> elements, Collector<OUT>& out) override {
    // Member buffers: their capacity is reused from one window to the next.
    first_.clear();
    second_.clear();
    for (const TaggedUnion<IN1, IN2>& element : elements) {
      if (element.isOne()) {
        first_.push_back(element.getOne());
      } else {
        second_.push_back(element.getTwo());
      }
    }
    function_.coGroup(std::span<const IN1>(first_), std::span<const IN2>(second_), out);
    first_.clear();
    second_.clear();
  }

 private:
  Fn function_;
  std::vector<IN1> first_;
  std::vector<IN2> second_;
};

/// Tag every element of `input` with `tag` in a map that runs with the
/// parallelism of its input (so that it chains to it), as Flink does.
template <class U, class T, class Tag>
SingleOutputStreamOperator<U> tagInput(const DataStream<T>& input, Tag tag, std::string name) {
  SingleOutputStreamOperator<U> tagged = input.map(std::move(tag));
  tagged.name(std::move(name));
  if (input.upstreams().size() == 1) {
    const StreamNode& upstream = input.graph()->node(input.upstreams().front().source_node);
    const int parallelism = upstream.non_parallel ? 1 : upstream.parallelism;
    if (parallelism > 0) tagged.setParallelism(parallelism);
  }
  return tagged;
}

}  // namespace internal

template <class T1, class T2>
class CoGroupedStreams {
 public:
  using Tagged = TaggedUnion<T1, T2>;

  /// A coGroup with its keys and window assigner: configure it, then apply().
  template <class K, class W>
  class WithWindow {
   public:
    using KeyType = K;
    using WindowType = W;
    using Windowed = WindowedStream<K, Tagged, W>;

    WithWindow(DataStream<T1> first, DataStream<T2> second, std::function<K(const T1&)> key1,
               std::function<K(const T2&)> key2, std::function<Windowed(const KeyedStream<K, Tagged>&)> window)
        : first_(std::move(first)),
          second_(std::move(second)),
          key1_(std::move(key1)),
          key2_(std::move(key2)),
          window_(std::move(window)) {}

    /// Replace the assigner's default trigger: a built-in trigger or a
    /// Trigger<TaggedUnion<T1, T2>, W> subclass.
    template <class X>
    [[nodiscard]] WithWindow trigger(X trigger) const {
      static_assert(std::is_base_of_v<Trigger<Tagged, W>, X> || TriggerSpec<X, Tagged, W>,
                    "coGroup/join trigger(): give a built-in trigger (EventTimeTrigger::create(), CountTrigger::of(n), "
                    "...) or a Trigger<TaggedUnion<T1, T2>, W> subclass");
      WithWindow copy = *this;
      copy.trigger_ = [trigger](Windowed& windowed) { windowed.trigger(trigger); };
      return copy;
    }

    /// Remove elements of a fired window before / after the function runs:
    /// a built-in evictor or an Evictor<TaggedUnion<T1, T2>, W> subclass.
    template <class X>
    [[nodiscard]] WithWindow evictor(X evictor) const {
      static_assert(std::is_base_of_v<Evictor<Tagged, W>, X> || EvictorSpec<X, Tagged, W>,
                    "coGroup/join evictor(): give a built-in evictor (CountEvictor::of(n), TimeEvictor::of(t), ...) "
                    "or an Evictor<TaggedUnion<T1, T2>, W> subclass");
      WithWindow copy = *this;
      copy.evictor_ = [evictor](Windowed& windowed) { windowed.evictor(evictor); };
      return copy;
    }

    /// Keep event-time windows (and re-fire them for late elements) this long
    /// after the watermark passed their end. Throws std::invalid_argument if negative.
    [[nodiscard]] WithWindow allowedLateness(Duration lateness) const {
      if (lateness < 0) {
        throw std::invalid_argument("allowedLateness must be >= 0, not " + std::to_string(lateness));
      }
      WithWindow copy = *this;
      copy.allowed_lateness_ = lateness;
      return copy;
    }
    template <class Rep, class Period>
    [[nodiscard]] WithWindow allowedLateness(std::chrono::duration<Rep, Period> lateness) const {
      return allowedLateness(toMillis(lateness));
    }

    Duration getAllowedLateness() const { return allowed_lateness_; }
    bool hasEvictor() const { return static_cast<bool>(evictor_); }

    /// Run a CoGroupFunction<T1, T2, OUT> subclass for every key and window.
    template <class Fn>
      requires std::is_base_of_v<CoGroupFunction<T1, T2, typename Fn::OutputType>, Fn>
    SingleOutputStreamOperator<typename Fn::OutputType> apply(Fn function) const {
      using OUT = typename Fn::OutputType;
      SingleOutputStreamOperator<OUT> result =
          windowed().apply(internal::CoGroupWindowFunction<T1, T2, OUT, K, W, Fn>(std::move(function)));
      result.name(hasEvictor() ? "EvictingWindow(CoGroup)" : "Window(CoGroup)");
      return result;
    }
    /// Run `f(std::span<const T1>, std::span<const T2>, Collector<OUT>&)` for every key and window.
    template <class OUT, class F>
    SingleOutputStreamOperator<OUT> apply(F f) const {
      static_assert(std::invocable<F&, std::span<const T1>, std::span<const T2>, Collector<OUT>&>,
                    "coGroup apply<OUT>(f): f must be callable as "
                    "f(std::span<const T1>, std::span<const T2>, Collector<OUT>&)");
      return apply(internal::LambdaCoGroupFunction<T1, T2, OUT, F>(std::move(f)));
    }
    /// A callable without its output type: a compile-time error that says what to write.
    template <class F>
      requires(!requires { typename F::OutputType; })
    void apply(F) const {
      static_assert(internal::kDependentFalse<F>,
                    "coGroup apply(f) with a lambda needs the output type: apply<OUT>(f), with "
                    "f(std::span<const T1>, std::span<const T2>, Collector<OUT>&)");
    }

   private:
    // Tag, union, key, window and configure: the stream the window function goes on.
    Windowed windowed() const {
      auto tagged1 = internal::tagInput<Tagged>(
          first_, [](const T1& value) { return Tagged::one(value); }, "Tag Input 1");
      auto tagged2 = internal::tagInput<Tagged>(
          second_, [](const T2& value) { return Tagged::two(value); }, "Tag Input 2");
      KeyedStream<K, Tagged> keyed =
          tagged1.union_(tagged2).keyBy([key1 = key1_, key2 = key2_](const Tagged& element) -> K {
            return element.isOne() ? key1(element.getOne()) : key2(element.getTwo());
          });
      Windowed windowed = window_(keyed);
      if (trigger_) trigger_(windowed);
      if (evictor_) evictor_(windowed);
      windowed.allowedLateness(allowed_lateness_);
      return windowed;
    }

    DataStream<T1> first_;
    DataStream<T2> second_;
    std::function<K(const T1&)> key1_;
    std::function<K(const T2&)> key2_;
    std::function<Windowed(const KeyedStream<K, Tagged>&)> window_;
    std::function<void(Windowed&)> trigger_;  // empty: the assigner's default
    std::function<void(Windowed&)> evictor_;  // empty: none
    Duration allowed_lateness_ = 0;
  };

  /// Both keys given: window() chooses the windows.
  template <class K>
  class EqualTo {
   public:
    using KeyType = K;

    EqualTo(DataStream<T1> first, DataStream<T2> second, std::function<K(const T1&)> key1,
            std::function<K(const T2&)> key2)
        : first_(std::move(first)), second_(std::move(second)), key1_(std::move(key1)), key2_(std::move(key2)) {}

    /// `assigner` is a built-in (TumblingEventTimeWindows::of(...),
    /// EventTimeSessionWindows::withGap(...), ...) or a
    /// WindowAssigner<TaggedUnion<T1, T2>, W> subclass.
    template <class A>
    [[nodiscard]] WithWindow<K, typename A::WindowType> window(A assigner) const {
      using W = typename A::WindowType;
      static_assert(std::is_base_of_v<WindowAssigner<Tagged, W>, A> || AssignerSpec<A, Tagged>,
                    "coGroup/join window(): give a built-in assigner (TumblingEventTimeWindows::of(...), ...) or a "
                    "WindowAssigner<TaggedUnion<T1, T2>, W> subclass");
      return WithWindow<K, W>(first_, second_, key1_, key2_,
                              [assigner](const KeyedStream<K, Tagged>& keyed) { return keyed.window(assigner); });
    }

   private:
    DataStream<T1> first_;
    DataStream<T2> second_;
    std::function<K(const T1&)> key1_;
    std::function<K(const T2&)> key2_;
  };

  /// The first input's key given: equalTo() gives the second's.
  template <class K>
  class Where {
   public:
    using KeyType = K;

    Where(DataStream<T1> first, DataStream<T2> second, std::function<K(const T1&)> key1)
        : first_(std::move(first)), second_(std::move(second)), key1_(std::move(key1)) {}

    /// The second input's key selector: `f(const T2&) -> K` (or a KeySelector<T2, K>),
    /// returning the same type K as where()'s.
    template <class F>
    [[nodiscard]] auto equalTo(F key_selector) const {
      if constexpr (!internal::KeySelectorOf<F, T2>) {
        static_assert(internal::kDependentFalse<F>,
                      "coGroup/join equalTo(f): f must be callable as f(const T2&) (or be a KeySelector<T2, K>)");
      } else {
        using K2 = internal::SelectedKeyType<F, T2>;
        if constexpr (!std::is_same_v<K, K2>) {
          static_assert(internal::kDependentFalse<F>,
                        "coGroup/join: the key selectors of where() and equalTo() must return the same key type");
        } else {
          std::function<K(const T2&)> key2 = internal::asCallable(std::move(key_selector));
          return EqualTo<K>(first_, second_, key1_, std::move(key2));
        }
      }
    }

   private:
    DataStream<T1> first_;
    DataStream<T2> second_;
    std::function<K(const T1&)> key1_;
  };

  /// Use DataStream::coGroup(). Throws std::invalid_argument when the streams
  /// come from different environments.
  CoGroupedStreams(DataStream<T1> first, DataStream<T2> second)
      : first_(std::move(first)), second_(std::move(second)) {
    if (first_.graph() != second_.graph()) {
      throw std::invalid_argument("coGroup: both streams must come from the same StreamExecutionEnvironment");
    }
  }

  /// The first input's key selector: `f(const T1&) -> K` (or a KeySelector<T1, K>);
  /// K must be a type keyBy accepts.
  template <class F>
  [[nodiscard]] auto where(F key_selector) const {
    if constexpr (!internal::KeySelectorOf<F, T1>) {
      static_assert(internal::kDependentFalse<F>,
                    "coGroup/join where(f): f must be callable as f(const T1&) (or be a KeySelector<T1, K>)");
    } else {
      using K = internal::SelectedKeyType<F, T1>;
      static_assert(StablyHashable<K>,
                    "coGroup/join where(): the key type needs a stable hash: use an integral, string, pair or tuple "
                    "key, or give the type a `std::uint64_t stableHash() const` member (see core/key_group.h)");
      std::function<K(const T1&)> key1 = internal::asCallable(std::move(key_selector));
      return Where<K>(first_, second_, std::move(key1));
    }
  }

 private:
  DataStream<T1> first_;
  DataStream<T2> second_;
};

template <class T>
template <class U>
CoGroupedStreams<T, U> DataStream<T>::coGroup(const DataStream<U>& other) const {
  return CoGroupedStreams<T, U>(*this, other);
}

}  // namespace tidemark

#endif  // TIDEMARK_API_CO_GROUPED_STREAMS_H
