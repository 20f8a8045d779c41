// Quantifier: how many events one pattern takes, and how the events it takes
// and the events before it may be separated (Flink CEP's Quantifier).
//
// - The consuming strategy says what may lie between the previous pattern's
//   last event and this pattern's first: STRICT (next: nothing),
//   SKIP_TILL_NEXT (followedBy: non-matching events), SKIP_TILL_ANY
//   (followedByAny: any events, matching ones too), NOT_NEXT / NOT_FOLLOW
//   (notNext / notFollowedBy).
// - The inner consuming strategy says the same between the events of one
//   looping or times pattern: SKIP_TILL_NEXT unless consecutive() (STRICT)
//   or allowCombinations() (SKIP_TILL_ANY).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tidemark {

/// Thrown when a pattern cannot be built or compiled; the message says why.
class MalformedPatternException : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

enum class ConsumingStrategy { STRICT, SKIP_TILL_NEXT, SKIP_TILL_ANY, NOT_FOLLOW, NOT_NEXT };

/// "next", "followedBy", ... (for messages).
inline const char* consumingStrategyName(ConsumingStrategy strategy) {
  switch (strategy) {
    case ConsumingStrategy::STRICT:
      return "STRICT";
    case ConsumingStrategy::SKIP_TILL_NEXT:
      return "SKIP_TILL_NEXT";
    case ConsumingStrategy::SKIP_TILL_ANY:
      return "SKIP_TILL_ANY";
    case ConsumingStrategy::NOT_FOLLOW:
      return "NOT_FOLLOW";
    case ConsumingStrategy::NOT_NEXT:
      return "NOT_NEXT";
  }
  return "?";
}

class Quantifier {
 public:
  enum Property : std::uint8_t { SINGLE = 1, LOOPING = 2, TIMES = 4, OPTIONAL = 8, GREEDY = 16 };

  static Quantifier one(ConsumingStrategy strategy) { return Quantifier(strategy, SINGLE); }
  static Quantifier looping(ConsumingStrategy strategy) { return Quantifier(strategy, LOOPING); }
  static Quantifier times(ConsumingStrategy strategy) { return Quantifier(strategy, TIMES); }

  bool hasProperty(Property property) const { return (properties_ & property) != 0; }
  ConsumingStrategy getConsumingStrategy() const { return consuming_; }
  ConsumingStrategy getInnerConsumingStrategy() const { return inner_consuming_; }
  bool isNot() const {
    return consuming_ == ConsumingStrategy::NOT_FOLLOW || consuming_ == ConsumingStrategy::NOT_NEXT;
  }

  void optional() {
    require(!hasProperty(OPTIONAL), "optional() was already applied");
    require(!isNot(), "a notNext/notFollowedBy pattern cannot be optional");
    properties_ |= OPTIONAL;
  }
  void greedy() {
    require(inner_consuming_ != ConsumingStrategy::SKIP_TILL_ANY,
            "greedy() does not apply to a pattern with allowCombinations()");
    require(!hasProperty(SINGLE), "greedy() applies only to looping and times patterns (oneOrMore, times, ...)");
    properties_ |= GREEDY;
  }
  void consecutive() {
    require(hasProperty(LOOPING) || hasProperty(TIMES),
            "consecutive() applies only to looping and times patterns (oneOrMore, times, ...)");
    inner_consuming_ = ConsumingStrategy::STRICT;
  }
  void combinations() {
    require(hasProperty(LOOPING) || hasProperty(TIMES),
            "allowCombinations() applies only to looping and times patterns (oneOrMore, times, ...)");
    require(!hasProperty(GREEDY), "allowCombinations() does not apply to a greedy pattern");
    inner_consuming_ = ConsumingStrategy::SKIP_TILL_ANY;
  }

  /// "LOOPING|OPTIONAL SKIP_TILL_NEXT"
  std::string toString() const {
    std::string s;
    auto add = [&](Property p, const char* name) {
      if (!hasProperty(p)) return;
      if (!s.empty()) s += '|';
      s += name;
    };
    add(SINGLE, "SINGLE");
    add(LOOPING, "LOOPING");
    add(TIMES, "TIMES");
    add(OPTIONAL, "OPTIONAL");
    add(GREEDY, "GREEDY");
    return s + " " + consumingStrategyName(consuming_);
  }

 private:
  Quantifier(ConsumingStrategy strategy, Property property) : properties_(property), consuming_(strategy) {}

  static void require(bool ok, const char* message) {
    if (!ok) throw MalformedPatternException(message);
  }

  std::uint8_t properties_;
  ConsumingStrategy consuming_;
  ConsumingStrategy inner_consuming_ = ConsumingStrategy::SKIP_TILL_NEXT;
};

/// How many times a times()/timesOrMore() pattern takes an event: [from, to].
struct Times {
  std::int32_t from = 1;
  std::int32_t to = 1;

  static Times of(std::int32_t n) { return of(n, n); }
  static Times of(std::int32_t from, std::int32_t to) {
    if (from < 0) throw MalformedPatternException("times: 'from' must be >= 0, got " + std::to_string(from));
    if (to < from) {
      throw MalformedPatternException("times: 'to' (" + std::to_string(to) + ") must be >= 'from' (" +
                                      std::to_string(from) + ")");
    }
    if (from == 0 && to == 0) throw MalformedPatternException("times: 'from' and 'to' must not both be 0");
    return Times{from, to};
  }
};

}  // namespace tidemark
