#include "tidemark/connectors/file/output_file_config.h"

#include <stdexcept>

namespace tidemark {

OutputFileConfig OutputFileConfig::Builder::build() const {
  if (prefix_.empty()) throw std::invalid_argument("OutputFileConfig: the part prefix is empty");
  if (prefix_.find('/') != std::string::npos || suffix_.find('/') != std::string::npos) {
    throw std::invalid_argument("OutputFileConfig: a part prefix or suffix may not hold '/' (prefix '" + prefix_ +
                                "', suffix '" + suffix_ + "')");
  }
  return OutputFileConfig(prefix_, suffix_);
}

}  // namespace tidemark
