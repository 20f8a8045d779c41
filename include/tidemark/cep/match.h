// Match<T>: the events of one match (or timed-out partial match), grouped by
// pattern name (Flink CEP's Map<String, List<T>>).
//
// Names come in the order of their first event, which is the pattern's order;
// events under a name in the order they were taken. A name that took no event
// (an optional pattern that was skipped, a not-pattern) is absent and get()
// returns an empty list for it.
//
//   void processMatch(const tidemark::Match<LoginEvent>& match, Context&, Collector<std::string>& out) {
//     const LoginEvent& first = match.get("first").front();
//     ...
//   }
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tidemark {

template <class T>
class Match {
 public:
  using Entry = std::pair<std::string_view, std::vector<T>>;

  Match() = default;

  /// The events taken under `name`, oldest first; empty when there are none.
  const std::vector<T>& get(std::string_view name) const {
    for (const Entry& entry : entries_) {
      if (entry.first == name) return entry.second;
    }
    return noEvents();
  }
  bool contains(std::string_view name) const {
    for (const Entry& entry : entries_) {
      if (entry.first == name) return true;
    }
    return false;
  }
  /// Like get(), but a name without events is an error.
  const std::vector<T>& at(std::string_view name) const {
    for (const Entry& entry : entries_) {
      if (entry.first == name) return entry.second;
    }
    throw std::out_of_range("the match has no events under pattern name '" + std::string(name) + "'");
  }

  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }

  /// Runtime use: append `event` under `name`, which must outlive the match
  /// or be owned by `names`.
  std::vector<T>& eventsFor(std::string_view name) {
    for (Entry& entry : entries_) {
      if (entry.first == name) return entry.second;
    }
    return entries_.emplace_back(name, std::vector<T>{}).second;
  }
  void setNamesOwner(std::shared_ptr<const void> owner) { names_owner_ = std::move(owner); }
  void clear() { entries_.clear(); }

 private:
  static const std::vector<T>& noEvents() {
    static const std::vector<T> none;
    return none;
  }

  std::vector<Entry> entries_;
  std::shared_ptr<const void> names_owner_;  // keeps the pattern names the entries view alive
};

}  // namespace tidemark
