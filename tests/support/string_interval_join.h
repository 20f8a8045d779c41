// The interval join the operator tests run: strings "key:payload" on both
// sides, keyed by what comes before the colon.
#pragma once

#include <functional>
#include <string>

#include "tidemark/internal/operators/interval_join_operator.h"
#include "tidemark/testing/two_input_harness.h"

namespace tidemark::testing_support {

using StringSelector = std::function<std::string(const std::string&)>;
using StringIntervalJoin = internal::IntervalJoinOperator<std::string, std::string, std::string, std::string,
                                                          StringSelector, StringSelector>;
using StringJoinHarness = TwoInputStreamOperatorTestHarness<std::string, std::string, std::string>;

inline std::string keyBeforeColon(const std::string& element) { return element.substr(0, element.find(':')); }

}  // namespace tidemark::testing_support
