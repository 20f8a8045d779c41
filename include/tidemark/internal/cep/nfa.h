// Nfa<T>: runs a compiled pattern over one key's events (Flink CEP's NFA).
//
// process(state, event, ts) feeds one event to every partial match of the
// key and returns the matches it completed; advanceTime(state, ts) prunes the
// partial matches that `within` no longer allows (returning them as timeouts)
// and releases matches that were waiting for that: trailing notFollowedBy
// matches and, under a skip strategy, matches held back behind an earlier
// partial match. The operator calls advanceTime with each event's timestamp
// before the event and with the watermark after the events (docs/semantics.md 6.2,
// 6.3).
//
// Every step is Flink's: the decision graph over TAKE / IGNORE / PROCEED
// transitions, the Dewey versions given to the branches, the shared buffer's
// reference counts, the heap order partial matches are visited in, and the
// skip strategies' pruning, so the same input yields the same matches in the
// same order with the same events per name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tidemark/internal/cep/computation_state.h"
#include "tidemark/cep/match.h"
#include "tidemark/internal/cep/nfa_states.h"
#include "tidemark/internal/cep/shared_buffer.h"

namespace tidemark::internal {

/// Everything the NFA keeps for one key.
template <class T>
struct NfaKeyState {
  ComputationQueue partial_matches;
  ComputationQueue completed_matches;  // held back by a skip strategy
  SharedBuffer<T> buffer;
  std::uint64_t next_event_id = 0;
  bool new_start_partial_match = false;  // set when an event started a partial match

  auto fields() {
    return std::tie(partial_matches, completed_matches, buffer, next_event_id, new_start_partial_match);
  }

  /// Nothing can match any more: only the start state, no held matches, no events.
  bool idle() const {
    return partial_matches.size() == 1 && !partial_matches.peek()->start_event && completed_matches.empty() &&
           buffer.empty();
  }
  std::size_t numPartialMatches() const { return partial_matches.size() - (partial_matches.empty() ? 0 : 1); }
};

/// Reads the processing time when a condition asks for it (rarely), so
/// feeding an event costs no clock read.
struct ProcessingClock {
  const void* owner = nullptr;
  Timestamp (*read)(const void* owner) = nullptr;
  Timestamp operator()() const { return read != nullptr ? read(owner) : kMinWatermark; }
};

template <class T>
struct TimedOutMatch {
  Match<T> match;
  Timestamp timestamp;  // first event's timestamp + window
};

template <class T>
class Nfa {
 public:
  Nfa(std::shared_ptr<const CompiledPattern<T>> pattern, bool handle_timeout)
      : pattern_(std::move(pattern)), handle_timeout_(handle_timeout) {}

  const CompiledPattern<T>& pattern() const { return *pattern_; }
  Duration windowTime() const { return pattern_->window; }

  NfaKeyState<T> initialState() const {
    NfaKeyState<T> state;
    state.partial_matches.add(ComputationState::startState(pattern_->start, DeweyNumber(1)));
    return state;
  }

  /// Feed `event` (timestamp `ts`) to every partial match of a key;
  /// completed matches are appended to `matches`. A key without state is in
  /// the start state only; its state is created when an event starts a
  /// partial match. Returns true when the event started one.
  bool process(std::unique_ptr<NfaKeyState<T>>& key_state, const T& event, Timestamp ts, ProcessingClock processing_time,
               std::vector<Match<T>>& matches) {
    if (!key_state || key_state->numPartialMatches() == 0) {
      // Most events leave a key that has no partial match as it is: check
      // that without touching (or creating) its state.
      const EventRef ref{event, CepEventId{ts, 0}, processing_time};
      if (startStateIgnores(ref)) return false;
      if (!key_state) key_state = acquireState();
    }
    key_state->new_start_partial_match = false;
    process(*key_state, event, ts, processing_time, matches);
    return key_state->new_start_partial_match;
  }

  /// Drop a key's state once it is idle(); the object is kept for the next
  /// key that starts a partial match (with its tables' capacity), so keys
  /// coming and going cost no allocation.
  void releaseState(std::unique_ptr<NfaKeyState<T>> state) {
    if (state == nullptr || spare_states_.size() >= kMaxSpareStates) return;
    state->partial_matches.clear();
    state->partial_matches.add(ComputationState::startState(pattern_->start, DeweyNumber(1)));
    state->completed_matches.clear();
    state->next_event_id = 0;
    state->new_start_partial_match = false;
    spare_states_.push_back(std::move(state));
  }

  /// advanceTime for a key that may have no state (then nothing happens).
  void advanceTime(std::unique_ptr<NfaKeyState<T>>& key_state, Timestamp ts, std::vector<Match<T>>& matches,
                   std::vector<TimedOutMatch<T>>& timeouts) {
    if (key_state) advanceTime(*key_state, ts, matches, timeouts);
  }

  void process(NfaKeyState<T>& key_state, const T& event, Timestamp ts, ProcessingClock processing_time,
               std::vector<Match<T>>& matches) {
    const EventRef ref{event, CepEventId{ts, key_state.next_event_id++}, processing_time};
    ComputationQueue& new_partial_matches = scratch_partial_;
    ComputationQueue& potential_matches = scratch_potential_;
    new_partial_matches.clear();
    potential_matches.clear();
    for (const ComputationState& computation : key_state.partial_matches) {
      next_states_.clear();
      computeNextStates(key_state, computation, ref, next_states_);
      retained_.clear();
      bool discard_path = false;
      for (ComputationState& next : next_states_) {
        const CepState<T>& s = stateOf(next);
        if (s.isFinal()) {
          potential_matches.add(std::move(next));
        } else if (s.isStop()) {
          discard_path = true;
          key_state.buffer.releaseNode(*next.previous, next.version);
        } else {
          retained_.push_back(std::move(next));
        }
      }
      if (discard_path) {
        for (const ComputationState& s : retained_) {
          if (s.previous) key_state.buffer.releaseNode(*s.previous, s.version);
        }
      } else {
        for (ComputationState& s : retained_) new_partial_matches.add(std::move(s));
      }
    }
    if (pattern_->skip_strategy.isSkipStrategy()) {
      emitCompletedMatches(key_state, potential_matches, new_partial_matches, matches);
    } else {
      // Without a skip strategy nothing can prune a match: emit them at once,
      // in the queue's (heap) order, as Flink does.
      for (const ComputationState& match : potential_matches) {
        matches.push_back(materialize(key_state.buffer, firstPath(key_state.buffer, match)));
        key_state.buffer.releaseNode(*match.previous, match.version);
      }
    }
    key_state.partial_matches.takeContentsOf(new_partial_matches);
  }

  /// Time has reached `ts`: time out partial matches whose first event is at
  /// least `window` old (appended to `timeouts` when timeouts are handled),
  /// and emit matches that were waiting (appended to `matches`).
  void advanceTime(NfaKeyState<T>& key_state, Timestamp ts, std::vector<Match<T>>& matches,
                   std::vector<TimedOutMatch<T>>& timeouts) {
    // Nothing can time out, and no held match can be released: the queue's
    // head is the partial match that started first, so when it is inside
    // the window every other one is too.
    if (pattern_->window <= 0) return;
    if (key_state.completed_matches.empty()) {
      const ComputationState* first = key_state.partial_matches.peek();
      if (first == nullptr || !first->start_event || !isTimedOut(*first, ts)) return;
    }
    ComputationQueue& new_partial_matches = scratch_partial_;
    ComputationQueue& potential_matches = scratch_potential_;
    new_partial_matches.clear();
    potential_matches.clear();
    for (const ComputationState& computation : key_state.partial_matches) {
      if (!isTimedOut(computation, ts)) {
        new_partial_matches.add(computation);
        continue;
      }
      if (stateOf(computation).isPending()) {
        potential_matches.add(computation);  // a trailing notFollowedBy survived the window: a match
        continue;
      }
      if (handle_timeout_) {
        timeouts.push_back(TimedOutMatch<T>{materialize(key_state.buffer, firstPath(key_state.buffer, computation)),
                                            computation.start_timestamp + pattern_->window});
      }
      key_state.buffer.releaseNode(*computation.previous, computation.version);
    }
    emitCompletedMatches(key_state, potential_matches, new_partial_matches, matches);
    key_state.partial_matches.takeContentsOf(new_partial_matches);
  }

 private:
  std::unique_ptr<NfaKeyState<T>> acquireState() {
    if (spare_states_.empty()) return std::make_unique<NfaKeyState<T>>(initialState());
    std::unique_ptr<NfaKeyState<T>> state = std::move(spare_states_.back());
    spare_states_.pop_back();
    return state;
  }

  struct EventRef {
    const T& value;
    CepEventId id;
    ProcessingClock processing_time;
  };

  // The condition context of one partial match for one event: the partial
  // match's events are materialized on first use.
  class ConditionContext final : public IterativeCondition<T>::Context {
   public:
    ConditionContext(const Nfa& nfa, const SharedBuffer<T>& buffer, const ComputationState& computation,
                     const EventRef& event)
        : nfa_(nfa), buffer_(buffer), computation_(computation), event_(event) {}

    const std::vector<T>& getEventsForPattern(std::string_view name) override {
      if (!matched_) {
        matched_.emplace();
        if (computation_.previous) *matched_ = nfa_.materialize(buffer_, nfa_.firstPath(buffer_, computation_));
      }
      return matched_->get(name);
    }
    Timestamp timestamp() const override { return event_.id.timestamp; }
    Timestamp currentProcessingTime() const override { return event_.processing_time(); }

   private:
    const Nfa& nfa_;
    const SharedBuffer<T>& buffer_;
    const ComputationState& computation_;
    const EventRef& event_;
    std::optional<Match<T>> matched_;
  };

  // For a key with only the start state: true when no transition of the
  // start state takes or ignores the event, so the key stays as it is (the
  // start state's version would grow by 0).
  bool startStateIgnores(const EventRef& event) {
    ConditionContext ctx(*this, empty_buffer_, start_state_, event);
    dfs_.clear();
    dfs_.push_back(start_state_.state);
    while (!dfs_.empty()) {
      const int current = dfs_.back();
      dfs_.pop_back();
      for (const CepTransition<T>& t : stateOf(current).transitions) {
        if (!t.condition(event.value, ctx)) continue;
        if (t.action != CepTransitionAction::PROCEED) return false;
        dfs_.push_back(t.target);
      }
    }
    return true;
  }

  const CepState<T>& stateOf(int index) const { return pattern_->states[static_cast<std::size_t>(index)]; }
  const CepState<T>& stateOf(const ComputationState& c) const { return stateOf(c.state); }

  bool isTimedOut(const ComputationState& c, Timestamp ts) const {
    // ts - start >= window, without overflow near MIN / MAX.
    return !stateOf(c).isStart() && pattern_->window > 0 && ts >= saturatingAdd(c.start_timestamp, pattern_->window);
  }

  static int increasingSelfState(int ignore_branches, int take_branches) {
    return take_branches == 0 && ignore_branches == 0 ? 0 : ignore_branches + std::max(1, take_branches);
  }

  // The TAKE and IGNORE transitions the event enables from `c`'s state,
  // following PROCEED transitions (epsilon moves) depth first.
  void decisionGraph(ConditionContext& ctx, const ComputationState& c, const T& event) {
    edges_.clear();
    take_branches_ = 0;
    ignore_branches_ = 0;
    dfs_.clear();
    dfs_.push_back(c.state);
    while (!dfs_.empty()) {
      const int current = dfs_.back();
      dfs_.pop_back();
      for (const CepTransition<T>& t : stateOf(current).transitions) {
        if (!t.condition(event, ctx)) continue;
        if (t.action == CepTransitionAction::PROCEED) {
          dfs_.push_back(t.target);
          continue;
        }
        const bool self_ignore = t.action == CepTransitionAction::IGNORE && t.target == c.state;
        if (!self_ignore) {
          if (t.action == CepTransitionAction::IGNORE) ++ignore_branches_;
          if (t.action == CepTransitionAction::TAKE) ++take_branches_;
        }
        edges_.push_back(&t);
      }
    }
  }

  // A FINAL state reachable from `s` by PROCEED transitions the event allows.
  int finalStateAfterProceed(ConditionContext& ctx, int s, const T& event) {
    std::vector<int>& stack = proceed_stack_;
    stack.assign(1, s);
    while (!stack.empty()) {
      const int current = stack.back();
      stack.pop_back();
      for (const CepTransition<T>& t : stateOf(current).transitions) {
        if (t.action != CepTransitionAction::PROCEED || !t.condition(event, ctx)) continue;
        if (stateOf(t.target).isFinal()) return t.target;
        stack.push_back(t.target);
      }
    }
    return -1;
  }

  static void addComputationState(NfaKeyState<T>& key_state, std::vector<ComputationState>& out, int state,
                                  const std::optional<CepNodeId>& previous, DeweyNumber version, Timestamp start_ts,
                                  Timestamp previous_ts, const std::optional<CepEventId>& start_event) {
    if (previous) key_state.buffer.lockNode(*previous, version);
    out.push_back(ComputationState{state, previous, std::move(version), start_ts, previous_ts, start_event});
  }

  void computeNextStates(NfaKeyState<T>& key_state, const ComputationState& c, const EventRef& event,
                         std::vector<ComputationState>& out) {
    ConditionContext ctx(*this, key_state.buffer, c, event);
    decisionGraph(ctx, c, event.value);
    const bool from_start = stateOf(c).isStart();
    int take_branches_to_visit = std::max(0, take_branches_ - 1);
    int ignore_branches_to_visit = ignore_branches_;
    const int total_take_to_skip = std::max(0, take_branches_ - 1);
    const int take_branches = take_branches_;
    const int ignore_branches = ignore_branches_;
    for (const CepTransition<T>* edge : edges_) {
      if (edge->action == CepTransitionAction::IGNORE) {
        if (from_start) continue;
        DeweyNumber version;
        if (edge->target == c.state) {
          version = c.version.increase(increasingSelfState(ignore_branches, take_branches));
        } else {
          version = c.version.increase(total_take_to_skip + ignore_branches_to_visit).addStage();
          --ignore_branches_to_visit;
        }
        addComputationState(key_state, out, edge->target, c.previous, std::move(version), c.start_timestamp,
                            c.previous_timestamp, c.start_event);
        continue;
      }
      // TAKE
      const DeweyNumber current_version = c.version.increase(take_branches_to_visit);
      const DeweyNumber next_version = current_version.addStage();
      --take_branches_to_visit;
      const CepNodeId node{event.id, stateOf(edge->source).page};
      key_state.buffer.put(node, event.value, c.previous, current_version);
      const Timestamp start_ts = from_start ? event.id.timestamp : c.start_timestamp;
      const std::optional<CepEventId> start_event = from_start ? std::optional(event.id) : c.start_event;
      if (from_start) key_state.new_start_partial_match = true;
      addComputationState(key_state, out, edge->target, node, next_version, start_ts, event.id.timestamp,
                          start_event);
      const int final_state = finalStateAfterProceed(ctx, edge->target, event.value);
      if (final_state >= 0) {
        addComputationState(key_state, out, final_state, node, next_version, start_ts, event.id.timestamp,
                            start_event);
      }
    }
    if (from_start) {
      const int branches = increasingSelfState(ignore_branches, take_branches);
      out.push_back(ComputationState::startState(c.state, c.version.increase(branches)));
    }
    if (c.previous) key_state.buffer.releaseNode(*c.previous, c.version);
  }

  // Emit completed matches, earliest first, while no partial match that
  // started before them is alive (under a skip strategy it might still
  // complete and prune them); each emitted match prunes per the strategy.
  // Flink takes this path for every match under a skip strategy, and for the
  // matches advanceTime releases (trailing notFollowedBy) under any.
  void emitCompletedMatches(NfaKeyState<T>& key_state, ComputationQueue& potential_matches,
                            ComputationQueue& partial_matches, std::vector<Match<T>>& matches) {
    for (const ComputationState& m : potential_matches) key_state.completed_matches.add(m);
    const bool skipping = pattern_->skip_strategy.isSkipStrategy();
    while (const ComputationState* earliest = key_state.completed_matches.peek()) {
      const ComputationState* earliest_partial = partial_matches.peek();
      if (earliest_partial != nullptr && compareComputationStates(*earliest, *earliest_partial) > 0) break;
      const ComputationState match = key_state.completed_matches.poll();
      const std::vector<CepPath> paths =
          key_state.buffer.extractPaths(*match.previous, match.version, skipping ? SIZE_MAX : 1);
      if (const std::optional<CepEventId> pruning_id = pruningId(key_state.buffer, paths)) {
        prune(key_state, partial_matches, *pruning_id);
        prune(key_state, key_state.completed_matches, *pruning_id);
      }
      matches.push_back(materialize(key_state.buffer, paths.empty() ? CepPath{} : paths.front()));
      key_state.buffer.releaseNode(*match.previous, match.version);
    }
  }

  // The event before which (or at which) partial matches are discarded.
  std::optional<CepEventId> pruningId(const SharedBuffer<T>& buffer, const std::vector<CepPath>& paths) const {
    using Kind = AfterMatchSkipStrategy::Kind;
    const AfterMatchSkipStrategy& strategy = pattern_->skip_strategy;
    std::optional<CepEventId> id;
    for (const CepPath& path : paths) {
      switch (strategy.kind()) {
        case Kind::NO_SKIP:
          return std::nullopt;
        case Kind::SKIP_TO_NEXT:
          for (const CepNodeId& n : path) id = !id || n.event < *id ? n.event : *id;
          break;
        case Kind::SKIP_PAST_LAST_EVENT:
          for (const CepNodeId& n : path) id = !id || n.event > *id ? n.event : *id;
          break;
        case Kind::SKIP_TO_FIRST:
        case Kind::SKIP_TO_LAST:
          id = skipToElementId(buffer, path, id);
          break;
      }
    }
    return id;
  }

  std::optional<CepEventId> skipToElementId(const SharedBuffer<T>& buffer, const CepPath& path,
                                            std::optional<CepEventId> id) const {
    const AfterMatchSkipStrategy& strategy = pattern_->skip_strategy;
    // The path runs from the last event to the first.
    std::vector<CepEventId> named;
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      if (it->page == pattern_->skip_page) named.push_back(it->event);
    }
    if (named.empty()) {
      if (strategy.shouldThrowOnMiss()) {
        throw std::runtime_error("CEP: cannot apply " + strategy.toString() + ": the match has no event under '" +
                                 *strategy.getPatternName() + "'");
      }
      return id;
    }
    const CepEventId candidate =
        strategy.kind() == AfterMatchSkipStrategy::Kind::SKIP_TO_FIRST ? named.front() : named.back();
    if (!id || candidate > *id) id = candidate;
    if (strategy.shouldThrowOnMiss() && !path.empty() && path.back().event == *id) {
      throw std::runtime_error("CEP: cannot apply " + strategy.toString() +
                               ": it would skip to the match's own first event and find the same match again");
    }
    (void)buffer;
    return id;
  }

  void prune(NfaKeyState<T>& key_state, ComputationQueue& queue, const CepEventId& pruning_id) const {
    const bool inclusive = pattern_->skip_strategy.kind() == AfterMatchSkipStrategy::Kind::SKIP_TO_NEXT ||
                           pattern_->skip_strategy.kind() == AfterMatchSkipStrategy::Kind::SKIP_PAST_LAST_EVENT;
    queue.removeIf([&](const ComputationState& c) {
      if (!c.start_event) return false;
      const bool drop = inclusive ? *c.start_event <= pruning_id : *c.start_event < pruning_id;
      if (drop && c.previous) key_state.buffer.releaseNode(*c.previous, c.version);
      return drop;
    });
  }

  CepPath firstPath(const SharedBuffer<T>& buffer, const ComputationState& c) const {
    if (!c.previous) return {};
    std::vector<CepPath> paths = buffer.extractPaths(*c.previous, c.version, 1);
    return paths.empty() ? CepPath{} : std::move(paths.front());
  }

  Match<T> materialize(const SharedBuffer<T>& buffer, const CepPath& path) const {
    Match<T> match;
    match.setNamesOwner(pattern_);
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      match.eventsFor(pattern_->pages[static_cast<std::size_t>(it->page)]).push_back(buffer.event(it->event));
    }
    return match;
  }

  std::shared_ptr<const CompiledPattern<T>> pattern_;
  bool handle_timeout_;
  // Scratch space reused across events (process() is not re-entrant).
  static constexpr std::size_t kMaxSpareStates = 256;
  std::vector<std::unique_ptr<NfaKeyState<T>>> spare_states_;  // idle key states kept for reuse
  const SharedBuffer<T> empty_buffer_;
  const ComputationState start_state_ = ComputationState::startState(pattern_->start, DeweyNumber(1));
  ComputationQueue scratch_partial_;
  ComputationQueue scratch_potential_;
  std::vector<ComputationState> next_states_;
  std::vector<ComputationState> retained_;
  std::vector<const CepTransition<T>*> edges_;
  std::vector<int> dfs_;
  std::vector<int> proceed_stack_;
  int take_branches_ = 0;
  int ignore_branches_ = 0;
};

}  // namespace tidemark::internal
