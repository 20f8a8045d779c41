// How a row-format file sink turns a record into bytes (Flink's Encoder).
// encode() appends to `out`; it runs on the sink's task thread and must not
// keep state, since the subtasks share one encoder.
//
// SimpleStringEncoder writes each record as print() shows it, one per line.
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

#include "tidemark/core/describe.h"

namespace tidemark {

template <class IN>
class Encoder {
 public:
  virtual ~Encoder() = default;
  virtual void encode(const IN& element, std::string& out) const = 0;
};

template <class IN>
class SimpleStringEncoder final : public Encoder<IN> {
 public:
  void encode(const IN& element, std::string& out) const override {
    if constexpr (std::is_convertible_v<const IN&, std::string_view>) {
      out.append(std::string_view(element));
    } else {
      // One buffer per thread, reused: encoding allocates only while lines grow.
      thread_local std::ostringstream text;
      text.str(std::string());
      describeTo(text, element);
      out.append(text.view());
    }
    out.push_back('\n');
  }
};

}  // namespace tidemark
