// SideOutputsThrough<Interface>: the one way every user context sends side
// outputs. A context's output(tag, value) builds the StreamRecord<X> and
// hands it over untyped with typeid(X); this passes it to the operator that
// owns the context, which checks the type against the wired output.
#pragma once

#include <typeinfo>
#include <utility>

#include "tidemark/internal/operators/stream_operator.h"

namespace tidemark::internal {

template <class Interface>
class SideOutputsThrough : public Interface {
 public:
  /// `args` go to the interface's constructor.
  template <class... Args>
  explicit SideOutputsThrough(OperatorBase& op, Args&&... args)
      : Interface(std::forward<Args>(args)...), operator_(op) {}

 protected:
  void emitSideOutput(int tag_id, const std::type_info& type, void* record) final {
    operator_.emitSideOutput(tag_id, type, record);
  }

  /// The operator the context belongs to.
  OperatorBase& owner() const { return operator_; }

 private:
  OperatorBase& operator_;
};

}  // namespace tidemark::internal
