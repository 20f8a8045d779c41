// Pattern<T>: a sequence of named event patterns for CEP (Flink CEP's Pattern).
//
//   auto alert = Pattern<LoginEvent>::begin("first").where(is_fail)
//                    .next("second").where(is_fail)
//                    .next("third").where(is_fail)
//                    .within(std::chrono::seconds(10));
//
// Each call that names a new pattern (next, followedBy, followedByAny,
// notNext, notFollowedBy) returns a new Pattern whose previous() is the one it
// was called on; where / or / until / quantifiers change the pattern they are
// called on and return it, so calls chain. Patterns are cheap handles: copies
// share the same pattern.
//
// Contiguity to the previous pattern (docs/semantics.md 6.1): next = strict (the
// very next event), followedBy = relaxed (skip non-matching events, take the
// first match), followedByAny = non-deterministic relaxed (matching events
// may be skipped too), notNext = the next event must not match,
// notFollowedBy = no matching event until the next pattern matches.
// Quantifiers: optional, times(n), times(from, to), oneOrMore, timesOrMore(n),
// greedy, and for looping/times patterns consecutive / allowCombinations
// (their events are otherwise relaxed among themselves).
// Group patterns: begin(pattern), next(pattern), followedBy(pattern),
// followedByAny(pattern) take a whole pattern sequence as one step, which may
// itself be quantified (e.g. next(group).times(2)).
//
// Checks that Flink makes at build time are made here too and throw
// MalformedPatternException; the rest (unique names, a skip strategy's name,
// notFollowedBy at the end without within) when the pattern is compiled, i.e.
// when CEP::pattern(...) is called.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "tidemark/cep/after_match_skip_strategy.h"
#include "tidemark/cep/iterative_condition.h"
#include "tidemark/cep/quantifier.h"
#include "tidemark/core/time.h"

namespace tidemark {

namespace internal {

template <class T>
struct PatternNode {
  std::string name;
  std::shared_ptr<PatternNode> previous;
  std::optional<CepCondition<T>> condition;  // none: every event matches
  std::optional<CepCondition<T>> until;
  Quantifier quantifier = Quantifier::one(ConsumingStrategy::STRICT);
  Times times;
  std::optional<Duration> window;
  AfterMatchSkipStrategy skip_strategy = AfterMatchSkipStrategy::noSkip();
  std::shared_ptr<PatternNode> group;  // a group pattern: the last node of its sequence

  CepCondition<T> takeCondition() const { return condition.value_or(CepCondition<T>{}); }
};

template <class U, class T>
bool isSubtype(const T& value) {
  if constexpr (requires { std::holds_alternative<U>(value); }) {
    return std::holds_alternative<U>(value);
  } else if constexpr (std::is_pointer_v<T>) {
    return dynamic_cast<const U*>(value) != nullptr;
  } else {
    static_assert(requires { value.get(); }, "subtype<U>() needs T to be a std::variant or a (smart) pointer");
    return dynamic_cast<const U*>(value.get()) != nullptr;
  }
}

}  // namespace internal

template <class T>
class Pattern {
 public:
  using Node = internal::PatternNode<T>;

  /// The first pattern of a sequence.
  static Pattern begin(std::string name,
                       AfterMatchSkipStrategy skip_strategy = AfterMatchSkipStrategy::noSkip()) {
    return Pattern(nullptr, std::move(name), ConsumingStrategy::STRICT, std::move(skip_strategy), nullptr);
  }
  /// A sequence that starts with a whole pattern sequence (a group pattern).
  static Pattern begin(const Pattern& group,
                       AfterMatchSkipStrategy skip_strategy = AfterMatchSkipStrategy::noSkip()) {
    return Pattern(nullptr, "GroupPattern", ConsumingStrategy::STRICT, std::move(skip_strategy), group.node_);
  }

  /// AND another condition to this pattern's condition.
  template <class F>
  Pattern& where(F condition) {
    requireNotGroup("where");
    auto c = internal::makeCondition<T>(std::move(condition));
    node_->condition = node_->condition ? internal::conditionAnd(*node_->condition, std::move(c)) : std::move(c);
    return *this;
  }
  /// OR another condition to this pattern's condition.
  template <class F>
  Pattern& or_(F condition) {
    requireNotGroup("or");
    auto c = internal::makeCondition<T>(std::move(condition));
    node_->condition = node_->condition ? internal::conditionOr(*node_->condition, std::move(c)) : std::move(c);
    return *this;
  }
  /// Take only events of type U (T is a std::variant or a pointer to a base class).
  template <class U>
  Pattern& subtype() {
    return where([](const T& value) { return internal::isSubtype<U>(value); });
  }
  /// Stop a looping pattern (oneOrMore, timesOrMore) at the first event that
  /// matches `condition`; that event is not taken.
  template <class F>
  Pattern& until(F condition) {
    if (node_->until) throw MalformedPatternException("pattern '" + node_->name + "': until() was already set");
    if (!node_->quantifier.hasProperty(Quantifier::LOOPING)) {
      throw MalformedPatternException("pattern '" + node_->name +
                                      "': until() applies only to looping patterns (oneOrMore, timesOrMore)");
    }
    node_->until = internal::makeCondition<T>(std::move(condition));
    return *this;
  }
  /// A match must complete within `window` of its first event (an event at
  /// exactly first + window is too late).
  Pattern& within(Duration window_ms) {
    if (window_ms <= 0) throw MalformedPatternException("within: the window must be positive");
    node_->window = window_ms;
    return *this;
  }
  template <class Rep, class Period>
  Pattern& within(std::chrono::duration<Rep, Period> window) {
    return within(toMillis(window));
  }

  Pattern next(std::string name) const { return append(std::move(name), ConsumingStrategy::STRICT); }
  Pattern followedBy(std::string name) const { return append(std::move(name), ConsumingStrategy::SKIP_TILL_NEXT); }
  Pattern followedByAny(std::string name) const { return append(std::move(name), ConsumingStrategy::SKIP_TILL_ANY); }
  Pattern notNext(std::string name) const {
    requirePreviousNotOptional("notNext");
    return append(std::move(name), ConsumingStrategy::NOT_NEXT);
  }
  Pattern notFollowedBy(std::string name) const {
    requirePreviousNotOptional("notFollowedBy");
    return append(std::move(name), ConsumingStrategy::NOT_FOLLOW);
  }
  Pattern next(const Pattern& group) const { return appendGroup(group, ConsumingStrategy::STRICT); }
  Pattern followedBy(const Pattern& group) const { return appendGroup(group, ConsumingStrategy::SKIP_TILL_NEXT); }
  Pattern followedByAny(const Pattern& group) const { return appendGroup(group, ConsumingStrategy::SKIP_TILL_ANY); }

  /// The pattern may take no event at all.
  Pattern& optional() {
    if (node_->previous && node_->previous->quantifier.hasProperty(Quantifier::GREEDY)) {
      throw MalformedPatternException("pattern '" + node_->name + "': an optional pattern cannot follow a greedy one");
    }
    node_->quantifier.optional();
    return *this;
  }
  /// One or more events.
  Pattern& oneOrMore() { return timesOrMore(1, "oneOrMore"); }
  /// `n` or more events.
  Pattern& timesOrMore(std::int32_t n) { return timesOrMore(n, "timesOrMore"); }
  /// Exactly `n` events.
  Pattern& times(std::int32_t n) {
    if (n <= 0) throw MalformedPatternException("times: n must be positive, got " + std::to_string(n));
    return times(n, n);
  }
  /// Between `from` and `to` events (from may be 0: then the pattern is optional).
  Pattern& times(std::int32_t from, std::int32_t to) {
    requireQuantifiable("times");
    node_->quantifier = Quantifier::times(node_->quantifier.getConsumingStrategy());
    node_->times = Times::of(from, to);
    // times(0, n) is an optional times(1, n).
    if (from == 0) {
      node_->quantifier.optional();
      node_->times.from = 1;
    }
    return *this;
  }
  /// A looping or times pattern takes as many events as it can before the
  /// next pattern may take one.
  Pattern& greedy() {
    requireNotNot("greedy");
    if (node_->group) throw MalformedPatternException("greedy() does not apply to a group pattern");
    node_->quantifier.greedy();
    return *this;
  }
  /// The events of a looping or times pattern must follow each other strictly.
  Pattern& consecutive() {
    node_->quantifier.consecutive();
    return *this;
  }
  /// The events of a looping or times pattern may skip matching events (all combinations).
  Pattern& allowCombinations() {
    node_->quantifier.combinations();
    return *this;
  }

  const std::string& getName() const { return node_->name; }
  std::optional<Pattern> getPrevious() const {
    if (!node_->previous) return std::nullopt;
    return Pattern(node_->previous);
  }
  const Quantifier& getQuantifier() const { return node_->quantifier; }
  const Times& getTimes() const { return node_->times; }
  std::optional<Duration> getWindowTime() const { return node_->window; }
  const AfterMatchSkipStrategy& getAfterMatchSkipStrategy() const { return node_->skip_strategy; }
  bool isGroupPattern() const { return node_->group != nullptr; }

  /// Runtime use: the last node of the sequence.
  const std::shared_ptr<Node>& node() const { return node_; }

 private:
  explicit Pattern(std::shared_ptr<Node> node) : node_(std::move(node)) {}
  Pattern(std::shared_ptr<Node> previous, std::string name, ConsumingStrategy strategy,
          AfterMatchSkipStrategy skip_strategy, std::shared_ptr<Node> group)
      : node_(std::make_shared<Node>()) {
    if (name.empty()) throw MalformedPatternException("a pattern name must not be empty");
    if (name.find(':') != std::string::npos) {
      throw MalformedPatternException("pattern name '" + name + "' must not contain ':'");
    }
    node_->name = std::move(name);
    node_->previous = std::move(previous);
    node_->quantifier = Quantifier::one(strategy);
    node_->skip_strategy = std::move(skip_strategy);
    node_->group = std::move(group);
  }

  Pattern append(std::string name, ConsumingStrategy strategy) const {
    return Pattern(node_, std::move(name), strategy, node_->skip_strategy, nullptr);
  }
  Pattern appendGroup(const Pattern& group, ConsumingStrategy strategy) const {
    return Pattern(node_, "GroupPattern", strategy, node_->skip_strategy, group.node_);
  }

  Pattern& timesOrMore(std::int32_t n, const char* what) {
    requireQuantifiable(what);
    if (n <= 0) throw MalformedPatternException(std::string(what) + ": n must be positive, got " + std::to_string(n));
    node_->quantifier = Quantifier::looping(node_->quantifier.getConsumingStrategy());
    node_->times = Times::of(n);
    return *this;
  }

  void requireQuantifiable(const char* what) const {
    requireNotNot(what);
    if (!node_->quantifier.hasProperty(Quantifier::SINGLE)) {
      throw MalformedPatternException("pattern '" + node_->name + "': " + what +
                                      "() cannot be applied, a quantifier was already applied (" +
                                      node_->quantifier.toString() + ")");
    }
  }
  void requireNotNot(const char* what) const {
    if (node_->quantifier.isNot()) {
      throw MalformedPatternException("pattern '" + node_->name + "': " + what +
                                      "() does not apply to a notNext/notFollowedBy pattern");
    }
  }
  void requireNotGroup(const char* what) const {
    if (node_->group) throw MalformedPatternException(std::string(what) + "() does not apply to a group pattern");
  }
  void requirePreviousNotOptional(const char* what) const {
    if (node_->quantifier.hasProperty(Quantifier::OPTIONAL)) {
      throw MalformedPatternException(std::string(what) + "() cannot follow the optional pattern '" + node_->name +
                                      "'; write two patterns, one with and one without the optional part");
    }
  }

  std::shared_ptr<Node> node_;
};

}  // namespace tidemark
