#include "loaders/compile_log.h"

namespace anygpu {

std::string first_error_line(const std::string& log, const char* marker, bool skip_blank,
                             const char* none) {
  std::string first;
  size_t begin = 0;
  while (begin < log.size()) {
    size_t end = log.find('\n', begin);
    if (end == std::string::npos) end = log.size();
    const std::string line = log.substr(begin, end - begin);
    if (line.find(marker) != std::string::npos) return line;
    if (first.empty() && (!skip_blank || line.find_first_not_of(" \t\r") != std::string::npos))
      first = line;
    begin = end + 1;
  }
  return first.empty() ? none : first;
}

}  // namespace anygpu
