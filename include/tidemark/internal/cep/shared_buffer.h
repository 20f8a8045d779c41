// SharedBuffer: the events of one key's partial matches, stored once and
// shared between them (Flink CEP's versioned SharedBuffer).
//
// Every event a partial match takes becomes a node (event, pattern name)
// with an edge back to the node of the event taken before it, labelled with
// the version (DeweyNumber) of the partial match that wrote it. A partial
// match is then just (last node, version): walking back along the edges its
// version is compatible with yields its events. Branching partial matches
// share their common prefix.
//
// Memory is reference counted: a node counts the partial matches (and later
// nodes) that point at it, an edge the partial matches that may still walk
// it, an event the nodes that hold it. Releasing a partial match drops the
// edges only it could walk, and nodes and events nobody refers to any more,
// so the buffer is empty whenever no partial match is alive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/inlined_vector.h>

#include "tidemark/internal/cep/dewey_number.h"
#include "tidemark/serialization/absl_serializers.h"
#include "tidemark/core/time.h"

namespace tidemark::internal {

/// An event of one key: its timestamp and a per-key sequence number.
struct CepEventId {
  Timestamp timestamp = 0;
  std::uint64_t id = 0;

  auto fields() { return std::tie(timestamp, id); }

  friend bool operator==(const CepEventId&, const CepEventId&) = default;
  friend auto operator<=>(const CepEventId&, const CepEventId&) = default;
  template <class H>
  friend H AbslHashValue(H h, const CepEventId& e) {
    return H::combine(std::move(h), e.timestamp, e.id);
  }
};

/// A node: an event as taken under one pattern name (page).
struct CepNodeId {
  CepEventId event;
  int page = 0;

  auto fields() { return std::tie(event, page); }

  friend bool operator==(const CepNodeId&, const CepNodeId&) = default;
  template <class H>
  friend H AbslHashValue(H h, const CepNodeId& n) {
    return H::combine(std::move(h), n.event, n.page);
  }
};

/// The events of one partial match, from its last to its first.
using CepPath = std::vector<CepNodeId>;

template <class T>
class SharedBuffer {
 public:
  /// Store `node` (for `event`) with an edge to `previous`, written by `version`.
  void put(const CepNodeId& node, const T& event, const std::optional<CepNodeId>& previous,
           const DeweyNumber& version) {
    if (previous) lockNode(*previous, version);  // the new edge refers to it
    auto [it, inserted] = nodes_.try_emplace(node);
    if (inserted) lockEvent(node.event, event);
    it->second.edges.push_back(Edge{previous, version, 0});
  }

  /// One more partial match of `version` refers to `node`.
  void lockNode(const CepNodeId& node, const DeweyNumber& version) {
    auto it = nodes_.find(node);
    if (it == nodes_.end()) return;
    ++it->second.refs;
    for (Edge& edge : it->second.edges) {
      if (version.isCompatibleWith(edge.version)) ++edge.refs;
    }
  }

  /// A partial match of `version` no longer refers to `node`: drop what only it used.
  void releaseNode(const CepNodeId& node, const DeweyNumber& version) {
    std::vector<std::pair<CepNodeId, DeweyNumber>>& todo = release_scratch_;
    todo.clear();
    todo.emplace_back(node, version);
    while (!todo.empty()) {
      auto [current, current_version] = std::move(todo.back());
      todo.pop_back();
      auto it = nodes_.find(current);
      if (it == nodes_.end()) break;
      auto& edges = it->second.edges;
      for (std::size_t i = 0; i < edges.size();) {
        if (current_version.isCompatibleWith(edges[i].version) && release(edges[i].refs)) {
          if (edges[i].target) todo.emplace_back(*edges[i].target, edges[i].version);
          edges.erase(edges.begin() + static_cast<std::ptrdiff_t>(i));
        } else {
          ++i;
        }
      }
      if (release(it->second.refs)) {
        nodes_.erase(it);
        releaseEvent(current.event);
      }
    }
  }

  /// The paths from `node` back to a first event that `version` may walk, at
  /// most `max_paths` of them, in the order Flink's extraction finds them.
  std::vector<CepPath> extractPaths(const CepNodeId& node, const DeweyNumber& version,
                                    std::size_t max_paths = SIZE_MAX) const {
    std::vector<CepPath> result;
    struct Step {
      std::optional<CepNodeId> node;
      DeweyNumber version;
      CepPath path;
    };
    std::vector<Step> stack;
    if (nodes_.find(node) == nodes_.end()) return result;
    stack.push_back(Step{node, version, {}});
    while (!stack.empty() && result.size() < max_paths) {
      Step step = std::move(stack.back());
      stack.pop_back();
      if (!step.node) {
        result.push_back(std::move(step.path));
        continue;
      }
      step.path.push_back(*step.node);
      const auto found = nodes_.find(*step.node);
      if (found == nodes_.end()) throw std::logic_error("CEP shared buffer: a partial match refers to a released event");
      for (const Edge& edge : found->second.edges) {
        if (step.version.isCompatibleWith(edge.version)) stack.push_back(Step{edge.target, edge.version, step.path});
      }
    }
    return result;
  }

  const T& event(const CepEventId& id) const {
    const auto found = events_.find(id);
    if (found == events_.end()) throw std::logic_error("CEP shared buffer: a match refers to a released event");
    return found->second.value;
  }

  std::size_t numNodes() const { return nodes_.size(); }
  std::size_t numEvents() const { return events_.size(); }
  bool empty() const { return nodes_.empty() && events_.empty(); }

  /// What a snapshot writes: every node with its edges, every event, and
  /// their reference counts (cep_snapshot.h).
  auto fields() { return std::tie(nodes_, events_); }

 private:
  struct Edge {
    std::optional<CepNodeId> target;  // none: the first event of the match
    DeweyNumber version;
    std::int32_t refs;

    auto fields() { return std::tie(target, version, refs); }
  };
  struct Node {
    absl::InlinedVector<Edge, 2> edges;
    std::int32_t refs = 0;

    auto fields() { return std::tie(edges, refs); }
  };
  struct StoredEvent {
    T value;
    std::int32_t refs;

    auto fields() { return std::tie(value, refs); }
  };

  // A count that is already 0 stays 0 and reports released, as Flink's Lockable.
  static bool release(std::int32_t& refs) {
    if (refs <= 0) return true;
    return --refs == 0;
  }

  void lockEvent(const CepEventId& id, const T& value) {
    auto [it, inserted] = events_.try_emplace(id, StoredEvent{value, 0});
    ++it->second.refs;
  }
  void releaseEvent(const CepEventId& id) {
    auto it = events_.find(id);
    if (it != events_.end() && release(it->second.refs)) events_.erase(it);
  }

  absl::flat_hash_map<CepNodeId, Node> nodes_;
  absl::flat_hash_map<CepEventId, StoredEvent> events_;
  std::vector<std::pair<CepNodeId, DeweyNumber>> release_scratch_;  // releaseNode's work list
};

}  // namespace tidemark::internal
