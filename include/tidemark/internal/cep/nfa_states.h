// The compiled form of a pattern: states joined by TAKE, IGNORE and PROCEED
// transitions (Flink CEP's State / StateTransition).
//
// - TAKE: the event matches; it is stored under the state's pattern name and
//   the partial match moves to the target.
// - IGNORE: the event is skipped; the partial match stays (or moves to an
//   "ignoring" copy of the state).
// - PROCEED: an epsilon move to the target, tried before the event is
//   consumed there (how optional and looping states hand over).
// A state is identified by its index; distinct states may share a pattern
// name (a times(3) pattern compiles to three states named after it).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tidemark/cep/after_match_skip_strategy.h"
#include "tidemark/cep/iterative_condition.h"
#include "tidemark/core/time.h"

namespace tidemark::internal {

enum class CepTransitionAction { TAKE, IGNORE, PROCEED };

enum class CepStateType {
  START,    // where every partial match begins
  NORMAL,
  FINAL,    // a partial match here is a match
  STOP,     // a notNext/notFollowedBy event arrived: the partial match dies
  PENDING,  // waits out `within` after a trailing notFollowedBy, then matches
};

template <class T>
struct CepTransition {
  CepTransitionAction action;
  int source;
  int target;
  CepCondition<T> condition;
};

template <class T>
struct CepState {
  std::string name;  // unique, e.g. "middle:1"
  int page;          // index of the pattern name events taken here are stored under
  CepStateType type;
  std::vector<CepTransition<T>> transitions;

  bool isStart() const { return type == CepStateType::START; }
  bool isFinal() const { return type == CepStateType::FINAL; }
  bool isStop() const { return type == CepStateType::STOP; }
  bool isPending() const { return type == CepStateType::PENDING; }
};

/// The compiled pattern; immutable and shared by every key and subtask.
template <class T>
struct CompiledPattern {
  std::vector<CepState<T>> states;
  std::vector<std::string> pages;  // pattern names, in pattern order
  int start = -1;
  Duration window = 0;             // 0: no within()
  AfterMatchSkipStrategy skip_strategy = AfterMatchSkipStrategy::noSkip();
  int skip_page = -1;              // skipToFirst/skipToLast: the named pattern's page

  int pageOf(std::string_view name) const {
    for (std::size_t i = 0; i < pages.size(); ++i) {
      if (pages[i] == name) return static_cast<int>(i);
    }
    return -1;
  }
};

}  // namespace tidemark::internal
