// FailureInjection: a failure the job raises on purpose, in a chosen
// operator subtask at a chosen instant or after a chosen number of records,
// so that recovery can be tested. In simulated time both are exact and
// reproducible: the same injection fails the same run at the same element.
//
// Contract:
// - Each injection fires at most once per execute(), however often the job
//   restarts: a restarted job does not fail again at the same point.
// - atTime(op, s, t): subtask s (0-based) of the operator named op fails when
//   the job's clock reaches t (ms; virtual in simulated time), between two
//   elements. An instant after that subtask finished never comes.
// - afterRecords(op, s, n): that subtask fails when its (n + 1)-th record
//   arrives, before it processes it: exactly n records got through. A source
//   receives no records; name one of the operators it feeds.
// - The failure's message says "injected failure" and names the operator
//   subtask and the instant or count; the job then fails, or restarts as its
//   restart strategy says.
// - An injection naming an operator or subtask the job does not have makes
//   execute() throw InvalidProgramException before the job starts.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "tidemark/core/time.h"

namespace tidemark {

class FailureInjection {
 public:
  enum class Kind { AT_TIME, AFTER_RECORDS };

  static FailureInjection atTime(std::string operator_name, int subtask, Timestamp instant) {
    return FailureInjection(Kind::AT_TIME, std::move(operator_name), subtask, instant, 0);
  }
  static FailureInjection afterRecords(std::string operator_name, int subtask, std::uint64_t records) {
    return FailureInjection(Kind::AFTER_RECORDS, std::move(operator_name), subtask, 0, records);
  }

  Kind kind() const { return kind_; }
  const std::string& operatorName() const { return operator_name_; }
  int subtask() const { return subtask_; }
  Timestamp instant() const { return instant_; }
  std::uint64_t records() const { return records_; }
  /// "after 120 records of operator 'window' (subtask 1)", for messages.
  std::string describe() const;

 private:
  FailureInjection(Kind kind, std::string operator_name, int subtask, Timestamp instant, std::uint64_t records)
      : kind_(kind), operator_name_(std::move(operator_name)), subtask_(subtask), instant_(instant), records_(records) {}

  Kind kind_;
  std::string operator_name_;
  int subtask_;
  Timestamp instant_;
  std::uint64_t records_;
};

}  // namespace tidemark
