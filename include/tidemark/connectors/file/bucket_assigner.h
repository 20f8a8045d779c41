// Which directory under a file sink's base path a record goes to (Flink's
// BucketAssigner). The bucket id is a path relative to the base path; ""
// is the base path itself.
//
//   BasePathBucketAssigner<T>()                  // everything in the base path
//   DateTimeBucketAssigner<T>("yyyy-MM-dd--HH")  // one directory per hour of processing time
//
// A user assigner derives from BucketAssigner<T>; each subtask gets its own
// copy, so getBucketId() may keep a cache.
#pragma once

#include <optional>
#include <string>

#include "tidemark/core/time.h"

namespace tidemark {

/// What a bucket assigner may know about the record it places.
struct BucketAssignerContext {
  Timestamp current_processing_time = 0;
  Timestamp current_watermark = kMinWatermark;
  std::optional<Timestamp> timestamp;
};

template <class IN>
class BucketAssigner {
 public:
  virtual ~BucketAssigner() = default;
  virtual std::string getBucketId(const IN& element, const BucketAssignerContext& context) = 0;
};

template <class IN>
class BasePathBucketAssigner final : public BucketAssigner<IN> {
 public:
  std::string getBucketId(const IN&, const BucketAssignerContext&) override { return {}; }
};

namespace internal {

/// Formats processing times with a date-time pattern (see DateTimeBucketAssigner).
class DateTimeBucketFormat {
 public:
  explicit DateTimeBucketFormat(const std::string& pattern);
  /// The pattern applied to `time` (ms since the epoch, UTC); the text of
  /// the last second asked for is kept, so a call per record formats once a second.
  const std::string& format(Timestamp time);

 private:
  std::string strftime_pattern_;
  Timestamp cached_second_ = kMinWatermark;
  std::string cached_;
};

}  // namespace internal

/// One bucket per period of processing time, named by a Java-style
/// date-time pattern of yyyy, MM, dd, HH, mm and ss (Flink's default is
/// "yyyy-MM-dd--HH"); other letters are refused, other characters kept.
/// Times are in UTC, on purpose: the same run names the same buckets on
/// every machine (Flink uses the machine's time zone).
template <class IN>
class DateTimeBucketAssigner final : public BucketAssigner<IN> {
 public:
  explicit DateTimeBucketAssigner(const std::string& pattern = "yyyy-MM-dd--HH") : format_(pattern) {}
  std::string getBucketId(const IN&, const BucketAssignerContext& context) override {
    return format_.format(context.current_processing_time);
  }

 private:
  internal::DateTimeBucketFormat format_;
};

}  // namespace tidemark
