// Combines records with the same key where they are made, before a shuffle,
// and hands the combined ones on just before the next watermark.
//
// A query whose keyed stage only ever needs the combination of some records
// (their sum, the best of them) can combine them in each source subtask
// first, so that far fewer cross the channel and touch keyed state. This is
// the local half of a two-phase aggregation. Under heavy key skew it is what
// keeps one subtask of the keyed stage from receiving most of the input.
//
// Records wait at most until the next watermark, idle status or end of
// input (flush_before_watermark.h), and leave before it, in the order their
// keys were first seen. Records whose key function returns nothing pass
// through at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "flush_before_watermark.h"
#include "tidemark/tidemark.h"

namespace tidemark::nexmark {

/// `key_of(const T&, Timestamp)` returns std::optional<Key> (nothing: pass
/// through); `combine(T& held, const T& next)` folds a later record with the
/// same key into the held one (the held record keeps its timestamp, so the
/// key should include whatever the timestamp decides downstream).
template <class T, class KeyOf, class Combine>
class CombineUntilWatermark final : public FlushBeforeWatermark<T, T> {
  using Key = typename std::invoke_result_t<KeyOf&, const T&, Timestamp>::value_type;

 public:
  CombineUntilWatermark(KeyOf key_of, Combine combine) : key_of_(std::move(key_of)), combine_(std::move(combine)) {}

  void processElement(StreamRecord<T>& record) override {
    std::optional<Key> key = key_of_(record.value, record.timestamp);
    if (!key) {
      this->output().collect(record);
      return;
    }
    const auto [slot, first] = index_.try_emplace(std::move(*key), held_.size());
    if (first) {
      held_.push_back(std::move(record));
      return;
    }
    ++combined_;
    combine_(held_[slot->second].value, record.value);
  }

  /// Records folded into another (reported as "records combined").
  void reportCounters(internal::CounterReport& report) const override {
    report.add("records combined", combined_);
  }

 private:
  void flush() override {
    for (StreamRecord<T>& record : held_) this->output().collect(record);
    // clear() frees a large table, which would then grow again through every
    // power of two before the next flush: size it for as many keys at once.
    const std::size_t keys = held_.size();
    held_.clear();
    index_.clear();
    index_.reserve(keys);
  }

  KeyOf key_of_;
  Combine combine_;
  absl::flat_hash_map<Key, std::size_t> index_;  // key -> index into held_
  std::vector<StreamRecord<T>> held_;
  std::uint64_t combined_ = 0;
};

/// For DataStream::transform: `[] { return combineUntilWatermark<T>(key_of, combine); }`.
template <class T, class KeyOf, class Combine>
std::unique_ptr<OneInputStreamOperator<T, T>> combineUntilWatermark(KeyOf key_of, Combine combine) {
  return std::make_unique<CombineUntilWatermark<T, KeyOf, Combine>>(std::move(key_of), std::move(combine));
}

}  // namespace tidemark::nexmark
