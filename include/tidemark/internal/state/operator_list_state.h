// OperatorListState: a ListState without keys (Flink's operator list state),
// held by an OperatorStateStore for one operator subtask.
//
// Contract: as ListState, with one list per subtask instead of one per key.
// For a snapshot it writes each element as its own byte string (so lists can
// be redistributed without their type); restored, it reads them back.
// Not thread-safe: only the subtask's task thread uses it.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tidemark/serialization/serialization_error.h"
#include "tidemark/serialization/type_serializer.h"
#include "tidemark/state/list_state.h"

namespace tidemark::internal {

/// The face of every OperatorListState, whatever its element type.
class OperatorListStateBase {
 public:
  virtual ~OperatorListStateBase() = default;
  virtual std::vector<std::string> serializeElements() const = 0;
};

template <class T>
class OperatorListState final : public ListState<T>, public OperatorListStateBase {
 public:
  OperatorListState() = default;

  /// A list restored from `elements`; a corrupt element is a SerializationError naming `what` and its place.
  static std::unique_ptr<OperatorListState> fromBytes(const std::vector<std::string>& elements, const std::string& what) {
    auto state = std::make_unique<OperatorListState>();
    state->values_.reserve(elements.size());
    for (std::size_t i = 0; i < elements.size(); ++i) {
      try {
        state->values_.push_back(deserializeFromBytes<T>(elements[i]));
      } catch (const SerializationError& error) {
        throw SerializationError(fmt::format("{}, element {}: {}", what, i, error.what()));
      }
    }
    return state;
  }

  std::vector<T> get() const override { return values_; }
  void forEach(absl::FunctionRef<void(const T&)> visit) const override {
    for (const T& value : values_) visit(value);
  }
  void add(T value) override { values_.push_back(std::move(value)); }
  void addAll(std::vector<T> values) override {
    for (T& value : values) values_.push_back(std::move(value));
  }
  void update(std::vector<T> values) override { values_ = std::move(values); }
  void clear() override { values_.clear(); }

  std::vector<std::string> serializeElements() const override {
    std::vector<std::string> elements;
    elements.reserve(values_.size());
    for (const T& value : values_) elements.push_back(serializeToBytes(value));
    return elements;
  }

 private:
  std::vector<T> values_;
};

}  // namespace tidemark::internal
