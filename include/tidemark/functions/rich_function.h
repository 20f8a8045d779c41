// RichFunction: the lifecycle and runtime context every process function and
// sink shares (Flink's AbstractRichFunction).
//
// open() runs once per parallel instance before the first element, close()
// once at the end (also when the job fails after open()). getRuntimeContext()
// is valid from open() on; on keyed streams it is a KeyedRuntimeContext<K>
// that hands out keyed state.
#pragma once

namespace tidemark {

template <class Context>
class RichFunction {
 public:
  virtual ~RichFunction() = default;
  virtual void open() {}
  virtual void close() {}

  Context& getRuntimeContext() { return *runtime_context_; }
  /// Runtime use: called before open().
  void setRuntimeContext(Context* context) { runtime_context_ = context; }

 private:
  Context* runtime_context_ = nullptr;
};

}  // namespace tidemark
