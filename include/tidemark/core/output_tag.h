// OutputTag: the name and type of a side output.
//
// An operator that has a context (process functions, window functions, CEP)
// can emit values of another type to a side output with `ctx.output(tag, v)`;
// `getSideOutput(tag)` on that operator's stream reads them. Tags are
// identified by their id string, so two tags with the same id and type address
// the same side output. Side outputs carry the operator's watermarks.
//
// Example:
//   const tidemark::OutputTag<std::string> late("late-data");
//   auto main = events.process(MyFn{late});
//   main.getSideOutput(late).print("late");
#pragma once

#include <string>
#include <string_view>

namespace tidemark {

namespace internal {
/// A small dense integer for a tag id, so emitting to a side output does not
/// compare strings per record. Thread-safe; the same id always maps to the same
/// number within a process.
int internTagId(std::string_view id);
}  // namespace internal

template <class T>
class OutputTag {
 public:
  using ValueType = T;

  explicit OutputTag(std::string id) : id_(std::move(id)), internal_id_(internal::internTagId(id_)) {}

  const std::string& getId() const { return id_; }
  int internalId() const { return internal_id_; }

 private:
  std::string id_;
  int internal_id_;
};

}  // namespace tidemark
