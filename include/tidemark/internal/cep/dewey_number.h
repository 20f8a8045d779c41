// DeweyNumber: the version of a partial match (Flink CEP's DeweyNumber).
//
// A partial match that branches (one event both taken and ignored, or taken
// by two transitions) gives each branch its own version: `increase(n)` bumps
// the last digit, `addStage()` appends a 0 when a branch moves on to the next
// state. Shared-buffer edges carry the version of the branch that wrote them,
// and a branch follows only edges it is compatible with, which is how many
// partial matches share one buffer without seeing each other's events.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>

#include <absl/container/inlined_vector.h>

namespace tidemark::internal {

class DeweyNumber {
 public:
  DeweyNumber() = default;
  explicit DeweyNumber(std::int32_t start) { digits_.push_back(start); }

  /// A copy whose last digit is larger by `times`.
  DeweyNumber increase(std::int32_t times = 1) const {
    DeweyNumber result = *this;
    result.digits_.back() += times;
    return result;
  }
  /// A copy with a new last digit 0.
  DeweyNumber addStage() const {
    DeweyNumber result = *this;
    result.digits_.push_back(0);
    return result;
  }

  /// True when this version may follow an edge written by `other`: `other` is
  /// a proper prefix of this, or both have the same length, the same digits
  /// but the last, and this one's last digit is at least `other`'s.
  bool isCompatibleWith(const DeweyNumber& other) const {
    const std::size_t n = digits_.size();
    const std::size_t m = other.digits_.size();
    if (n > m) {
      for (std::size_t i = 0; i < m; ++i) {
        if (digits_[i] != other.digits_[i]) return false;
      }
      return true;
    }
    if (n < m || n == 0) return false;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      if (digits_[i] != other.digits_[i]) return false;
    }
    return digits_[n - 1] >= other.digits_[n - 1];
  }

  std::size_t length() const { return digits_.size(); }
  std::int32_t operator[](std::size_t i) const { return digits_[i]; }

  /// "1.0.2"
  std::string toString() const {
    std::string s;
    for (std::size_t i = 0; i < digits_.size(); ++i) {
      if (i > 0) s += '.';
      s += std::to_string(digits_[i]);
    }
    return s;
  }

  friend bool operator==(const DeweyNumber&, const DeweyNumber&) = default;

  /// What a snapshot writes (the digits).
  auto fields() { return std::tie(digits_); }

 private:
  absl::InlinedVector<std::int32_t, 6> digits_;
};

}  // namespace tidemark::internal
