// The names of a file sink's part files (Flink's OutputFileConfig):
// <prefix>-<subtask>-<counter><suffix>, for example part-0-3.txt. While a
// part is written it is hidden, as .<name>.inprogress, and it takes its
// final name when the checkpoint after it completes.
//
//   OutputFileConfig::builder().withPartPrefix("clicks").withPartSuffix(".csv").build()
#pragma once

#include <string>

namespace tidemark {

class OutputFileConfig {
 public:
  class Builder {
   public:
    Builder& withPartPrefix(std::string prefix) {
      prefix_ = std::move(prefix);
      return *this;
    }
    Builder& withPartSuffix(std::string suffix) {
      suffix_ = std::move(suffix);
      return *this;
    }
    /// Throws std::invalid_argument for an empty prefix or a '/' in either.
    OutputFileConfig build() const;

   private:
    std::string prefix_ = "part";
    std::string suffix_;
  };
  static Builder builder() { return Builder(); }

  OutputFileConfig() = default;
  const std::string& getPartPrefix() const { return prefix_; }
  const std::string& getPartSuffix() const { return suffix_; }

 private:
  OutputFileConfig(std::string prefix, std::string suffix) : prefix_(std::move(prefix)), suffix_(std::move(suffix)) {}
  std::string prefix_ = "part";
  std::string suffix_;
};

}  // namespace tidemark
