// AfterMatchSkipStrategy: which partial matches to discard after a match is
// emitted (Flink CEP's AfterMatchSkipStrategy, docs/semantics.md 6.4).
//
// - noSkip() (default): keep every partial match.
// - skipToNext(): discard partial matches that started at or before the
//   match's first event.
// - skipPastLastEvent(): discard partial matches that started at or before
//   the match's last event.
// - skipToFirst(name) / skipToLast(name): discard partial matches that
//   started before the first / last event the match took under `name`. When
//   the match has no such event nothing is discarded, unless
//   throwExceptionOnMiss() was asked for: then the job fails. With
//   throwExceptionOnMiss() it also fails when that event is the match's own
//   first event (skipping to it would find the same match again, forever).
//
// With any strategy but noSkip, a completed match is held back until no
// partial match that started earlier is still alive, so matches come out in
// the order of their first events.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace tidemark {

class AfterMatchSkipStrategy {
 public:
  enum class Kind { NO_SKIP, SKIP_TO_NEXT, SKIP_PAST_LAST_EVENT, SKIP_TO_FIRST, SKIP_TO_LAST };

  static AfterMatchSkipStrategy noSkip() { return AfterMatchSkipStrategy(Kind::NO_SKIP); }
  static AfterMatchSkipStrategy skipToNext() { return AfterMatchSkipStrategy(Kind::SKIP_TO_NEXT); }
  static AfterMatchSkipStrategy skipPastLastEvent() { return AfterMatchSkipStrategy(Kind::SKIP_PAST_LAST_EVENT); }
  static AfterMatchSkipStrategy skipToFirst(std::string pattern_name) {
    return AfterMatchSkipStrategy(Kind::SKIP_TO_FIRST, std::move(pattern_name));
  }
  static AfterMatchSkipStrategy skipToLast(std::string pattern_name) {
    return AfterMatchSkipStrategy(Kind::SKIP_TO_LAST, std::move(pattern_name));
  }

  /// skipToFirst / skipToLast: fail instead of skipping nothing when the match
  /// has no event under the name.
  AfterMatchSkipStrategy throwExceptionOnMiss() const {
    AfterMatchSkipStrategy copy = *this;
    copy.throw_on_miss_ = true;
    return copy;
  }

  Kind kind() const { return kind_; }
  /// False for noSkip(): matches are emitted as soon as they complete.
  bool isSkipStrategy() const { return kind_ != Kind::NO_SKIP; }
  const std::optional<std::string>& getPatternName() const { return pattern_name_; }
  bool shouldThrowOnMiss() const { return throw_on_miss_; }

  std::string toString() const {
    switch (kind_) {
      case Kind::NO_SKIP:
        return "NoSkip";
      case Kind::SKIP_TO_NEXT:
        return "SkipToNext";
      case Kind::SKIP_PAST_LAST_EVENT:
        return "SkipPastLastEvent";
      case Kind::SKIP_TO_FIRST:
        return "SkipToFirst(" + *pattern_name_ + ")";
      case Kind::SKIP_TO_LAST:
        return "SkipToLast(" + *pattern_name_ + ")";
    }
    return "?";
  }

 private:
  explicit AfterMatchSkipStrategy(Kind kind, std::optional<std::string> name = std::nullopt)
      : kind_(kind), pattern_name_(std::move(name)) {}

  Kind kind_;
  std::optional<std::string> pattern_name_;
  bool throw_on_miss_ = false;
};

}  // namespace tidemark
