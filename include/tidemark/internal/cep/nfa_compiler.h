// Compiles a Pattern<T> into the states of its NFA (Flink CEP's NFACompiler;
// the construction is the same, so partial matches branch, share events and
// complete exactly as they do there).
//
// The sequence is walked from its last pattern to its first: the FINAL state
// comes first and every pattern becomes one or more states whose TAKE / PROCEED
// transitions lead to the states built before it. Not-patterns turn into
// transitions to STOP states (notNext, and notFollowedBy in the middle) or,
// at the end of a pattern with within(), a PENDING state that matches once the
// window has passed without the forbidden event.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tidemark/internal/cep/nfa_states.h"
#include "tidemark/cep/pattern.h"

namespace tidemark::internal {

template <class T>
class NfaCompiler {
 public:
  using Node = PatternNode<T>;
  using Condition = CepCondition<T>;

  static std::shared_ptr<const CompiledPattern<T>> compile(const Pattern<T>& pattern) {
    NfaCompiler compiler(pattern.node().get());
    return compiler.run();
  }

 private:
  explicit NfaCompiler(const Node* last) : current_(last) {}

  std::shared_ptr<const CompiledPattern<T>> run() {
    collectPages(current_);
    result_->skip_strategy = current_->skip_strategy;
    checkSkipStrategy();
    result_->window = windowOf(current_);
    int sink = createState("$endState$", CepStateType::FINAL, -1);
    sink = createMiddleStates(sink);
    const int start = convertPattern(sink);
    state(start).type = CepStateType::START;
    result_->start = start;
    return result_;
  }

  // ---- checks and bookkeeping ----

  // Pattern names in sequence order (group members in place); each must be unique.
  void collectPages(const Node* last) {
    std::vector<const Node*> sequence;
    for (const Node* n = last; n != nullptr; n = n->previous.get()) sequence.push_back(n);
    std::reverse(sequence.begin(), sequence.end());
    for (const Node* n : sequence) {
      if (n->group) {
        collectPages(n->group.get());
        continue;
      }
      if (result_->pageOf(n->name) >= 0) {
        throw MalformedPatternException("duplicate pattern name '" + n->name + "': pattern names must be unique");
      }
      result_->pages.push_back(n->name);
    }
  }

  void checkSkipStrategy() {
    const auto& name = result_->skip_strategy.getPatternName();
    if (!name) return;
    result_->skip_page = result_->pageOf(*name);
    if (result_->skip_page < 0) {
      throw MalformedPatternException("the after-match skip strategy " + result_->skip_strategy.toString() +
                                      " names a pattern that does not exist: '" + *name + "'");
    }
  }

  // The smallest within() over the whole sequence (0: none).
  static Duration windowOf(const Node* last) {
    Duration window = 0;
    for (const Node* n = last; n != nullptr; n = n->previous.get()) {
      if (n->window && (window == 0 || *n->window < window)) window = *n->window;
      if (n->group) {
        const Duration inner = windowOf(n->group.get());
        if (inner != 0 && (window == 0 || inner < window)) window = inner;
      }
    }
    return window;
  }

  CepState<T>& state(int index) { return result_->states[static_cast<std::size_t>(index)]; }

  int createState(const std::string& base_name, CepStateType type, int page) {
    std::string name = base_name;
    for (int counter = 0; used_names_.count(name) != 0; ++counter) name = base_name + ":" + std::to_string(counter);
    used_names_.insert(name);
    result_->states.push_back(CepState<T>{name, page, type, {}});
    return static_cast<int>(result_->states.size()) - 1;
  }
  int createCurrentState(CepStateType type) { return createState(current_->name, type, pageOf(current_)); }
  int pageOf(const Node* n) const { return n->group ? -1 : result_->pageOf(n->name); }

  void addTransition(int source, CepTransitionAction action, int target, Condition condition) {
    state(source).transitions.push_back(CepTransition<T>{action, source, target, std::move(condition)});
  }
  void addTake(int source, int target, Condition c) { addTransition(source, CepTransitionAction::TAKE, target, c); }
  void addTake(int source, Condition c) { addTake(source, source, std::move(c)); }
  void addIgnore(int source, int target, Condition c) { addTransition(source, CepTransitionAction::IGNORE, target, c); }
  void addIgnore(int source, Condition c) { addIgnore(source, source, std::move(c)); }
  void addProceed(int source, int target, Condition c) {
    addTransition(source, CepTransitionAction::PROCEED, target, c);
  }

  // ---- conditions ----

  bool headOfGroup(const Node* n) const { return group_ != nullptr && n->previous == nullptr; }

  // Whether the current group pattern is being built at the first of its
  // repetitions (its head then uses the group's outer consuming strategy).
  void setFirstOfLoop(bool first) {
    if (current_->group) first_of_loop_[current_] = first;
  }
  bool groupFirstOfLoop() const {
    auto it = first_of_loop_.find(group_);
    return it == first_of_loop_.end() || it->second;
  }
  bool isHeadOfOptionalGroup(const Node* n) const {
    return headOfGroup(n) && groupFirstOfLoop() && group_->quantifier.hasProperty(Quantifier::OPTIONAL);
  }

  // PROCEED's condition: always true, but inside a group with until() only
  // while until does not hold.
  Condition trueCondition() const {
    if (group_ != nullptr && group_->until) return conditionNot(*group_->until);
    return Condition{};
  }

  static std::optional<Condition> ignoreConditionFor(ConsumingStrategy strategy, const Node* n) {
    switch (strategy) {
      case ConsumingStrategy::SKIP_TILL_NEXT:
        return conditionNot(n->takeCondition());
      case ConsumingStrategy::SKIP_TILL_ANY:
        return Condition{};
      default:
        return std::nullopt;
    }
  }

  std::optional<Condition> innerIgnoreCondition(const Node* n) const {
    ConsumingStrategy strategy = n->quantifier.getInnerConsumingStrategy();
    if (headOfGroup(n)) strategy = group_->quantifier.getInnerConsumingStrategy();
    return ignoreConditionFor(strategy, n);
  }

  std::optional<Condition> ignoreCondition(const Node* n) const {
    ConsumingStrategy strategy = n->quantifier.getConsumingStrategy();
    if (headOfGroup(n)) {
      strategy = groupFirstOfLoop() ? group_->quantifier.getConsumingStrategy()
                                    : group_->quantifier.getInnerConsumingStrategy();
    }
    std::optional<Condition> ignore = ignoreConditionFor(strategy, n);
    if (group_ != nullptr && group_->until) ignore = withUntil(ignore, *group_->until, false);
    return ignore;
  }

  Condition takeCondition(const Node* n) const {
    Condition take = n->takeCondition();
    if (group_ != nullptr && group_->until) take = *withUntil(take, *group_->until, true);
    return take;
  }

  // A looping pattern's take / ignore conditions also require "not until".
  static std::optional<Condition> withUntil(std::optional<Condition> condition, const Condition& until, bool is_take) {
    if (condition) return conditionAnd(conditionNot(until), *condition);
    if (is_take) return conditionNot(until);
    return std::nullopt;
  }
  std::optional<Condition> withUntil(std::optional<Condition> condition, bool is_take) const {
    if (!current_->until) return condition;
    return withUntil(std::move(condition), *current_->until, is_take);
  }

  // ---- states, from the end of the sequence to its beginning ----

  int createMiddleStates(int sink) {
    int last_sink = sink;
    while (current_->previous != nullptr) {
      const ConsumingStrategy strategy = current_->quantifier.getConsumingStrategy();
      if (strategy == ConsumingStrategy::NOT_FOLLOW) {
        // In the middle, notFollowedBy becomes transitions of its neighbours'
        // states (addStopStates); at the end it needs within().
        if (state(last_sink).isFinal()) {
          if (result_->window == 0) {
            throw MalformedPatternException("notFollowedBy('" + current_->name +
                                            "') ends the pattern, which needs within(): without a window "
                                            "the absence of the event could never be decided");
          }
          const int pending = createState(current_->name, CepStateType::PENDING, pageOf(current_));
          const Condition not_condition = takeCondition(current_);
          addProceed(pending, stopState(not_condition, current_->name), not_condition);
          addIgnore(pending, conditionNot(not_condition));
          last_sink = pending;
        }
      } else if (strategy == ConsumingStrategy::NOT_NEXT) {
        const int not_next = createCurrentState(CepStateType::NORMAL);
        const Condition not_condition = takeCondition(current_);
        const int stop = stopState(not_condition, current_->name);
        if (state(last_sink).isFinal()) {
          // IGNORE, not PROCEED: a match must not complete before the next event is seen.
          addIgnore(not_next, last_sink, conditionNot(not_condition));
        } else {
          addProceed(not_next, last_sink, conditionNot(not_condition));
        }
        addProceed(not_next, stop, not_condition);
        last_sink = not_next;
      } else {
        last_sink = convertPattern(last_sink);
      }
      following_ = current_;
      current_ = current_->previous.get();
    }
    return last_sink;
  }

  int convertPattern(int sink) {
    int last_sink;
    const Quantifier& quantifier = current_->quantifier;
    if (quantifier.hasProperty(Quantifier::LOOPING)) {
      setFirstOfLoop(false);
      const int looping = createLooping(copyWithoutTransitiveNots(sink));
      setFirstOfLoop(true);
      last_sink = createTimesState(looping, sink, current_->times);
    } else if (quantifier.hasProperty(Quantifier::TIMES)) {
      last_sink = createTimesState(sink, sink, current_->times);
    } else {
      last_sink = createSingletonState(sink, sink, takeCondition(current_), ignoreCondition(current_),
                                       quantifier.hasProperty(Quantifier::OPTIONAL));
    }
    addStopStates(last_sink);
    return last_sink;
  }

  int createTimesState(int sink, int proceed, Times times) {
    int last_sink = sink;
    setFirstOfLoop(false);
    const std::optional<Condition> inner_ignore = withUntil(innerIgnoreCondition(current_), false);
    const Condition take = *withUntil(takeCondition(current_), true);
    if (current_->quantifier.hasProperty(Quantifier::GREEDY) && times.from != times.to) {
      if (current_->until) original_of_[sink] = copyState(sink);
      updateWithGreedyCondition(sink, take);
    }
    for (int i = times.from; i < times.to; ++i) {
      last_sink = createSingletonState(last_sink, proceed, take, inner_ignore, true);
      addStopStateToLooping(last_sink);
    }
    for (int i = 0; i < times.from - 1; ++i) {
      last_sink = createSingletonState(last_sink, -1, take, inner_ignore, false);
      addStopStateToLooping(last_sink);
    }
    setFirstOfLoop(true);
    return createSingletonState(last_sink, proceed, take, ignoreCondition(current_),
                                current_->quantifier.hasProperty(Quantifier::OPTIONAL));
  }

  int createSingletonState(int sink, int proceed, const Condition& take, const std::optional<Condition>& ignore,
                           bool is_optional) {
    if (current_->group) return createGroupPatternState(sink, proceed, is_optional);
    const int singleton = createCurrentState(CepStateType::NORMAL);
    // Once an event is taken, not-patterns before an optional pattern no longer apply.
    const int take_target = copyWithoutTransitiveNots(sink);
    addTake(singleton, take_target, take);
    if (is_optional) {
      if (current_->quantifier.hasProperty(Quantifier::GREEDY) && current_->until) {
        addProceed(singleton, originalOf(proceed), conditionAnd(trueCondition(), *current_->until));
        addProceed(singleton, proceed, conditionAnd(trueCondition(), conditionNot(*current_->until)));
      } else {
        addProceed(singleton, proceed, trueCondition());
      }
    }
    if (ignore) {
      int ignore_state = singleton;
      if (is_optional || isHeadOfOptionalGroup(current_)) {
        ignore_state = createState(current_->name, CepStateType::NORMAL, pageOf(current_));
        addTake(ignore_state, take_target, take);
        addIgnore(ignore_state, *ignore);
        addStopStates(ignore_state);
      }
      addIgnore(singleton, ignore_state, *ignore);
    }
    return singleton;
  }

  int createLooping(int sink) {
    if (current_->group) return createLoopingGroupPatternState(sink);
    const std::optional<Condition> ignore = withUntil(innerIgnoreCondition(current_), false);
    const Condition take = *withUntil(takeCondition(current_), true);
    const int looping = createCurrentState(CepStateType::NORMAL);
    if (current_->quantifier.hasProperty(Quantifier::GREEDY)) {
      if (current_->until) {
        const int sink_copy = copyState(sink);
        addProceed(looping, sink_copy, conditionAnd(trueCondition(), *current_->until));
        original_of_[sink] = sink_copy;
        addProceed(looping, sink, conditionAnd(trueCondition(), conditionNot(*current_->until)));
      } else {
        addProceed(looping, sink, trueCondition());
      }
      updateWithGreedyCondition(sink, takeCondition(current_));
    } else {
      addProceed(looping, sink, trueCondition());
    }
    addTake(looping, take);
    addStopStateToLooping(looping);
    if (ignore) {
      const int ignore_state = createState(current_->name, CepStateType::NORMAL, pageOf(current_));
      addTake(ignore_state, looping, take);
      addIgnore(ignore_state, *ignore);
      addIgnore(looping, ignore_state, *ignore);
      addStopStateToLooping(ignore_state);
    }
    return looping;
  }

  int createGroupPatternState(int sink, int proceed, bool is_optional) {
    const Condition proceed_condition = trueCondition();  // the enclosing group's
    const Node* old_current = current_;
    const Node* old_following = following_;
    const Node* old_group = group_;
    group_ = current_;
    current_ = current_->group.get();
    int last_sink = createMiddleStates(sink);
    last_sink = convertPattern(last_sink);
    if (is_optional) addProceed(last_sink, proceed, proceed_condition);
    current_ = old_current;
    following_ = old_following;
    group_ = old_group;
    return last_sink;
  }

  int createLoopingGroupPatternState(int sink) {
    const Condition proceed_condition = trueCondition();  // the enclosing group's
    const Node* old_current = current_;
    const Node* old_following = following_;
    const Node* old_group = group_;
    const int dummy = createCurrentState(CepStateType::NORMAL);
    group_ = current_;
    current_ = current_->group.get();
    int last_sink = createMiddleStates(dummy);
    last_sink = convertPattern(last_sink);
    addProceed(last_sink, sink, proceed_condition);
    addProceed(dummy, last_sink, proceed_condition);
    current_ = old_current;
    following_ = old_following;
    group_ = old_group;
    return last_sink;
  }

  // ---- not-patterns ----

  int stopState(const Condition& not_condition, const std::string& name) {
    auto it = stop_states_.find(name);
    if (it != stop_states_.end()) return it->second;
    const int stop = createState(name, CepStateType::STOP, result_->pageOf(name));
    addTake(stop, not_condition);
    stop_states_.emplace(name, stop);
    return stop;
  }

  // notFollowedBy patterns that precede the current one, across optional patterns.
  std::vector<std::pair<Condition, std::string>> currentNotConditions() const {
    std::vector<std::pair<Condition, std::string>> result;
    const Node* n = current_;
    while (n->previous != nullptr && (n->previous->quantifier.hasProperty(Quantifier::OPTIONAL) ||
                                      n->previous->quantifier.getConsumingStrategy() == ConsumingStrategy::NOT_FOLLOW)) {
      n = n->previous.get();
      if (n->quantifier.getConsumingStrategy() == ConsumingStrategy::NOT_FOLLOW) {
        result.emplace_back(takeCondition(n), n->name);
      }
    }
    return result;
  }

  void addStopStates(int s) {
    for (auto& [condition, name] : currentNotConditions()) addProceed(s, stopState(condition, name), condition);
  }

  void addStopStateToLooping(int s) {
    if (following_ != nullptr && following_->quantifier.getConsumingStrategy() == ConsumingStrategy::NOT_FOLLOW) {
      const Condition not_condition = takeCondition(following_);
      addProceed(s, stopState(not_condition, following_->name), not_condition);
    }
  }

  // A copy of `sink` (and what it proceeds to) without the transitions to
  // the stop states of not-patterns before an optional current pattern.
  int copyWithoutTransitiveNots(int sink) {
    const auto nots = currentNotConditions();
    if (nots.empty() || !current_->quantifier.hasProperty(Quantifier::OPTIONAL)) return sink;
    const int copy = createState(state(sink).name, state(sink).type, state(sink).page);
    const std::vector<CepTransition<T>> transitions = state(sink).transitions;
    for (const CepTransition<T>& t : transitions) {
      if (t.action == CepTransitionAction::PROCEED) {
        int target = t.target;
        bool remove = false;
        if (state(target).isStop()) {
          for (const auto& not_condition : nots) remove = remove || state(target).name == not_condition.second;
        } else {
          target = copyWithoutTransitiveNots(target);
        }
        if (!remove) addTransition(copy, t.action, target, t.condition);
      } else {
        addTransition(copy, t.action, t.target == t.source ? copy : t.target, t.condition);
      }
    }
    return copy;
  }

  int copyState(int s) {
    const int copy = createState(state(s).name, state(s).type, state(s).page);
    const std::vector<CepTransition<T>> transitions = state(s).transitions;
    for (const CepTransition<T>& t : transitions) {
      addTransition(copy, t.action, t.target == t.source ? copy : t.target, t.condition);
    }
    return copy;
  }

  int originalOf(int s) const {
    auto it = original_of_.find(s);
    return it == original_of_.end() ? s : it->second;
  }

  // A greedy pattern's successor takes only events the greedy pattern cannot.
  void updateWithGreedyCondition(int s, const Condition& take) {
    for (CepTransition<T>& t : state(s).transitions) t.condition = conditionAnd(t.condition, conditionNot(take));
  }

  std::shared_ptr<CompiledPattern<T>> result_ = std::make_shared<CompiledPattern<T>>();
  const Node* current_;
  const Node* following_ = nullptr;
  const Node* group_ = nullptr;
  std::unordered_map<const Node*, bool> first_of_loop_;  // per group pattern; default true
  std::unordered_set<std::string> used_names_;
  std::unordered_map<std::string, int> stop_states_;
  std::unordered_map<int, int> original_of_;
};

}  // namespace tidemark::internal
